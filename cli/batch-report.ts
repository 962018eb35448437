// What `run` prints while it plays: one line per finished episode under a header (stdout), the
// progress bar and the reasons episodes failed (stderr). Episodes start while later scenario files
// are still being checked, so everything waits until the plan is complete: the columns are as wide
// as the longest name of the whole run, and a run spoiled by a file with errors prints no line.
import { jobLabel, type BatchJob } from "../engine/runner/jobs.js";
import { errorMessage } from "../engine/base/text.js";
import { problemLine, type CliIO } from "./io.js";
import type { PlayOutcome } from "../engine/runner/play.js";
import { startProgress, type Progress } from "./progress.js";
import { resultStatus, type ScenarioResult } from "../engine/runner/summary.js";
import { formatScore } from "../engine/evaluation/highlights.js";
import { columnWidths, headerLine, rowLine, type Column } from "./table.js";

interface Finished {
  readonly job: BatchJob;
  readonly outcome: PlayOutcome;
}

export class BatchReport {
  private live: { readonly progress: Progress; readonly row: (result: ScenarioResult) => string } | null = null;
  /** Episodes that finished before the plan was complete, in the order they finished. */
  private readonly held: Finished[] = [];
  /** Episodes that started before the plan was complete. */
  private startedEarly = 0;

  constructor(
    private readonly io: CliIO,
    /** Show the bar even when stderr is not a terminal (--progress). */
    private readonly forceBar: boolean,
    /** Extra text for the bar (`--concurrency auto`: each endpoint's limit and refusals). */
    private readonly status?: () => string,
  ) {}

  started(): void {
    if (this.live) this.live.progress.started();
    else this.startedEarly++;
  }

  finished(job: BatchJob, outcome: PlayOutcome): void {
    if (this.live) this.print({ job, outcome });
    else this.held.push({ job, outcome });
  }

  /**
   * The plan is complete: `jobs` are all the run's jobs, `alreadyDone` of them complete from an
   * earlier run (--resume) and `toPlay` to be played. Starts the bar and prints the header and the
   * lines held so far.
   */
  open(jobs: readonly BatchJob[], alreadyDone: number, toPlay: number): void {
    const columns = resultColumns(Math.max(...jobs.map((j) => jobLabel(j.scenario.name, j.trial).length)));
    const widths = columnWidths(columns, []);
    const progress = startProgress(this.io, {
      total: jobs.length,
      done: alreadyDone,
      force: this.forceBar,
      ...(this.status ? { status: this.status } : {}),
    });
    if (toPlay > 0) progress.line(headerLine(columns, widths));
    this.live = { progress, row: (r) => rowLine(columns, widths, { ...r, name: jobLabel(r.name, r.trial) }) };
    for (let i = 0; i < this.startedEarly; i++) progress.started();
    for (const finished of this.held.splice(0)) this.print(finished);
  }

  stop(): void {
    this.live?.progress.stop();
  }

  /** The finished job's line (stdout) and, when it failed, why (stderr). */
  private print({ job, outcome }: Finished): void {
    if (!this.live) return;
    const { progress, row } = this.live;
    const { result, engineError } = outcome;
    const name = jobLabel(result.name, job.trial);
    progress.line(row(result));
    if (engineError !== null) {
      this.io.err(problemLine(`${job.file}: ${name}: engine error: ${errorMessage(engineError)}`));
      if (this.io.debug && engineError instanceof Error && engineError.stack) this.io.err(engineError.stack);
    } else if (result.failed) {
      this.io.err(
        problemLine(`${job.file}: ${name} ended with ${result.end_reason ?? "error"}${result.detail ? `: ${result.detail}` : ""}`),
      );
    }
    progress.advance(name);
  }
}

/** The console line of one scenario, column by column. */
function resultColumns(nameWidth: number): Column<ScenarioResult>[] {
  return [
    { header: "SCENARIO", width: nameWidth, cell: (r) => r.name },
    { header: "END", width: "invalid_tool_call".length, cell: (r) => r.end_reason ?? "error" },
    { header: "MESSAGES", align: "right", cell: (r) => String(r.message_count) },
    { header: "TURNS", align: "right", cell: (r) => String(r.turn_count) },
    // An errored scenario shows no score: what it matched before the failure is not the agent's result.
    { header: "SCORE", align: "right", cell: (r) => (resultStatus(r) === "errored" ? "errored" : formatScore(r.score)) },
  ];
}

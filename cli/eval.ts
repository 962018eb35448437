// `toolsandbox eval`: re-scores saved trajectories without running anything, against the scenario
// embedded in each file or against a (newer) scenario file given with --scenario. Next to the
// score it gives the peer benchmarks' metrics. Over several trajectories it adds up each group of
// one agent, user, prompt set and augmentation on its own, as `report` does (trial-groups.ts): a
// byte-identical copy counts once, each scenario's trials are folded into one mean before the
// category table, and runs of an edited scenario are a scenario of their own; pass^k when some
// scenario has several trials. Everything is read and scored before anything is printed, so a bad
// file never leaves half a JSON document.
import { formatDiagnostic } from "../engine/base/diagnostics.js";
import { evaluateTrajectory, EvaluationError, type EvaluationResult } from "../engine/evaluation/evaluate.js";
import type { PassHatKReport, PeerMetrics } from "../engine/benchmarks/peers.js";
import type { EndReason } from "../engine/episode/types.js";
import type { Scenario } from "../engine/scenario/model.js";
import { formatWarning } from "../engine/trajectory/errors.js";
import { damageOfWhole, describeDamage } from "../engine/trajectory/run-damage.js";
import type { RunStatus } from "../engine/evaluation/outcome.js";
import { contentDigest, groupFieldsOf, runStatus } from "../engine/reports/run-record.js";
import {
  byGroup,
  copiesNote,
  groupFigures,
  groupKey,
  versionNotes,
  withoutCopies,
  type TrialKeys,
} from "../engine/reports/trial-groups.js";
import type { CategoryRow } from "../engine/evaluation/categories.js";
import { formatInterval, type Interval } from "../engine/evaluation/statistics/intervals.js";
import { plural } from "../engine/base/text.js";
import { readFileSync } from "node:fs";
import { ExitError, EXIT, type ExitCode } from "../engine/runner/errors.js";
import type { Command } from "commander";
import { problemLine, type CliIO } from "./io.js";
import { evalAgainstUpstream } from "./eval-upstream.js";
import { numberIn } from "./number-options.js";
import { addOptions, MODES, refuseOutsideMode, type OptionTable, type OptionValues } from "./option-table.js";
import { loadTrajectory } from "./replay.js";
import { collectTrajectoryFiles, hasErrors, loadScenario } from "../engine/runner/scenario-files.js";
import { formatScore } from "../engine/evaluation/highlights.js";
import { categoryTableLines, nodeTableLines, passHatKLines, peerLines, scoreLine } from "./score-lines.js";
import { judgementLines, judgementReport, type JudgementReport } from "./judgement-lines.js";
import { reviewSummary, type ReviewSummary } from "../engine/runner/review-summary.js";
import { episodePeers } from "../engine/runner/summary.js";
import { evalToolTalkMode } from "./tooltalk-eval.js";
import { evalDialogToolMode } from "./dialogtool-eval.js";

interface EvalOptions {
  /** A scenario file to score every trajectory against instead of the scenario each embeds. */
  readonly scenario?: string;
  readonly json?: boolean;
  /** pass^k counts a trial as a success when its score >= this - 1e-6. Default 1. */
  readonly successThreshold?: number;
  /** "tooltalk": ToolTalk's metrics per conversation and aggregated (tooltalk-eval.ts). */
  readonly mode?: "milestone" | "tooltalk" | "dialogtool";
}

/** One element of `eval --json`'s `trajectories`: where the score came from, the evaluation, then the peer metrics. */
type EvalReport = {
  readonly file: string;
  readonly scenario: string;
  /** "embedded", or the --scenario file the trajectory was scored against. */
  readonly scored_against: string;
  readonly categories: Scenario["categories"];
  /** Null when the run did not finish (no end event). */
  readonly end_reason: EndReason | null;
  /**
   * Whether the score counts in the mean, the category table and pass^k: a damaged file (cut short,
   * no end) or an errored end (outcome.ts) is scored for the reader but counted nowhere.
   */
  readonly status: RunStatus;
  /** Where and why the file is damaged (run-damage.ts); null when it is whole. */
  readonly damaged: string | null;
  /** The group it is added up in (trial-groups.ts): "agent … · user … · prompts … · augmentation …". */
  readonly group: string;
  /** The version of the scenario the run played (the header's scenario_digest), whatever it was scored against. */
  readonly scenario_digest: string;
  /** The earlier file this one is a byte-identical copy of (counted once); null when it is none. */
  readonly copy_of: string | null;
} & Omit<TrialKeys, "file" | "scenario" | "scenario_digest"> &
  EvaluationResult & {
    /** ToolTalk's and ToolScan's metrics against the reference solution; null without one. */
    readonly peers: PeerMetrics | null;
    /** The role-play judge's verdict recorded by `run --judge`; absent when the file has none. */
    readonly judgement?: JudgementReport;
    /** The failure reviewer's verdict recorded by `run --review`; absent when the file has none. */
    readonly review?: ReviewSummary;
  };

/** One group's figures in `eval --json`: its scenarios' folded means, never pooled with another group's. */
interface EvalGroup {
  readonly key: string;
  readonly agent: string;
  readonly user: string;
  readonly prompts: string;
  readonly augmentation: string;
  /** Its trajectories, copies left out. */
  readonly trajectories: number;
  /** Those whose score counts (neither damaged nor errored). */
  readonly counted: number;
  /** Scenarios (each version of an edited one) with a counted trajectory. */
  readonly scenarios: number;
  /** Mean over those scenarios of their trials' mean; null when none counted. */
  readonly score: number | null;
  /** 95% percentile bootstrap over scenarios; null under 10 scenarios. */
  readonly interval: Interval | null;
  readonly categories: readonly CategoryRow[];
  /** Null when no scenario has two counted trials. */
  readonly pass_hat_k: (PassHatKReport & { readonly estimator: string }) | null;
}

function evalCommand(paths: readonly string[], options: EvalOptions, io: CliIO): ExitCode {
  if (options.mode === "tooltalk") return evalToolTalkMode(paths, options, io);
  if (options.mode === "dialogtool") return evalDialogToolMode(paths, options, io);
  const override = options.scenario === undefined ? null : loadOverride(options.scenario, io);
  if (override === false) return EXIT.failed;
  const scored = collectTrajectoryFiles(paths).map((file) => score(file, override, io));
  const { records: distinct, duplicates } = withoutCopies(scored);
  const copyOf = new Map(duplicates.map((d) => [d.file, d.copy_of]));
  const reports = scored.map((r) => ({ ...r, copy_of: copyOf.get(r.file) ?? null }));
  const groups = byGroup(distinct).map(([key, runs]) => evalGroup(key, runs, options.successThreshold ?? 1));
  const copies = copiesNote(duplicates);
  const notes = [...(copies === null ? [] : [copies]), ...versionNotes(distinct)];

  if (options.json) {
    // A damaged or errored run's score is null, as in `report --json`; what this build computes for it
    // is kept in evaluated_score, for reading; a scored run's record is as it was.
    const trajectories = reports.map((r) => (r.status === "scored" ? r : { ...r, score: null, evaluated_score: r.score }));
    io.out(JSON.stringify({ trajectories, groups, duplicates, notes }, null, 2));
    return EXIT.ok;
  }
  reports.forEach((r, i) => {
    if (i > 0) io.out("");
    io.out(r.file);
    io.out(`  scenario  ${r.scenario}${r.scored_against === "embedded" ? "" : ` (scored against ${r.scored_against})`}`);
    if (r.copy_of !== null) io.out(`  copy of ${r.copy_of}: the same run, counted once`);
    if (r.status !== "scored") io.out(`  ${r.status}: ${r.damaged ?? r.end_reason ?? "no end"}; its score is not counted`);
    io.out(`  ${scoreLine(r)}`);
    for (const line of nodeTableLines(r)) io.out(`  ${line}`);
    if (r.peers !== null) for (const line of peerLines(r.peers)) io.out(`  ${line}`);
    if (r.judgement !== undefined) for (const line of judgementLines({ type: "judgement", ...r.judgement })) io.out(`  ${line}`);
    if (r.review !== undefined) io.out(`  review    ${r.review.reviewer} says ${r.review.kind ?? "nothing"}: ${r.review.reason}`);
  });
  // One trajectory is its own figure; the sums start at two.
  if (reports.length < 2) return EXIT.ok;
  io.out("");
  for (const note of notes) {
    io.out(`note: ${note}`);
    io.out("");
  }
  groups.forEach((g, i) => {
    if (i > 0) io.out("");
    for (const line of groupLines(g)) io.out(line);
  });
  return EXIT.ok;
}

/** A group's figures as `report` computes them (trial-groups.ts): pass^k only when some scenario has two counted trials. */
function evalGroup(key: string, runs: readonly EvalReport[], threshold: number): EvalGroup {
  const first = runs[0]!;
  const figures = groupFigures(
    runs,
    (r) => (r.status === "scored" ? r.score : null),
    (r) => r.turn_count,
    threshold,
  );
  // pass^1 alone is just the success rate.
  const trials = figures.scenarios.some((s) => s.scores.length > 1);
  return {
    key,
    agent: first.agent,
    user: first.user,
    prompts: first.prompts,
    augmentation: first.augmentation,
    trajectories: runs.length,
    counted: figures.scenarios.reduce((n, s) => n + s.runs.length, 0),
    scenarios: figures.scenarios.length,
    score: figures.score,
    interval: figures.interval,
    categories: figures.categories,
    pass_hat_k: trials ? figures.pass_hat_k : null,
  };
}

/** The group's key, then indented: the category table, the counted trajectories and mean over scenarios, pass^k. */
function groupLines(g: EvalGroup): string[] {
  const left = g.trajectories - g.counted;
  const lines = [g.key];
  if (g.categories.length > 0) lines.push(...categoryTableLines(g.categories).map((l) => `  ${l}`));
  lines.push(
    `  ${g.counted} of ${g.trajectories} trajectories counted${left === 0 ? "" : ` (${left} damaged or errored, left out)`}, ${plural(g.scenarios, "scenario")}, mean score ${formatScore(g.score)}${g.score === null ? "" : ` ${formatInterval(g.interval)}`}`,
  );
  if (g.pass_hat_k !== null) lines.push(...passHatKLines(g.pass_hat_k).map((l) => `  ${l}`));
  return lines;
}

/** The --scenario file resolved, or false (diagnostics printed) when it has errors. */
function loadOverride(file: string, io: CliIO): { file: string; scenario: Scenario } | false {
  const loaded = loadScenario(file);
  for (const d of loaded.diagnostics) io.err(formatDiagnostic(d));
  if (hasErrors(loaded.diagnostics) || !loaded.scenario) {
    io.err(problemLine(`${file} has errors; nothing was scored`));
    return false;
  }
  return { file, scenario: loaded.scenario };
}

function score(file: string, override: { file: string; scenario: Scenario } | null, io: CliIO): EvalReport {
  const trajectory = loadTrajectory(file);
  for (const w of trajectory.warnings) io.err(problemLine(formatWarning(file, w)));
  const played = trajectory.header.scenario;
  const scenario = override?.scenario ?? played;
  if (override && scenario.name !== played.name) {
    io.err(
      problemLine(
        `${file}: warning: scored against scenario "${scenario.name}" from ${override.file}, but the trajectory ran "${played.name}"`,
      ),
    );
  }
  let result: EvaluationResult;
  try {
    result = evaluateTrajectory(trajectory, scenario);
  } catch (e) {
    if (!(e instanceof EvaluationError)) throw e;
    // A checked --scenario file cannot fail here; an embedded scenario only passed the schema.
    throw new ExitError(`${file}: cannot score the embedded scenario: ${e.message}`, EXIT.malformedTrajectory);
  }
  const damage = damageOfWhole(trajectory);
  const status = runStatus(trajectory, damage, { rescored: true }).status;
  const fields = groupFieldsOf(trajectory.header);
  return {
    file,
    scenario: scenario.name,
    ...fields,
    group: groupKey(fields),
    content_digest: contentDigest(readFileSync(file, "utf8")),
    copy_of: null,
    scored_against: override?.file ?? "embedded",
    categories: scenario.categories,
    end_reason: trajectory.endReason,
    status,
    damaged: damage === null ? null : describeDamage(damage),
    ...result,
    peers: episodePeers(scenario, trajectory.messages, played),
    ...(trajectory.judgement ? { judgement: judgementReport(trajectory.judgement) } : {}),
    ...(trajectory.review ? { review: reviewSummary(trajectory.review) } : {}),
  };
}

/** `eval`'s options, declared once (option-table.ts). */
export const EVAL_OPTIONS = {
  scenario: {
    flags: "--scenario <file>",
    description: "score against this scenario file instead of the scenario embedded in each trajectory",
    parse: String,
  },
  json: { flags: "--json", description: 'print one JSON object: { "trajectories": [one object per trajectory], "pass_hat_k": ... }' },
  successThreshold: {
    flags: "--success-threshold <score>",
    description: "the score from which a trial counts as a success for pass^k (within 1e-6)",
    parse: numberIn("the threshold", 0, 1),
    default: 1,
  },
  mode: {
    flags: "--mode <mode>",
    description:
      'milestone: the scenario\'s milestones and minefields; tooltalk: ToolTalk\'s metrics per conversation and aggregated (trajectories of ToolTalk scenarios and *.tooltalk.json files of `run --mode tooltalk`; --json prints { "conversations": [...], "aggregate": ... }); dialogtool: DialogTool\'s per-turn scores (trajectories, turn by turn within each dialogue turn, and *.dialogtool.json files of `run --mode dialogtool`)',
    choices: MODES,
    default: "milestone",
  },
  againstUpstream: {
    flags: "--against-upstream <checkout>",
    description:
      "also score each trajectory with this ToolSandbox checkout's own evaluation and print both side by side (scenarios imported from it)",
    parse: String,
    modes: ["milestone"],
    why: "it scores each trajectory against its own upstream scenario",
    conflicts: ["scenario"],
  },
  python: {
    flags: "--python <exe>",
    description: "with --against-upstream: the Python that imports the checkout",
    parse: String,
    default: "python3",
  },
} as const satisfies OptionTable;

export function registerEval(program: Command, io: CliIO, setExit: (code: ExitCode) => void): void {
  const command = program
    .command("eval")
    .description("re-score saved trajectories without running anything: where each milestone and minefield matched, and why")
    .argument("<trajectories...>", "*.trajectory.jsonl files, or directories to search for them")
    .addHelpText(
      "after",
      "\nEach trajectory with a reference solution also gets ToolTalk's and ToolScan's metrics. With several\ntrajectories it prints the per-category table, and pass^k when some scenario has several (trials).\nExits 1 when the --scenario file has errors, or with --against-upstream when a score differs.",
    );
  addOptions(command, EVAL_OPTIONS).action((paths: string[], opts: OptionValues<typeof EVAL_OPTIONS>) => {
    refuseOutsideMode(EVAL_OPTIONS, opts, opts.mode);
    if (opts.againstUpstream === undefined) return setExit(evalCommand(paths, opts, io));
    return setExit(evalAgainstUpstream(paths, { checkout: opts.againstUpstream, python: opts.python, json: opts.json }, io));
  });
}

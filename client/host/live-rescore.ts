// Re-scoring as the author types: when a scenario that shows a run's results changes, the run is
// scored again against the editor's text (not the saved file) about 300 ms after the last
// keystroke, and the inline results and every panel showing the run get the new evaluation. A
// text with errors keeps the previous results, marked as such. The Re-score command runs the
// same step at once. A long run is scored in a worker (scoring-worker.ts): a newer edit cancels
// the job in flight, and a job still going after half a second shows a notification with how far
// it has come, the time so far and a Cancel button (scoring-notice.ts).
import { basename } from "node:path";
import * as vscode from "vscode";
import { isScenarioDocument } from "./scenario-documents.js";
import { showScoringNotice } from "./scoring-notice.js";
import { BackgroundScorer, JobProgress } from "./scoring-worker.js";
import type { RunStore } from "./run-store.js";

const DEBOUNCE_MS = 300;

type RescoreOutcome = { readonly ok: true; readonly summary: string | null } | { readonly ok: false; readonly problem: string };

export class LiveRescore implements vscode.Disposable {
  private readonly timers = new Map<string, ReturnType<typeof setTimeout>>();
  private readonly subscription: vscode.Disposable;
  /** The job in flight for each scenario; a newer one cancels it. */
  private readonly jobs = new Map<string, AbortController>();
  private readonly scorer: BackgroundScorer;

  /** `workerScript`: dist/scoring-worker.js; null scores in-process. */
  constructor(
    private readonly store: RunStore,
    workerScript: string | null = null,
  ) {
    this.scorer = new BackgroundScorer(workerScript);
    this.subscription = vscode.workspace.onDidChangeTextDocument((e) => {
      if (e.contentChanges.length === 0 || !isScenarioDocument(e.document)) return;
      const path = e.document.uri.fsPath;
      if (this.store.results(path) === null) return;
      clearTimeout(this.timers.get(path));
      this.timers.set(
        path,
        setTimeout(() => {
          this.timers.delete(path);
          void this.rescore(path, e.document.getText());
        }, DEBOUNCE_MS),
      );
    });
  }

  /**
   * Scores the trajectory the scenario shows (or `trajectoryPath`, which it shows from then on)
   * against `text`. Not ok when there is no finished run to score, the text has errors, or a newer
   * re-score (or the user) cancelled this one: then the results stay as they were.
   */
  async rescore(scenarioPath: string, text: string, trajectoryPath?: string): Promise<RescoreOutcome> {
    const path = trajectoryPath ?? this.store.results(scenarioPath)?.trajectoryPath;
    const trajectory = path === undefined ? null : this.store.trajectory(path);
    if (path === undefined || trajectory === null) return { ok: false, problem: "there is no finished run to score" };
    if (trajectoryPath !== undefined) this.store.show(scenarioPath, trajectoryPath);
    this.jobs.get(scenarioPath)?.abort();
    const job = new AbortController();
    this.jobs.set(scenarioPath, job);
    const progress = new JobProgress();
    const scoring = this.scorer.score(trajectory, text, scenarioPath, job.signal, progress.report);
    if (this.scorer.inWorker(trajectory.messages.length)) {
      const what = `re-scoring ${trajectory.messages.length.toLocaleString("en-US")} messages against ${basename(scenarioPath)}`;
      showScoringNotice(what, scoring, () => job.abort(), progress);
    }
    const rescored = await scoring;
    if (this.jobs.get(scenarioPath) === job) this.jobs.delete(scenarioPath);
    if ("cancelled" in rescored) return { ok: false, problem: rescored.problem };
    if (!rescored.ok) {
      this.store.setNote(scenarioPath, { stale: true, text: `results from before the last edit: ${rescored.problem}` });
      return { ok: false, problem: rescored.problem };
    }
    this.store.setEvaluation(
      path,
      rescored.result,
      rescored.warning === null ? null : { stale: false, text: rescored.warning },
      rescored.rescored,
    );
    return { ok: true, summary: rescored.warning };
  }

  dispose(): void {
    for (const job of this.jobs.values()) job.abort();
    this.jobs.clear();
    this.subscription.dispose();
    for (const timer of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
  }
}

// Re-scoring as the author types: when a scenario that shows a run's results changes, the run is
// scored again against the editor's text (not the saved file) about 300 ms after the last
// keystroke, and the inline results and every panel showing the run get the new evaluation. A
// text with errors keeps the previous results, marked as such. The Re-score command runs the
// same step at once.
import * as vscode from "vscode";
import { isScenarioDocument } from "./scenario-documents.js";
import { rescoreAgainstText } from "./rescore.js";
import type { RunStore } from "./run-store.js";

const DEBOUNCE_MS = 300;

type RescoreOutcome = { readonly ok: true; readonly summary: string | null } | { readonly ok: false; readonly problem: string };

export class LiveRescore implements vscode.Disposable {
  private readonly timers = new Map<string, ReturnType<typeof setTimeout>>();
  private readonly subscription: vscode.Disposable;

  constructor(private readonly store: RunStore) {
    this.subscription = vscode.workspace.onDidChangeTextDocument((e) => {
      if (e.contentChanges.length === 0 || !isScenarioDocument(e.document)) return;
      const path = e.document.uri.fsPath;
      if (this.store.results(path) === null) return;
      clearTimeout(this.timers.get(path));
      this.timers.set(
        path,
        setTimeout(() => {
          this.timers.delete(path);
          this.rescore(path, e.document.getText());
        }, DEBOUNCE_MS),
      );
    });
  }

  /**
   * Scores the trajectory the scenario shows (or `trajectoryPath`, which it shows from then on)
   * against `text`. Not ok when there is no finished run to score or the text has errors.
   */
  rescore(scenarioPath: string, text: string, trajectoryPath?: string): RescoreOutcome {
    const path = trajectoryPath ?? this.store.results(scenarioPath)?.trajectoryPath;
    const trajectory = path === undefined ? null : this.store.trajectory(path);
    if (path === undefined || trajectory === null) return { ok: false, problem: "there is no finished run to score" };
    if (trajectoryPath !== undefined) this.store.show(scenarioPath, trajectoryPath);
    const rescored = rescoreAgainstText(trajectory, text, scenarioPath);
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
    this.subscription.dispose();
    for (const timer of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
  }
}

// CodeLenses in a scenario: "Run", "Run with model" and "Replay last run" on the first line, and
// on each milestone and minefield line the result of the run the scenario shows; clicking a
// result moves the panel to the message it is about (toolsandbox.revealMessage).
import * as vscode from "vscode";
import { outlineOf } from "./scenario-documents.js";
import { erroredReason, nodeKey, nodeResultViews, shownRunSummary } from "./node-results.js";
import type { RunStore } from "./run-store.js";
import type { Trajectories } from "./trajectories.js";

export class ScenarioCodeLenses implements vscode.CodeLensProvider, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeCodeLenses = this.changed.event;
  private readonly disposables: vscode.Disposable[] = [this.changed];

  constructor(
    private readonly store: RunStore,
    private readonly trajectories: Trajectories,
  ) {
    const unsubscribe = store.onDidChange(() => this.changed.fire());
    this.disposables.push(
      { dispose: unsubscribe },
      // The run lenses appear once the workspace is trusted.
      vscode.workspace.onDidGrantWorkspaceTrust(() => this.changed.fire()),
    );
  }

  provideCodeLenses(document: vscode.TextDocument): vscode.CodeLens[] {
    const outline = outlineOf(document);
    const lenses: vscode.CodeLens[] = [];
    const top = new vscode.Range(0, 0, 0, 0);
    const uri = document.uri;
    if (vscode.workspace.isTrusted) {
      lenses.push(
        new vscode.CodeLens(top, {
          title: "$(play) Run",
          tooltip: "Play the scenario with the scripted agent and user",
          command: "toolsandbox.runScenario",
          arguments: [uri],
        }),
        new vscode.CodeLens(top, {
          title: "Run with model",
          tooltip: "Play the scenario with the configured models",
          command: "toolsandbox.runScenarioWithModel",
          arguments: [uri],
        }),
      );
    } else {
      // Say why there is no Run, and where trust is granted, instead of leaving the lenses out silently.
      lenses.push(
        new vscode.CodeLens(top, {
          title: "$(shield) Running is off in Restricted Mode: trust this workspace to run",
          tooltip:
            "A run writes files and can call the configured model endpoints, so it needs a trusted workspace. Authoring, replay and re-scoring work now.",
          command: "workbench.trust.manage",
        }),
      );
    }
    const lastRun = outline.name === null || uri.scheme !== "file" ? null : this.trajectories.lastRunOf(uri.fsPath, outline.name);
    if (lastRun !== null) {
      lenses.push(
        new vscode.CodeLens(top, {
          title: "Replay last run",
          tooltip: lastRun,
          command: "toolsandbox.replayTrajectory",
          arguments: [vscode.Uri.file(lastRun)],
        }),
      );
    }

    const results = uri.scheme === "file" ? this.store.results(uri.fsPath) : null;
    const errored = results?.finished === true ? erroredReason(results.end) : null;
    if (results?.evaluation && results.finished && (errored !== null || results.rescored !== null)) {
      // Beside the run lenses: an errored run says so, never a score; a re-score says what it was scored against.
      lenses.push(
        new vscode.CodeLens(top, {
          title: `${errored === null ? "$(warning)" : "$(error)"} ${shownRunSummary(results.evaluation, results.end, results.rescored).replace(/^(errored \([^)]*\)).*$/, "$1")}`,
          tooltip: errored ?? "The run was played with another version of this scenario; the file keeps the recorded score.",
          command: "toolsandbox.revealMessage",
          arguments: [vscode.Uri.file(results.trajectoryPath).toString(), null],
        }),
      );
    }
    if (results?.evaluation) {
      const views = nodeResultViews(results.evaluation);
      const trajectory = vscode.Uri.file(results.trajectoryPath).toString();
      for (const location of outline.nodes) {
        const view = views.get(nodeKey(location.kind, location.id));
        if (!view) continue;
        lenses.push(
          new vscode.CodeLens(new vscode.Range(location.line, 0, location.line, 0), {
            title: errored === null ? view.text : "○ not scored: the run errored",
            tooltip: view.message === null ? "Open the run in the panel" : `Show message ${view.message} in the panel`,
            command: "toolsandbox.revealMessage",
            arguments: [trajectory, view.message],
          }),
        );
      }
    }
    return lenses;
  }

  dispose(): void {
    for (const d of this.disposables.splice(0)) d.dispose();
  }
}

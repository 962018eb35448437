// Results in the scenario editor: after each milestone and minefield line, how it fared in the
// run the scenario currently shows, in brief ("✓ 1.00"; the CodeLens above says where), with the reason
// on hover; and a status bar entry with the score, which also says when the results are older
// than the text (the edited scenario has errors, so it could not be re-scored).
import * as vscode from "vscode";
import { erroredReason, nodeKey, nodeResultViews, type ResultTone } from "./node-results.js";
import { statusText } from "./status-text.js";
import type { RunStore } from "./run-store.js";
import { isScenarioDocument, outlineOf } from "./scenario-documents.js";

// The extension's own colours (package.json "colors"): the testing icons' greens and reds are too
// faint as text on a light theme (under 4.5:1), so the light defaults are darker.
const TONE_COLOURS: Readonly<Record<ResultTone, string>> = {
  matched: "toolsandbox.resultPassed",
  clear: "toolsandbox.resultPassed",
  partial: "toolsandbox.resultPartial",
  hit: "toolsandbox.resultFailed",
  missed: "toolsandbox.resultFailed",
};

/** After an edit, results move to their nodes' new lines this long after the last keystroke (VS Code shifts them meanwhile). */
const RELAYOUT_DELAY_MS = 100;

export class InlineResults implements vscode.Disposable {
  private readonly decorations: ReadonlyMap<ResultTone, vscode.TextEditorDecorationType>;
  private readonly status = vscode.window.createStatusBarItem("toolsandbox.results", vscode.StatusBarAlignment.Left, 50);
  private readonly disposables: vscode.Disposable[] = [];
  private relayout: ReturnType<typeof setTimeout> | undefined;

  constructor(private readonly store: RunStore) {
    this.decorations = new Map(
      (Object.keys(TONE_COLOURS) as ResultTone[]).map((tone) => [
        tone,
        vscode.window.createTextEditorDecorationType({
          after: { margin: "0 0 0 2em", color: new vscode.ThemeColor(TONE_COLOURS[tone]) },
          rangeBehavior: vscode.DecorationRangeBehavior.ClosedClosed,
        }),
      ]),
    );
    this.status.name = "ToolSandbox results";
    const unsubscribe = store.onDidChange(() => this.refreshAll());
    this.disposables.push(
      { dispose: unsubscribe },
      vscode.window.onDidChangeVisibleTextEditors(() => this.refreshAll()),
      vscode.window.onDidChangeActiveTextEditor(() => this.refreshStatus()),
      // Lines move while typing; the results follow their nodes shortly after (re-scoring comes later).
      vscode.workspace.onDidChangeTextDocument((e) => {
        if (!isScenarioDocument(e.document) || this.store.results(e.document.uri.fsPath) === null) return;
        clearTimeout(this.relayout);
        this.relayout = setTimeout(() => this.refreshAll(), RELAYOUT_DELAY_MS);
      }),
      { dispose: () => clearTimeout(this.relayout) },
    );
    this.refreshAll();
  }

  dispose(): void {
    for (const d of this.disposables.splice(0)) d.dispose();
    for (const type of this.decorations.values()) type.dispose();
    this.status.dispose();
  }

  private refreshAll(): void {
    for (const editor of vscode.window.visibleTextEditors) if (isScenarioDocument(editor.document)) this.decorate(editor);
    this.refreshStatus();
  }

  private decorate(editor: vscode.TextEditor): void {
    const results = this.store.results(editor.document.uri.fsPath);
    const byTone = new Map<ResultTone, vscode.DecorationOptions[]>();
    // An errored run scored nothing: its nodes read neither matched nor missed (the status bar says why).
    const errored = results?.finished === true ? erroredReason(results.end) : null;
    if (results?.evaluation && errored === null) {
      const views = nodeResultViews(results.evaluation);
      const note = results.note === null ? "" : `\n\n$(warning) ${results.note.text}`;
      for (const location of outlineOf(editor.document).nodes) {
        const view = views.get(nodeKey(location.kind, location.id));
        if (!view) continue;
        const line = editor.document.lineAt(location.line);
        const hover = new vscode.MarkdownString(
          `**${location.kind} \`${location.id}\`** ${view.text}${view.why ? `\n\n${view.why}` : ""}${note}`,
          true,
        );
        const options: vscode.DecorationOptions = {
          range: new vscode.Range(location.line, line.text.length, location.line, line.text.length),
          hoverMessage: hover,
          renderOptions: { after: { contentText: view.badge } },
        };
        byTone.set(view.tone, [...(byTone.get(view.tone) ?? []), options]);
      }
    }
    for (const [tone, type] of this.decorations) editor.setDecorations(type, byTone.get(tone) ?? []);
  }

  private refreshStatus(): void {
    // The active scenario, else the one in view: the panel beside it takes the focus while a run
    // is paused (its Continue button), and the bar must still say what the run is doing.
    const active = vscode.window.activeTextEditor?.document;
    const doc =
      active && isScenarioDocument(active) ? active : vscode.window.visibleTextEditors.map((e) => e.document).find(isScenarioDocument);
    const results = doc ? this.store.results(doc.uri.fsPath) : null;
    const live = results === null ? null : (this.store.feed(results.trajectoryPath)?.live ?? null);
    if (results === null || (results.evaluation === null && live !== "running" && live !== "paused")) {
      this.status.hide();
      return;
    }
    const text = statusText(results, live);
    this.status.text = text.text;
    this.status.tooltip = text.tooltip;
    this.status.backgroundColor = text.errored ? new vscode.ThemeColor("statusBarItem.errorBackground") : undefined;
    this.status.command = {
      title: "Open the run",
      command: "toolsandbox.revealMessage",
      arguments: [vscode.Uri.file(results.trajectoryPath).toString(), null],
    };
    this.status.show();
  }
}

// The runs view and the compare view in VS Code. "Show Runs" lists every run in the runs folders
// (the default and toolsandbox.runsFolder, per workspace folder) in the runs bundle (dist/runs.js,
// the page `report --html` writes); opening a row replays it, two picked rows are compared. The
// compare view is the static page of engine/compare (no script). Requests from the runs page are
// checked by the panel's guards, and a file is opened only if the view listed it.
import { existsSync } from "node:fs";
import { basename } from "node:path";
import * as vscode from "vscode";
import { compareRuns, CompareError, savedRun } from "../../engine/compare/compare-runs.js";
import { comparisonHtml } from "../../engine/compare/compare-html.js";
import { playReference } from "../../engine/compare/reference-run.js";
import { createNonce, panelHtml } from "../../engine/panel/html.js";
import { loadRuns } from "../../engine/reports/load-runs.js";
import { readTrajectoryFile } from "../../engine/trajectory/reader.js";
import { compareTitle, distinctRunLabels } from "../../engine/compare/run-labels.js";
import { DEFAULT_RUNS_FOLDER, resolveRunsFolder } from "../../engine/trajectory/run-files.js";
import { panelWebviewOptions } from "./panel-view.js";
import { readRunsFolder } from "./settings.js";
import { dispatchViewRequest } from "./view-requests.js";

const RUNS_VIEW_TYPE = "toolsandbox.runs";
const COMPARE_VIEW_TYPE = "toolsandbox.compare";

/** The runs folders of the workspace: the configured one and the default, per workspace folder, that exist. */
export function workspaceRunsFolders(): string[] {
  const setting = readRunsFolder((key) => vscode.workspace.getConfiguration("toolsandbox").get(key));
  const folders = new Set<string>();
  for (const ws of vscode.workspace.workspaceFolders ?? []) {
    for (const value of [setting.ok ? setting.value : "", DEFAULT_RUNS_FOLDER]) {
      const folder = resolveRunsFolder(value, ws.uri.fsPath, ws.uri.fsPath);
      if (existsSync(folder)) folders.add(folder);
    }
  }
  return [...folders];
}

export class RunsViews {
  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly log: vscode.LogOutputChannel,
  ) {}

  /** Opens the runs view over `folders` (default: the workspace's runs folders). */
  showRuns(folders: readonly string[] = workspaceRunsFolders()): void {
    if (folders.length === 0) {
      void vscode.window.showInformationMessage(
        "ToolSandbox: no runs yet. Run a scenario (its runs go to the runs folder, toolsandbox.runsFolder).",
      );
      return;
    }
    const data = loadRuns(folders, folders.length === 1 ? `Runs in ${vscode.workspace.asRelativePath(folders[0]!, false)}` : "Runs");
    const listed = new Set(data.records.map((r) => r.file));
    const panel = vscode.window.createWebviewPanel(RUNS_VIEW_TYPE, "ToolSandbox Runs", vscode.ViewColumn.Active, {
      ...panelWebviewOptions(this.extensionUri),
      retainContextWhenHidden: false,
    });
    const dist = vscode.Uri.joinPath(this.extensionUri, "dist");
    const webview = panel.webview;
    webview.html = panelHtml({
      title: "ToolSandbox runs",
      nonce: createNonce(),
      assets: {
        kind: "linked",
        scriptUri: webview.asWebviewUri(vscode.Uri.joinPath(dist, "runs.js")).toString(),
        styleUri: webview.asWebviewUri(vscode.Uri.joinPath(dist, "runs.css")).toString(),
        cspSource: webview.cspSource,
      },
    });
    const known = (file: string): boolean => {
      if (listed.has(file)) return true;
      this.log.warn(`ignored a request of the runs view for a file it did not list: ${file}`);
      return false;
    };
    panel.webview.onDidReceiveMessage((raw: unknown) => {
      const refused = dispatchViewRequest(raw, {
        ready: () => void webview.postMessage(data),
        openLink: () => undefined,
        revealNode: () => undefined,
        runControl: () => undefined,
        selected: () => undefined,
        command: () => undefined,
        openRun: (file) => {
          if (known(file)) void vscode.commands.executeCommand("toolsandbox.replayTrajectory", vscode.Uri.file(file));
        },
        compareRuns: ([a, b]) => {
          if (known(a) && known(b)) void this.compare(a, b);
        },
        saveAsScenario: (file) => {
          if (known(file)) void vscode.commands.executeCommand("toolsandbox.saveRunAsScenario", vscode.Uri.file(file));
        },
      });
      if (refused !== null) this.log.warn(`ignored a message from the runs view: ${refused}`);
    });
  }

  /** Compares run `a` with run `b`, or with the scenario's reference played now when `b` is null. */
  async compare(a: string, b: string | null): Promise<void> {
    let html: string;
    try {
      // Two runs of one scenario share a file name: the cards name their folders too.
      const [labelA, labelB] = b === null ? [basename(a), ""] : distinctRunLabels(a, b);
      const left = savedRun(labelA, readTrajectoryFile(a));
      const right = b === null ? await playReference(left.trajectory.header) : savedRun(labelB, readTrajectoryFile(b));
      html = comparisonHtml(compareRuns(left, right));
    } catch (e) {
      const message = e instanceof CompareError ? e.message : e instanceof Error ? e.message : String(e);
      void vscode.window.showErrorMessage(`ToolSandbox: cannot compare: ${message}`);
      return;
    }
    // Two runs with one file name: the tab names their folders too, as the cards do.
    const title = compareTitle(a, b);
    // A static page: no script, no local resources.
    const panel = vscode.window.createWebviewPanel(COMPARE_VIEW_TYPE, title, vscode.ViewColumn.Active, {
      enableScripts: false,
      enableCommandUris: false,
      localResourceRoots: [],
    });
    panel.webview.html = html;
  }
}

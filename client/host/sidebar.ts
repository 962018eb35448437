// (vscode) The ToolSandbox view in the activity bar: the workspace's scenarios (open one; run it
// from its row), its runs (the runs folders Show Runs reads, runs-views.ts; a row replays it) and
// the agents to play them with (Add Agent… in the title). Each list redraws when its files or
// settings change.
import { basename, dirname } from "node:path";
import * as vscode from "vscode";
import { loadRuns } from "../../engine/reports/load-runs.js";
import { settingsGetter } from "./model-roles.js";
import { workspaceRunsFolders } from "./runs-views.js";
import { readCommandAgents, readRoleChoice } from "./settings.js";
import { agentRows, newestFirst, runRow } from "./sidebar-items.js";

const SCENARIO_GLOB = "**/*.scenario.{yaml,yml}";
const EXCLUDED = "{**/node_modules/**,**/.git/**}";
/** Rows each list shows at most (Show Runs lists them all). */
const MAX_ROWS = 500;

class ListProvider implements vscode.TreeDataProvider<vscode.TreeItem>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeTreeData = this.changed.event;

  constructor(private readonly rows: () => Promise<vscode.TreeItem[]> | vscode.TreeItem[]) {}

  refresh(): void {
    this.changed.fire();
  }

  getTreeItem(item: vscode.TreeItem): vscode.TreeItem {
    return item;
  }

  async getChildren(parent?: vscode.TreeItem): Promise<vscode.TreeItem[]> {
    return parent === undefined ? this.rows() : [];
  }

  dispose(): void {
    this.changed.dispose();
  }
}

async function scenarioRows(): Promise<vscode.TreeItem[]> {
  const uris = await vscode.workspace.findFiles(SCENARIO_GLOB, EXCLUDED, MAX_ROWS);
  return uris
    .sort((a, b) => a.fsPath.localeCompare(b.fsPath))
    .map((uri) => {
      const item = new vscode.TreeItem(basename(uri.fsPath).replace(/\.scenario\.ya?ml$/, ""), vscode.TreeItemCollapsibleState.None);
      const folder = vscode.workspace.asRelativePath(dirname(uri.fsPath), true);
      item.description = folder === dirname(uri.fsPath) ? "" : folder;
      item.resourceUri = uri;
      item.tooltip = vscode.workspace.asRelativePath(uri, true);
      item.contextValue = "scenario";
      item.iconPath = new vscode.ThemeIcon("beaker");
      item.command = { command: "vscode.open", title: "Open", arguments: [uri] };
      return item;
    });
}

function runRows(): vscode.TreeItem[] {
  const folders = workspaceRunsFolders();
  if (folders.length === 0) return [];
  return newestFirst(loadRuns(folders, "Runs").records)
    .slice(0, MAX_ROWS)
    .map((record) => {
      const text = runRow(record);
      const item = new vscode.TreeItem(text.label, vscode.TreeItemCollapsibleState.None);
      item.description = text.description;
      item.tooltip = text.tooltip;
      item.contextValue = "run";
      item.resourceUri = vscode.Uri.file(record.file);
      item.iconPath = new vscode.ThemeIcon(record.status === "scored" ? (record.score === 1 ? "pass" : "circle-large-outline") : "warning");
      item.command = { command: "toolsandbox.replayTrajectory", title: "Replay", arguments: [vscode.Uri.file(record.file)] };
      return item;
    });
}

function agentItems(): vscode.TreeItem[] {
  const get = settingsGetter();
  const model = readRoleChoice("agent", get);
  const programs = readCommandAgents(get);
  const rows = agentRows(model.ok ? model.value : { problem: model.problem }, programs.ok ? programs.value : []);
  const items = rows.map((row, i) => {
    const item = new vscode.TreeItem(row.label, vscode.TreeItemCollapsibleState.None);
    item.description = row.description;
    item.tooltip = row.tooltip;
    item.iconPath = new vscode.ThemeIcon(i === 0 ? "play" : row.description.startsWith("cmd:") ? "terminal" : "hubot");
    return item;
  });
  if (!programs.ok) {
    const broken = new vscode.TreeItem("toolsandbox.agents cannot be read", vscode.TreeItemCollapsibleState.None);
    broken.tooltip = programs.problem;
    broken.iconPath = new vscode.ThemeIcon("error");
    broken.command = { command: "workbench.action.openSettings", title: "Open Settings", arguments: ["toolsandbox.agents"] };
    items.push(broken);
  }
  return items;
}

export function registerSidebar(): vscode.Disposable[] {
  const scenarios = new ListProvider(scenarioRows);
  const runs = new ListProvider(runRows);
  const agents = new ListProvider(agentItems);
  const scenarioWatcher = vscode.workspace.createFileSystemWatcher(SCENARIO_GLOB, false, true, false);
  const runWatcher = vscode.workspace.createFileSystemWatcher("**/*.trajectory.jsonl");
  let runsTimer: ReturnType<typeof setTimeout> | undefined;
  // A live run rewrites its file per message: the list redraws once things are quiet.
  const runsChanged = (): void => {
    clearTimeout(runsTimer);
    runsTimer = setTimeout(() => runs.refresh(), 500);
  };
  return [
    scenarios,
    runs,
    agents,
    scenarioWatcher,
    runWatcher,
    { dispose: () => clearTimeout(runsTimer) },
    vscode.window.registerTreeDataProvider("toolsandbox.scenarios", scenarios),
    vscode.window.registerTreeDataProvider("toolsandbox.runs", runs),
    vscode.window.registerTreeDataProvider("toolsandbox.agents", agents),
    scenarioWatcher.onDidCreate(() => scenarios.refresh()),
    scenarioWatcher.onDidDelete(() => scenarios.refresh()),
    runWatcher.onDidCreate(runsChanged),
    runWatcher.onDidChange(runsChanged),
    runWatcher.onDidDelete(runsChanged),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration("toolsandbox.agent") || e.affectsConfiguration("toolsandbox.agents")) agents.refresh();
      if (e.affectsConfiguration("toolsandbox.runsFolder")) runs.refresh();
    }),
    vscode.commands.registerCommand("toolsandbox.refreshRuns", () => runs.refresh()),
  ];
}

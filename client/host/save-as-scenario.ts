// "Save Run as Scenario…": a saved run turned into a draft scenario in the editor, as
// `toolsandbox draft` does on the command line (docs/drafting.md, "In VS Code"). Drafting plays
// nothing, so it is authoring and works in untrusted workspaces too. A damaged or errored run is
// refused in one line before anything is asked.
import { existsSync } from "node:fs";
import { basename } from "node:path";
import * as vscode from "vscode";
import { proposedDraftPath, readDraftableRun, writeRunDraft } from "./run-draft.js";
import { PANEL_VIEW_TYPE } from "./main-panel.js";
import { isTrajectoryPath } from "./trajectories.js";

interface SaveRunHost {
  /** The workspace's scenario file with this name, or null. */
  findScenarioFile(name: string): Promise<string | null>;
}

/**
 * The run in the active tab: a trajectory editor, the panel (`shownRun`: the trajectory of the view
 * last focused), or a run file opened as text.
 */
export function activeRunFile(shownRun: string | null): string | null {
  const input = vscode.window.tabGroups.activeTabGroup.activeTab?.input;
  if (input instanceof vscode.TabInputCustom && isTrajectoryPath(input.uri.fsPath)) return input.uri.fsPath;
  // The panel's tab (not the runs or compare view's): its webview type carries the panel's id.
  if (input instanceof vscode.TabInputWebview) return input.viewType.endsWith(PANEL_VIEW_TYPE) ? shownRun : null;
  const doc = vscode.window.activeTextEditor?.document;
  return doc?.uri.scheme === "file" && isTrajectoryPath(doc.uri.fsPath) ? doc.uri.fsPath : null;
}

export async function saveRunAsScenario(runFile: string, host: SaveRunHost): Promise<void> {
  const run = readDraftableRun(runFile);
  if (!run.ok) {
    void vscode.window.showErrorMessage(`ToolSandbox: cannot save the run as a scenario: ${run.problem}`);
    return;
  }
  const scenarioFile = await host.findScenarioFile(run.trajectory.header.scenario.name);
  const workspaceRoot = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath ?? null;
  const proposed = proposedDraftPath(run.trajectory, { scenarioFile, workspaceRoot, runFile });
  const target = await vscode.window.showSaveDialog({
    title: "Save Run as Scenario",
    saveLabel: "Save Draft",
    defaultUri: vscode.Uri.file(proposed),
    filters: { "ToolSandbox scenario": ["scenario.yaml", "yaml"] },
  });
  if (target === undefined) return;
  if (!/\.ya?ml$/i.test(target.fsPath)) {
    void vscode.window.showErrorMessage(`ToolSandbox: ${basename(target.fsPath)}: a scenario file ends in .scenario.yaml`);
    return;
  }
  // The dialog asked before replacing a file; an open editor on it would keep its old text.
  const replaced = existsSync(target.fsPath);
  let written: ReturnType<typeof writeRunDraft>;
  try {
    written = writeRunDraft(run.trajectory, runFile, target.fsPath);
  } catch (e) {
    void vscode.window.showErrorMessage(
      `ToolSandbox: cannot write ${basename(target.fsPath)}: ${e instanceof Error ? e.message : String(e)}`,
    );
    return;
  }
  const doc = await vscode.workspace.openTextDocument(target);
  if (replaced && doc.isDirty) await vscode.commands.executeCommand("workbench.action.files.revert", target);
  await vscode.window.showTextDocument(doc, { preview: false });
  if (written.errors.length > 0) {
    void vscode.window.showErrorMessage(
      `ToolSandbox: ${written.summary}, with ${written.errors.length} checker error(s): ${written.errors[0]}`,
    );
    return;
  }
  const action = written.notes.length > 0 ? ["Show Notes"] : [];
  const chosen = await vscode.window.showInformationMessage(`ToolSandbox: ${written.summary}`, ...action);
  if (chosen === "Show Notes") {
    void vscode.window.showInformationMessage(`Notes on ${basename(target.fsPath)}`, {
      modal: true,
      detail: written.notes.map((n) => `• ${n}`).join("\n"),
    });
  }
}

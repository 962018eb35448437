// (vscode) Which scenario to run when the command names none and no scenario editor is active (the
// empty panel's Run Scenario button, which has the focus itself): one shown in an editor, else
// the user picks one of the workspace's scenario files.
import * as vscode from "vscode";
import { isScenarioDocument } from "./scenario-documents.js";
import { SCENARIO_GLOB } from "./trajectories.js";

export async function chooseScenario(): Promise<vscode.Uri | null> {
  const visible = vscode.window.visibleTextEditors.map((e) => e.document).filter(isScenarioDocument);
  if (visible.length === 1) return visible[0]!.uri;
  const uris = await vscode.workspace.findFiles(SCENARIO_GLOB, "{**/node_modules/**,**/.git/**}");
  if (uris.length === 0) {
    void vscode.window.showErrorMessage("ToolSandbox: there is no scenario file (*.scenario.yaml) in the workspace to run.");
    return null;
  }
  const items = uris
    .map((uri) => ({ label: vscode.workspace.asRelativePath(uri, false), uri }))
    .sort((a, b) => (a.label < b.label ? -1 : a.label > b.label ? 1 : 0));
  const chosen = await vscode.window.showQuickPick(items, {
    title: "ToolSandbox: Run Scenario",
    placeHolder: "Choose the scenario to run",
    matchOnDescription: true,
  });
  return chosen?.uri ?? null;
}

// (vscode) "New Scenario" (palette, File › New, the walkthrough, the ToolSandbox view): asks for
// the scenario's name, creates `<name>.scenario.yaml` in the workspace folder (never over an
// existing file) and types the skeleton in as a snippet, to be tabbed through. Without a folder it
// opens an untitled scenario instead.
import * as vscode from "vscode";
import { scenarioFileName, scenarioNameProblem, scenarioSnippet } from "./scenario-template.js";
import { SCENARIO_LANGUAGE } from "./scenario-documents.js";

export async function newScenario(): Promise<void> {
  const folder = await pickFolder();
  if (folder === undefined) return;
  if (folder === null) {
    const doc = await vscode.workspace.openTextDocument({ language: SCENARIO_LANGUAGE, content: "" });
    const editor = await vscode.window.showTextDocument(doc);
    await editor.insertSnippet(new vscode.SnippetString(scenarioSnippet("my_scenario")));
    return;
  }
  const name = await vscode.window.showInputBox({
    title: "ToolSandbox: New Scenario",
    prompt: `The scenario's name; the file is <name>.scenario.yaml in ${folder.name}`,
    placeHolder: "find_contact",
    validateInput: async (value) => {
      const problem = scenarioNameProblem(value.trim());
      if (problem !== null) return problem;
      return (await exists(vscode.Uri.joinPath(folder.uri, scenarioFileName(value.trim()))))
        ? `${scenarioFileName(value.trim())} exists already.`
        : null;
    },
  });
  if (name === undefined) return;
  const uri = vscode.Uri.joinPath(folder.uri, scenarioFileName(name.trim()));
  const edit = new vscode.WorkspaceEdit();
  edit.createFile(uri, { ignoreIfExists: false, overwrite: false });
  if (!(await vscode.workspace.applyEdit(edit))) {
    void vscode.window.showErrorMessage(`ToolSandbox: cannot create ${vscode.workspace.asRelativePath(uri, false)}.`);
    return;
  }
  const editor = await vscode.window.showTextDocument(uri);
  await editor.insertSnippet(new vscode.SnippetString(scenarioSnippet(name.trim())));
}

/** The workspace folder to create the file in: the only one, one picked, or null without any (undefined: cancelled). */
async function pickFolder(): Promise<vscode.WorkspaceFolder | null | undefined> {
  const folders = vscode.workspace.workspaceFolders ?? [];
  if (folders.length === 0) return null;
  if (folders.length === 1) return folders[0];
  return vscode.window.showWorkspaceFolderPick({ placeHolder: "The folder the new scenario goes in" });
}

async function exists(uri: vscode.Uri): Promise<boolean> {
  try {
    await vscode.workspace.fs.stat(uri);
    return true;
  } catch {
    return false;
  }
}

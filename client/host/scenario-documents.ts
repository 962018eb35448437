// Scenario files as the extension host sees them: which documents are scenarios, their outline
// (name and node lines) parsed once per document version and shared by the decorations, the
// CodeLenses and the commands, and a file's current text without opening it as a document.
import * as vscode from "vscode";
import { readOutline, type ScenarioOutline } from "./node-lines.js";

export const SCENARIO_LANGUAGE = "toolsandbox-scenario";

export const isScenarioDocument = (doc: vscode.TextDocument): boolean => doc.languageId === SCENARIO_LANGUAGE && doc.uri.scheme === "file";

const outlines = new WeakMap<vscode.TextDocument, { readonly version: number; readonly outline: ScenarioOutline }>();

export function outlineOf(doc: vscode.TextDocument): ScenarioOutline {
  const cached = outlines.get(doc);
  if (cached?.version === doc.version) return cached.outline;
  const outline = readOutline(doc.getText());
  outlines.set(doc, { version: doc.version, outline });
  return outline;
}

/**
 * A file's text as the editor has it (unsaved edits included) when it is open, else from disk.
 * Closed files are not opened as documents, which would start the language server on each.
 */
export async function currentText(uri: vscode.Uri): Promise<string> {
  const open = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
  return open ? open.getText() : new TextDecoder().decode(await vscode.workspace.fs.readFile(uri));
}

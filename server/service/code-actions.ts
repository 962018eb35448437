// API SKELETON (H18): signature final, body being written.
import type { CodeAction, Diagnostic, Range } from "vscode-languageserver";
import type { ScenarioDocument } from "./document.js";

export function codeActions(doc: ScenarioDocument, range: Range, diagnostics: readonly Diagnostic[]): CodeAction[] {
  void doc; void range; void diagnostics;
  return [];
}

// API SKELETON (H18): signature final, body being written.
import type { CompletionContext, CompletionList, Position } from "vscode-languageserver";
import type { ScenarioDocument } from "./document.js";

export function completion(doc: ScenarioDocument, position: Position, context?: CompletionContext): CompletionList {
  void doc; void position; void context;
  return { isIncomplete: false, items: [] };
}

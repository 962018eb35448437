// API SKELETON (H18): signatures final, bodies being written.
// rename returns a ResponseError (InvalidParams) for an unusable new name: a handler returns it as is.
import { ResponseError, type Position, type Range, type WorkspaceEdit } from "vscode-languageserver";
import type { ScenarioDocument } from "./document.js";

export function prepareRename(doc: ScenarioDocument, position: Position): { range: Range; placeholder: string } | null {
  void doc; void position;
  return null;
}

export function rename(doc: ScenarioDocument, position: Position, newName: string): WorkspaceEdit | ResponseError<void> | null {
  void doc; void position; void newName; void ResponseError;
  return null;
}

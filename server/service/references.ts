// API SKELETON (H18): signature final, body being written.
import type { Location, Position } from "vscode-languageserver";
import type { ScenarioDocument } from "./document.js";

export function references(doc: ScenarioDocument, position: Position, includeDeclaration = true): Location[] {
  void doc; void position; void includeDeclaration;
  return [];
}

// API SKELETON (H18): signature final, body being written.
import type { Location, Position } from "vscode-languageserver";
import type { ScenarioDocument } from "./document.js";

export function definition(doc: ScenarioDocument, position: Position): Location | null {
  void doc; void position;
  return null;
}

// API SKELETON (H18): signature final, body being written.
import type { Hover, Position } from "vscode-languageserver";
import type { EvaluationResult } from "../../engine/evaluation/result.js";
import type { ScenarioDocument } from "./document.js";

export function hover(doc: ScenarioDocument, position: Position, lastRun?: EvaluationResult | null): Hover | null {
  void doc; void position; void lastRun;
  return null;
}

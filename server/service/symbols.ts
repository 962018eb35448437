// API SKELETON (H18): signatures final, bodies being written.
import type { DocumentSymbol, FoldingRange } from "vscode-languageserver";
import type { ScenarioDocument } from "./document.js";

export function documentSymbols(doc: ScenarioDocument): DocumentSymbol[] {
  void doc;
  return [];
}

export function foldingRanges(doc: ScenarioDocument): FoldingRange[] {
  void doc;
  return [];
}

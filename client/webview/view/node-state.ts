// How a milestone or minefield reads wherever the panel draws it (the header's chips, the timeline's
// badges, the detail's cards): one state, one symbol, one figure. A milestone matched only partly is
// not a green check, and a minefield stepped on says "hit", never a "1.00" that reads as a pass.
import type { NodeKind } from "../../../engine/panel/protocol.js";
import { formatScore } from "./format.js";

type NodeState = "hit" | "partial" | "miss" | "stepped" | "avoided";

/** Below this a matched milestone is partial (similarities are floats: 1 may arrive as 0.9999999). */
const FULL = 1 - 1e-6;

export function nodeState(kind: NodeKind, matched: boolean, similarity: number): NodeState {
  if (kind === "minefield") return matched ? "stepped" : "avoided";
  return matched ? (similarity >= FULL ? "hit" : "partial") : "miss";
}

export const NODE_SYMBOLS: Readonly<Record<NodeState, string>> = { hit: "✓", partial: "◐", miss: "○", stepped: "✗", avoided: "·" };

/** The figure beside a node: a milestone's similarity; a minefield's "hit", or nothing while avoided. */
export function nodeFigure(kind: NodeKind, matched: boolean, similarity: number): string {
  if (kind === "minefield") return matched ? "hit" : "";
  return formatScore(similarity);
}

// The one state a milestone or minefield came out of a run in, and the words for it. Every surface
// that shows a node's result (the editor's CodeLens, the line-end decoration, the Testing view, the
// language server's hover, the compare page) takes its state from here, so a line never reads
// "matched" on one surface and "not matched" or a failed test on another.
import type { NodeResult } from "./result.js";

/** matched, partly matched (similarity under 1) or missed for a milestone; hit or clear for a minefield. */
export type NodeState = "matched" | "partial" | "missed" | "hit" | "clear";

/** Similarities are sums of floats: 0.9999999 is a full match. */
const FULL_MATCH = 1 - 1e-6;

type NodeKindName = "milestone" | "minefield";

export function nodeState(kind: NodeKindName, node: Pick<NodeResult, "matched_at" | "similarity">): NodeState {
  if (kind === "minefield") return node.matched_at === null ? "clear" : "hit";
  if (node.matched_at === null) return "missed";
  return node.similarity >= FULL_MATCH ? "matched" : "partial";
}

/** A milestone fully matched and a minefield not hit pass; everything else fails its test. */
const nodeStatePasses = (state: NodeState): boolean => state === "matched" || state === "clear";

interface NodeStateWords {
  readonly state: NodeState;
  readonly passes: boolean;
  /** "matched at message 7 (similarity 1.00)", "partly matched at message 7 (similarity 0.85)", "missed (best similarity 0.40)": prose, for hovers and messages. */
  readonly phrase: string;
  /** "✓ matched at message 7 · similarity 1.00", "◐ partly matched at message 7 · similarity 0.85", "✗ missed · best similarity 0.40", "⚠ hit at message 4", "✓ not hit". */
  readonly line: string;
  /** "✓ 1.00", "◐ 0.85", "✗ missed", "⚠ hit", "✓ clear": short enough for the end of a line. */
  readonly badge: string;
}

const figure = (s: number): string => s.toFixed(2);
/** A partial match's similarity rounded down, so 0.995 reads 0.99 and never as the 1.00 of a full match. */
const partialFigure = (s: number): string => (Math.floor(s * 100) / 100).toFixed(2);

export function nodeStateWords(kind: NodeKindName, node: Pick<NodeResult, "matched_at" | "similarity">): NodeStateWords {
  const state = nodeState(kind, node);
  const passes = nodeStatePasses(state);
  const s = state === "partial" ? partialFigure(node.similarity) : figure(node.similarity);
  const at = `at message ${node.matched_at}`;
  switch (state) {
    case "matched":
      return { state, passes, phrase: `matched ${at} (similarity ${s})`, line: `✓ matched ${at} · similarity ${s}`, badge: `✓ ${s}` };
    case "partial":
      return {
        state,
        passes,
        phrase: `partly matched ${at} (similarity ${s})`,
        line: `◐ partly matched ${at} · similarity ${s}`,
        badge: `◐ ${s}`,
      };
    case "missed":
      return { state, passes, phrase: `missed (best similarity ${s})`, line: `✗ missed · best similarity ${s}`, badge: "✗ missed" };
    case "hit":
      return { state, passes, phrase: `hit ${at}`, line: `⚠ hit ${at}`, badge: "⚠ hit" };
    case "clear":
      return { state, passes, phrase: "not hit", line: "✓ not hit", badge: "✓ clear" };
  }
}

// The limits a scenario's YAML tree is held to before anything walks it recursively (docs/limits.md).
// One pass over the parsed nodes with an explicit stack (so depth itself cannot overflow the
// call stack) finds: the first collection nested deeper than the nesting limit, a milestone or
// minefield list longer than the milestone limit, and numbers that are not finite (`1e400`,
// `.inf`), which no trajectory can hold.
import { isMap, isNode, isPair, isScalar, isSeq, type Document, type Scalar } from "yaml";
import { grouped, limitValue, overLimitMessage } from "../base/limits.js";

/** The codes of the diagnostics that say a limit was passed (the check stops at them). */
export const LIMIT_CODES: ReadonlySet<string> = new Set(["limit-file-size", "limit-nesting-depth", "too-many-milestones"]);

interface TreeProblem {
  /** Source offsets the diagnostic underlines. */
  readonly offsets: readonly [number, number];
  readonly severity: "error" | "warning";
  readonly code: string;
  readonly message: string;
}

/** Problems with the tree's shape: a limit passed (error, and then checking stops) or numbers out of float range (warnings). */
export function treeProblems(doc: Document.Parsed, text: string): TreeProblem[] {
  const tooDeep = firstTooDeep(doc.contents);
  if (tooDeep !== null) return [tooDeep];
  const tooMany = milestoneOverflow(doc.contents);
  if (tooMany !== null) return [tooMany];
  return nonFiniteNumbers(doc.contents, text);
}

/** The limit message for nesting the YAML parser itself could not follow (it ran out of stack). */
export function nestingLimitMessage(): string {
  return overLimitMessage("nestingDepth", "The YAML here is nested too deeply to read");
}

function firstTooDeep(root: unknown): TreeProblem | null {
  const limit = limitValue("nestingDepth");
  const stack: { node: unknown; depth: number }[] = [{ node: root, depth: 1 }];
  while (stack.length > 0) {
    const { node, depth } = stack.pop() ?? { node: null, depth: 0 };
    if (!isMap(node) && !isSeq(node)) continue;
    if (depth > limit) {
      const start = node.range?.[0] ?? 0;
      return {
        offsets: [start, start + 1],
        severity: "error",
        code: "limit-nesting-depth",
        message: overLimitMessage("nestingDepth", `Nesting reaches ${grouped(depth)} levels here`),
      };
    }
    for (const item of node.items) {
      if (isPair(item)) {
        stack.push({ node: item.value, depth: depth + 1 });
        stack.push({ node: item.key, depth: depth + 1 });
      } else {
        stack.push({ node: item, depth: depth + 1 });
      }
    }
  }
  return null;
}

/** `milestones:` or `minefields:` with more entries than the limit allows. */
function milestoneOverflow(root: unknown): TreeProblem | null {
  if (!isMap(root)) return null;
  const limit = limitValue("milestones");
  for (const pair of root.items) {
    if (!isScalar(pair.key) || (pair.key.value !== "milestones" && pair.key.value !== "minefields")) continue;
    const list = pair.value;
    if (!isSeq(list) || list.items.length <= limit) continue;
    // Underlined: the first entry past the limit.
    const first = list.items[limit];
    const [start, end] = (isNode(first) ? first.range : null) ?? pair.key.range ?? [0, 0];
    const what = `This list has ${grouped(list.items.length)} ${String(pair.key.value)}`;
    return { offsets: [start, end], severity: "error", code: "too-many-milestones", message: overLimitMessage("milestones", what) };
  }
  return null;
}

/**
 * Numbers that are not finite, except `.inf` under an `atol` key: an infinite tolerance is meant
 * ("any value matches") and resolves to the largest double (tolerances.ts).
 */
function nonFiniteNumbers(root: unknown, text: string): TreeProblem[] {
  const found: TreeProblem[] = [];
  const stack: { node: unknown; tolerance: boolean }[] = [{ node: root, tolerance: false }];
  while (stack.length > 0) {
    const { node, tolerance } = stack.pop() ?? { node: null, tolerance: false };
    if (isScalar(node)) {
      const value = node.value;
      if (typeof value === "number" && !Number.isFinite(value) && !(tolerance && value === Number.POSITIVE_INFINITY))
        found.push(nonFinite(node, text));
    } else if (isMap(node) || isSeq(node)) {
      for (const item of node.items) {
        if (isPair(item)) {
          const atol = tolerance || (isScalar(item.key) && item.key.value === "atol");
          stack.push({ node: item.value, tolerance: atol }, { node: item.key, tolerance: false });
        } else {
          stack.push({ node: item, tolerance });
        }
      }
    }
  }
  return found.sort((a, b) => a.offsets[0] - b.offsets[0]);
}

function nonFinite(node: Scalar, text: string): TreeProblem {
  const [start, end] = node.range ?? [0, 0];
  const written = text.slice(start, end).trim() || String(node.value);
  const what = Number.isNaN(node.value) ? "not a number" : "too large for a 64-bit float";
  return {
    offsets: [start, end],
    severity: "warning",
    code: "number-not-finite",
    message: `${written} is ${what}: a trajectory cannot hold it, so a run of this scenario fails. Write a smaller number, or quote it to keep it as text.`,
  };
}

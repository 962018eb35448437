// Index compression: a long episode's messages collapse into runs the matcher cannot tell apart.
//
// The caller may say, per candidate index i > lo, that i is interchangeable with i - 1
// (MatchProblem.sameAsPrevious): for every node, its similarity with any node at i equals the
// one with that node at i - 1, whatever the other indices (as the matched message, and as a
// referenced one), and every gate answers the same. The evaluator knows this cheaply: a world
// table changes at a few messages, and a message where a node's tool-trace constraint scores 0
// scores 0 for that node whatever else holds (node-scorer.ts). Maximal runs of interchangeable
// indices are then replaced by their first index, and the strategies solve a problem over R
// runs instead of T messages: the work grows with the world changes and the messages that
// score, not with T² or T^k.
//
// Exactness. Write start(i) for the first index of i's run. For a valid mapping x, start(x)
// (each node moved to its run's start) is valid again (start is monotone, so every edge still
// holds), and every node's value is the same float: changing one coordinate to its predecessor
// inside a run keeps each similarity and gate by the condition above, and a chain of such
// changes reaches start(x). So the best totals are equal, the optimal sets correspond, and
// start(x) is lexicographically <= x, strictly when x uses a non-start index: the mapping the
// tie-break names (the lexicographically smallest optimal vector) uses only run starts, and
// among those the order of the runs is the order of their starts. Solving over the runs and
// mapping each run back to its start therefore returns exactly the uncompressed answer.

import type { MatchClasses } from "./problem.js";
import type { MatchGate } from "./gates.js";
import type { MatchProblem } from "./problem.js";

export interface CompressedProblem {
  /** The same problem over run numbers 0..R-1. */
  readonly problem: MatchProblem;
  /** starts[r]: the original index run r starts at. */
  readonly starts: Int32Array;
}

/**
 * The problem over runs, or null when the caller gave no sameAsPrevious or no two indices merge.
 * Asks sameAsPrevious once per index lo+1..hi and checks it returns a boolean.
 */
export function compressRuns(p: MatchProblem): CompressedProblem | null {
  const same = p.sameAsPrevious;
  if (!same) return null;
  const span = p.hi - p.lo + 1;
  const firsts: number[] = [p.lo];
  for (let i = p.lo + 1; i <= p.hi; i++) {
    const answer: unknown = same(i);
    if (typeof answer !== "boolean") throw new Error(`bestMatch: sameAsPrevious(${i}) returned ${String(answer)}; expected true or false`);
    if (!answer) firsts.push(i);
  }
  if (firsts.length === span) return null;
  return compressedProblem(p, Int32Array.from(firsts));
}

/**
 * The same problem over positions 0..K-1 of the ascending indices `starts` (position r stands for
 * index starts[r]): the runs' starts here, the indices periodic trimming keeps (periodic-trim.ts).
 * Similarities, gates and classes are read at the original indices.
 */
export function compressedProblem(p: MatchProblem, starts: Int32Array): CompressedProblem {
  const at = (run: number): number => starts[run]!;
  // Gates sharing one key function keep sharing one (the matcher caches keys per function).
  const mappedKeys = new Map<(index: number) => number, (run: number) => number>();
  const mapGate = (gate: MatchGate): MatchGate => {
    if ("key" in gate) {
      const original = gate.key;
      let key = mappedKeys.get(original);
      if (!key) mappedKeys.set(original, (key = (run: number) => original(at(run))));
      return { ref: gate.ref, key };
    }
    const holds = gate.holds;
    return { ref: gate.ref, holds: (run, refRun) => holds(at(run), at(refRun)) };
  };
  const { similarity } = p;
  const problem: MatchProblem = {
    nodeCount: p.nodeCount,
    edges: p.edges,
    references: p.references,
    lo: 0,
    hi: starts.length - 1,
    similarity: (node, run, refRun) => similarity(node, at(run), (ref) => at(refRun(ref))),
    ...(p.gates ? { gates: p.gates.map((list) => list.map(mapGate)) } : {}),
    ...(p.onProgress ? { onProgress: p.onProgress } : {}),
    ...(p.onPlaced ? { onPlaced: p.onPlaced } : {}),
    ...(p.classes ? { classes: runClasses(p.classes, at) } : {}),
  };
  return { problem, starts };
}

/** The classes over runs: a run's class is its start's (every index of a run is interchangeable). */
function runClasses(classes: MatchClasses, at: (run: number) => number): MatchClasses {
  return {
    matched: (node, run) => classes.matched(node, at(run)),
    referenced: (node, run) => classes.referenced(node, at(run)),
  };
}

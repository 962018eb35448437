// Random matching problems for the property tests, and the check every instance goes through:
// run the matcher (under each strategy asked for) and compare everything the documented rule
// promises with the brute force.

import assert from "node:assert/strict";
import { matchWithStrategy, type MatchProblem } from "../../engine/evaluation/matching/index.js";
import type { MatchStrategy } from "../../engine/evaluation/matching/strategy.js";
import type { MatchGate } from "../../engine/evaluation/matching/gates.js";
import { bruteForceMatch, hashInts, nodeValue, seededRandom, totalOf } from "./matching-brute-force.js";

// Many equal values, zeros, and near-ties on both sides of the tie epsilon: 1e-12 apart is a
// tie, 1e-6 apart is not. Thirds make float sums depend on the order they are added in.
const PALETTE = [0, 0, 0, 1, 1, 0.5, 0.25, 0.75, 1 / 3, 2 / 3, 0.1, 1 - 1e-12, 0.5 + 1e-12, 0.5 - 1e-6, 1 - 1e-6];

export type Oracle = "table" | "offset" | "mostly-zero";
export const ORACLES: readonly Oracle[] = ["table", "offset", "mostly-zero"];

export interface Instance {
  problem: MatchProblem;
  describe: string;
}

export type Rand = () => number;

export function pick<T>(rand: Rand, xs: readonly T[]): T {
  return xs[Math.floor(rand() * xs.length)]!;
}

/** A random permutation of 0..n-1, so that node ids are unrelated to the DAG's order. */
export function shuffled(rand: Rand, n: number): number[] {
  const order = Array.from({ length: n }, (_, i) => i);
  for (let i = order.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [order[i], order[j]] = [order[j]!, order[i]!];
  }
  return order;
}

export function ancestorLists(nodeCount: number, edges: readonly (readonly [number, number])[]): number[][] {
  const result: number[][] = [];
  for (let v = 0; v < nodeCount; v++) {
    const seen = new Set<number>();
    const stack = [v];
    while (stack.length > 0) {
      const x = stack.pop()!;
      for (const [u, w] of edges) {
        if (w === x && !seen.has(u)) {
          seen.add(u);
          stack.push(u);
        }
      }
    }
    result.push([...seen].sort((a, b) => a - b));
  }
  return result;
}

/** Each node with ancestors references one or two of them, except with probability `none`. */
export function randomReferences(rand: Rand, ancestors: readonly number[][], none = 0.35): number[][] {
  return ancestors.map((anc) => {
    if (anc.length === 0 || rand() < none) return [];
    const count = 1 + Math.floor(rand() * Math.min(2, anc.length));
    const refs: number[] = [];
    while (refs.length < count) {
      const u = pick(rand, anc);
      if (!refs.includes(u)) refs.push(u);
    }
    return refs;
  });
}

/**
 * Gates for nodes with ancestors, with probability `rate` each: one to `most` gates on random
 * ancestors (a referenced one half the time), mixing key gates (two or three classes, from a
 * pool of two shared key functions, so some gates share one) and pair gates (holding two
 * times in three, hashed).
 */
export function randomGates(
  seed: number,
  rand: Rand,
  ancestors: readonly number[][],
  references: readonly (readonly number[])[],
  rate = 0.5,
  most = 3,
): MatchGate[][] {
  const keys = [0, 1].map((k) => {
    const classes = 2 + Math.floor(rand() * 2);
    return (index: number): number => hashInts([seed, 77, k, index]) % classes;
  });
  let pairs = 0;
  return ancestors.map((anc, v) => {
    if (anc.length === 0 || rand() >= rate) return [];
    const count = 1 + Math.floor(rand() * most);
    return Array.from({ length: count }, (): MatchGate => {
      const refs = references[v]!;
      const ref = refs.length > 0 && rand() < 0.5 ? pick(rand, refs) : pick(rand, anc);
      if (rand() < 0.6) return { ref, key: pick(rand, keys) };
      const id = pairs++;
      return { ref, holds: (index, refIndex) => hashInts([seed, 99, id, index, refIndex]) % 3 !== 0 };
    });
  });
}

/** A deterministic similarity: a hashed palette value, or for "offset" a preferred distance to the first reference. */
export function syntheticSimilarity(
  seed: number,
  rand: Rand,
  references: readonly (readonly number[])[],
  oracle: Oracle,
): MatchProblem["similarity"] {
  const want = references.map(() => Math.floor(rand() * 3)); // "offset": preferred distance to the reference
  return (v, index, refIndex) => {
    const refIndices = references[v]!.map((u) => refIndex(u));
    const h = hashInts([seed, v, index, ...refIndices]);
    switch (oracle) {
      case "table":
        return PALETTE[h % PALETTE.length]!;
      case "mostly-zero":
        return h % 4 === 0 ? PALETTE[(h >>> 2) % PALETTE.length]! : 0;
      case "offset": {
        if (refIndices.length === 0) return PALETTE[h % PALETTE.length]!;
        // Like an addition measure: good only at the right distance after the reference.
        const distance = index - refIndices[0]!;
        return distance === want[v] ? 1 : distance > 0 ? 0.5 : (h % 3) / 4;
      }
    }
  };
}

interface Tally {
  instances: number;
  withSeveralOptima: number;
  withReferences: number;
  /** Instances whose gates bind: without them, the best total would be higher. */
  withBindingGates: number;
  /** How many components each strategy solved under "auto". */
  auto: Record<"elimination" | "sweep" | "search", number>;
}

export function emptyTally(): Tally {
  return { instances: 0, withSeveralOptima: 0, withReferences: 0, withBindingGates: 0, auto: { elimination: 0, sweep: 0, search: 0 } };
}

/**
 * Runs the matcher under each strategy and the brute force on one instance, and compares
 * everything the rule promises: the total, the tie-break's choice, the reported similarities,
 * and that the oracle is asked once per (node, index, reference indices), a pair gate once per
 * (index, reference index) and a key function once per index.
 */
export function checkInstance({ problem, describe }: Instance, strategies: readonly MatchStrategy[], tally: Tally): void {
  tally.instances++;
  if (problem.references.some((r) => r.length > 0)) tally.withReferences++;
  const brute = problem.nodeCount === 0 ? null : bruteForceMatch(problem);

  for (const strategy of strategies) {
    const where = `${strategy}: ${describe}`;
    const asked = new Set<string>();
    const counted: MatchProblem = {
      ...problem,
      similarity: (v, index, refIndex) => {
        const key = [v, index, ...problem.references[v]!.map((u) => refIndex(u))].join(",");
        assert.ok(!asked.has(key), `oracle asked twice for ${key} (${where})`);
        asked.add(key);
        return problem.similarity(v, index, refIndex);
      },
      ...(problem.gates ? { gates: countedGates(problem.gates, where) } : {}),
    };
    const { result, strategies: used } = matchWithStrategy(counted, strategy);
    if (strategy === "auto") {
      for (const s of used) if (s !== "auto") tally.auto[s]++;
    } else {
      assert.ok(
        used.every((s) => s === strategy),
        `components solved by ${used.join(", ")} (${where})`,
      );
    }

    if (!brute) {
      assert.deepEqual(result, { total: 0, assignment: [] }, where);
      continue;
    }
    const indices = result.assignment.map((a) => a.index);
    assert.ok(Math.abs(result.total - brute.best) <= 1e-9, `total ${result.total} vs brute force ${brute.best} (${where})`);
    assert.equal(indices.length, problem.nodeCount, where);
    for (const index of indices) assert.ok(Number.isInteger(index) && index >= problem.lo && index <= problem.hi, where);
    for (const [u, v] of problem.edges) assert.ok(indices[u]! <= indices[v]!, `edge ${u}->${v} broken (${where})`);
    result.assignment.forEach((a, v) => {
      assert.equal(a.similarity, nodeValue(problem, v, indices), `similarity of node ${v} (${where})`);
    });

    assert.equal(result.total, totalOf(problem, indices), `reported total is not the assignment's total (${where})`);
    assert.deepEqual(
      indices,
      brute.chosen,
      `tie-break picked ${JSON.stringify(indices)}, rule names ${JSON.stringify(brute.chosen)} (${where})`,
    );
  }
  if (brute && brute.optimaCount > 1) tally.withSeveralOptima++;
  if (brute && problem.gates && bruteForceMatch({ ...problem, gates: undefined }).best > brute.best + 1e-9) tally.withBindingGates++;
}

/** The gates, answering as before, asserting that no pair gate is asked twice about a pair and no key function twice about an index. */
function countedGates(gates: readonly (readonly MatchGate[])[], where: string): MatchGate[][] {
  const keyFunctions = new Map<(index: number) => number, (index: number) => number>();
  return gates.map((list, v) =>
    list.map((gate, g): MatchGate => {
      if ("key" in gate) {
        let counted = keyFunctions.get(gate.key);
        if (!counted) {
          const asked = new Set<number>();
          counted = (index) => {
            assert.ok(!asked.has(index), `a key function asked twice about index ${index} (${where})`);
            asked.add(index);
            return gate.key(index);
          };
          keyFunctions.set(gate.key, counted);
        }
        return { ref: gate.ref, key: counted };
      }
      const asked = new Set<string>();
      return {
        ref: gate.ref,
        holds: (index, refIndex) => {
          const key = `${index},${refIndex}`;
          assert.ok(!asked.has(key), `gate ${g} of node ${v} asked twice about ${key} (${where})`);
          assert.ok(refIndex <= index, `gate ${g} of node ${v} asked about an invalid pair ${key} (${where})`);
          asked.add(key);
          return gate.holds(index, refIndex);
        },
      };
    }),
  );
}

/** Candidate window [lo, lo + span - 1] with a random lo in 0..3. */
export function randomWindow(rand: Rand, span: number): { lo: number; hi: number } {
  const lo = Math.floor(rand() * 4);
  return { lo, hi: lo + span - 1 };
}

export { seededRandom };

import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { firstUserMessageIndex, listMatchProblem } from "../../engine/evaluation/evaluate.js";
import { SANDBOX_TABLE } from "../../engine/evaluation/guardrails.js";
import { matchWithStrategy, type MatchProblem, type SimilarityRowOracle } from "../../engine/evaluation/matching/index.js";
import { StateCache } from "../../engine/evaluation/node-scorer.js";
import { packTables } from "../../engine/packs/tables.js";
import { readTrajectoryFile } from "../../engine/trajectory/reader.js";
import {
  ancestorLists,
  ORACLES,
  pick,
  randomGates,
  randomReferences,
  randomWindow,
  seededRandom,
  shuffled,
  syntheticSimilarity,
} from "./matching-instances.js";

// The optional row oracle (MatchProblem.similarityRow): the matcher asks it for runs of entries
// it has not asked about yet, so the answers, and each combination being asked once, are the
// same as with the per-call oracle; and the evaluator's row oracle (NodeScorer.similarityRow)
// gives exactly what its per-call similarity gives.

function randomProblem(seed: number): MatchProblem {
  const rand = seededRandom(seed);
  const nodeCount = pick(rand, [1, 2, 3, 4, 5, 6]);
  const { lo, hi } = randomWindow(rand, 2 + Math.floor(rand() * 9));
  const order = shuffled(rand, nodeCount);
  const edges: [number, number][] = [];
  for (let i = 0; i < nodeCount; i++) for (let j = i + 1; j < nodeCount; j++) if (rand() < 0.4) edges.push([order[i]!, order[j]!]);
  const ancestors = ancestorLists(nodeCount, edges);
  const references = randomReferences(rand, ancestors);
  const gates = rand() < 0.5 ? randomGates(seed, rand, ancestors, references) : undefined;
  return { nodeCount, edges, references, gates, lo, hi, similarity: syntheticSimilarity(seed, rand, references, pick(rand, ORACLES)) };
}

test("a row oracle gives the per-call oracle's mapping, each combination asked once across both", () => {
  let rows = 0;
  for (let seed = 1; seed <= 400; seed++) {
    const problem = randomProblem(seed);
    const asked = new Set<string>();
    const ask = (node: number, index: number, refIndex: (ref: number) => number): number => {
      const key = [node, index, ...problem.references[node]!.map((u) => refIndex(u))].join(",");
      assert.ok(!asked.has(key), `seed ${seed}: ${key} asked twice`);
      asked.add(key);
      return problem.similarity(node, index, refIndex);
    };
    const similarityRow: SimilarityRowOracle = (node, refIndex, first, count, out, offset) => {
      rows++;
      for (let k = 0; k < count; k++) out[offset + k] = ask(node, first + k, refIndex);
    };
    for (const strategy of ["elimination", "sweep", "auto"] as const) {
      asked.clear();
      const plain = matchWithStrategy(problem, strategy).result;
      const withRows = matchWithStrategy({ ...problem, similarity: ask, similarityRow }, strategy).result;
      assert.deepEqual(withRows, plain, `seed ${seed}, ${strategy}`);
    }
  }
  assert.ok(rows > 1_000, `the row oracle was asked ${rows} times`);
});

test("a row oracle answering out of [0, 1] is refused like the per-call oracle", () => {
  const problem: MatchProblem = { nodeCount: 1, edges: [], references: [[]], lo: 0, hi: 3, similarity: () => 0.5 };
  assert.throws(
    () =>
      matchWithStrategy(
        { ...problem, similarityRow: (_node, _ref, _first, count, out, offset) => out.fill(2, offset, offset + count) },
        "elimination",
      ),
    /similarity\(node 0, index 0\) returned 2; expected a number in \[0, 1\]/,
  );
});

test("the evaluator's row similarity equals its per-index similarity on every saved sample trajectory", () => {
  const dir = "sample-scenarios/trajectories";
  let compared = 0;
  for (const file of readdirSync(dir).filter((f) => f.endsWith(".trajectory.jsonl"))) {
    const trajectory = readTrajectoryFile(join(dir, file));
    const scenario = trajectory.header.scenario;
    const messages = trajectory.messages;
    const first = firstUserMessageIndex(messages);
    if (first >= messages.length) continue;
    const last = messages.length - 1;
    const schemas = packTables(scenario.world.pack).schemas;
    const worldTables = Object.keys(scenario.world.tables).filter((t) => t !== SANDBOX_TABLE);
    for (const [noun, nodes] of [
      ["milestone", scenario.milestones],
      ["minefield", scenario.minefields],
    ] as const) {
      if (nodes.length === 0) continue;
      // Separate scorers, so neither answer comes from the other's cache.
      const scorerOf = () =>
        listMatchProblem(
          nodes,
          noun,
          worldTables,
          new StateCache({ messages, worldAt: (i) => trajectory.worldAt(i), initialIndex: first, schemas }),
          { first, last },
        ).scorer;
      const byRow = scorerOf();
      const byIndex = scorerOf();
      byRow.references.forEach((refs, v) => {
        // Every reference at the first candidate, then at the last: both ends of the window.
        for (const at of [first, last]) {
          const refIndex = (u: number): number => (refs.includes(u) ? at : Number.NaN);
          const out = new Float64Array(last - first + 1);
          byRow.similarityRow(v, refIndex, first, out.length, out, 0);
          out.forEach((value, k) => {
            assert.equal(
              Object.is(value, byIndex.similarity(v, first + k, refIndex)),
              true,
              `${file}: ${noun} ${nodes[v]!.id} at ${first + k}`,
            );
            compared++;
          });
        }
      });
    }
  }
  assert.ok(compared > 1_000, `${compared} values compared`);
});

import { test } from "node:test";
import assert from "node:assert/strict";
import type { MatchStrategy } from "../../engine/evaluation/matching/strategy.js";
import {
  ancestorLists,
  checkInstance,
  emptyTally,
  type Instance,
  ORACLES,
  type Oracle,
  type Rand,
  randomReferences,
  randomWindow,
  seededRandom,
  shuffled,
  syntheticSimilarity,
} from "./matching-instances.js";

// Wide DAGs of 7 to 10 milestones (few edges, stars, fans between a root and a sink, two-layer
// bipartite DAGs, chains of diamonds, forests of small DAGs) against the brute force, at small
// T so that T^M enumeration stays near 20,000 vectors. These are the shapes where the old
// single sweep paid 3^width; they exercise components, the elimination's order constraints
// and the tie-break shared across components.

type WideShape = "scattered" | "star" | "fan" | "bipartite" | "diamonds" | "forest";
const WIDE_SHAPES: readonly WideShape[] = ["scattered", "star", "fan", "bipartite", "diamonds", "forest"];

/** Edges of one shape over nodes 0..m-1 in DAG order (relabelled at random afterwards). */
function shapeEdges(rand: Rand, shape: WideShape, m: number): [number, number][] {
  const edges: [number, number][] = [];
  switch (shape) {
    case "scattered": // about one edge per node: several components, some of them paths or trees
      for (let i = 0; i < m; i++) for (let j = i + 1; j < m; j++) if (rand() < 1.6 / m) edges.push([i, j]);
      break;
    case "star": // a root before every other node, sometimes with a second level
      for (let j = 1; j < m; j++) edges.push([rand() < 0.2 && j > 2 ? 1 + Math.floor(rand() * (j - 1)) : 0, j]);
      break;
    case "fan": // root -> children -> sink (the bench's shape, small)
      for (let j = 1; j < m - 1; j++) edges.push([0, j], [j, m - 1]);
      break;
    case "bipartite": {
      const tops = 1 + Math.floor(rand() * (m - 1));
      const complete = rand() < 0.4;
      for (let b = tops; b < m; b++) {
        const first = Math.floor(rand() * tops); // every bottom node has at least one top node before it
        for (let t = 0; t < tops; t++) if (complete || t === first || rand() < 0.4) edges.push([t, b]);
      }
      break;
    }
    case "diamonds": // 0 -> {1, 2} -> 3 -> {4, 5} -> 6 …, cut at m nodes
      for (let top = 0; top + 1 < m; top += 3) {
        for (const side of [top + 1, top + 2]) {
          if (side >= m) continue;
          edges.push([top, side]);
          if (top + 3 < m) edges.push([side, top + 3]);
        }
      }
      break;
    case "forest": {
      // Two or three dense little DAGs side by side.
      const parts = 2 + Math.floor(rand() * 2);
      for (let i = 0; i < m; i++) for (let j = i + 1; j < m; j++) if (i % parts === j % parts && rand() < 0.6) edges.push([i, j]);
      break;
    }
  }
  return edges;
}

function wideInstance(seed: number, shape: WideShape, oracle: Oracle): Instance {
  const rand = seededRandom(seed);
  const nodeCount = 7 + Math.floor(rand() * 4);
  const maxSpan = Math.floor(20_000 ** (1 / nodeCount)); // 4, 3, 3, 2
  const span = 2 + Math.floor(rand() * (maxSpan - 1));
  const { lo, hi } = randomWindow(rand, span);
  const label = shuffled(rand, nodeCount);
  const edges = shapeEdges(rand, shape, nodeCount).map(([u, v]) => [label[u]!, label[v]!] as [number, number]);
  const references = randomReferences(rand, ancestorLists(nodeCount, edges), 0.3);
  const similarity = syntheticSimilarity(seed, rand, references, oracle);
  return {
    problem: { nodeCount, edges, references, lo, hi, similarity },
    describe: `seed ${seed}, ${shape}, ${oracle}, M=${nodeCount}, lo=${lo}, hi=${hi}, edges=${JSON.stringify(edges)}, refs=${JSON.stringify(references)}`,
  };
}

const INSTANCES_PER_SHAPE = 250;

for (const [s, shape] of WIDE_SHAPES.entries()) {
  test(`matches the brute force on ${INSTANCES_PER_SHAPE} wide ${shape} instances of 7-10 milestones, under every strategy`, () => {
    const tally = emptyTally();
    for (let i = 0; i < INSTANCES_PER_SHAPE; i++) {
      const seed = 2_000_000 + 100_000 * s + i;
      // The forced sweep pays 3^width per index: every instance would make the suite slow.
      const strategies: MatchStrategy[] = i % 4 === 0 ? ["auto", "elimination", "sweep"] : ["auto", "elimination"];
      checkInstance(wideInstance(seed, shape, ORACLES[i % ORACLES.length]!), strategies, tally);
    }
    assert.ok(tally.withSeveralOptima > INSTANCES_PER_SHAPE / 10, `only ${tally.withSeveralOptima} instances had ties`);
    assert.ok(tally.withReferences > INSTANCES_PER_SHAPE / 2, `only ${tally.withReferences} had references`);
    if (shape === "scattered" || shape === "forest") {
      // The tie-break must compose across components: these shapes must actually have several.
      const components = tally.auto.elimination + tally.auto.sweep;
      assert.ok(components > 2 * INSTANCES_PER_SHAPE, `only ${components} components in ${INSTANCES_PER_SHAPE} instances`);
    }
  });
}

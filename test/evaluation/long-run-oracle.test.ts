import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { bestMatch, MATCH_TIE_EPSILON } from "../../engine/evaluation/matching/index.js";
import { compressRuns } from "../../engine/evaluation/matching/index-compression.js";
import { trimPeriodicStretches } from "../../engine/evaluation/matching/periodic-trim.js";
import { parseTrajectory } from "../../engine/trajectory/reader.js";
import { longRunTrajectoryText, type TrafficPlacement } from "../../bench/long-run-trajectory.js";
import { oracleMatch, problemsOf } from "./long-run-problems.js";

// Every sample's own milestones and minefields over generated long runs (bench/long-run-
// trajectory.ts: rounds of traffic the nodes do not care about, the sample's messages late or
// spread through it), matched by the matcher as the evaluator calls it (index classes and run
// compression included) and by a literal oracle: every valid mapping enumerated, the maximum
// total, then the lexicographically smallest index vector within the tie epsilon (the documented
// rule, as test/evaluation/matching-brute-force.ts states it), with the plain similarity and
// gates (no classes, no runs). Sizes stay small enough to enumerate.

const SAMPLES = "sample-scenarios/trajectories";
const PLACEMENTS: readonly TrafficPlacement[] = ["late", "spread"];

test("on generated long runs of every sample, the matcher equals the literal oracle", () => {
  const files = readdirSync(SAMPLES)
    .filter((f) => f.endsWith(".trajectory.jsonl"))
    .sort();
  assert.equal(files.length, 29, "the 29 sample trajectories");
  let compared = 0;
  let withReferences = 0;
  for (const file of files) {
    const sample = readFileSync(join(SAMPLES, file), "utf8");
    for (const placement of PLACEMENTS) {
      // Two sizes: the sample plus a few rounds, and as many as the oracle can enumerate.
      for (const extra of [8, 24]) {
        const messages = parseTrajectory(sample, file).messages.length + extra;
        for (const { name, problem } of problemsOf(longRunTrajectoryText(sample, messages, placement))) {
          const { classes: _classes, sameAsPrevious: _runs, ...plain } = problem;
          const oracle = oracleMatch(plain, 400_000);
          if (!oracle) continue;
          const got = bestMatch({ ...problem, onProgress: () => {} });
          const where = `${file} ${placement} ${messages} messages, ${name}`;
          assert.ok(Math.abs(got.total - oracle.best) <= MATCH_TIE_EPSILON, `${where}: total ${got.total}, oracle ${oracle.best}`);
          assert.deepEqual(
            got.assignment.map((a) => a.index),
            oracle.chosen,
            `${where}: the tie-break's mapping`,
          );
          compared++;
          if (problem.references.some((r) => r.length > 0) || problem.gates?.some((g) => g.length > 0)) withReferences++;
        }
      }
    }
  }
  // Most problems must be enumerable, and many must read another milestone's message.
  assert.ok(compared >= 90, `${compared} problems compared with the oracle`);
  assert.ok(withReferences >= 40, `${withReferences} of them with references or gates`);
});

test("on longer runs of every sample, the matcher with classes equals the matcher without them", () => {
  // The matcher without classes and runs is the one the oracle tests above and in
  // matching*.test.ts check; here it is the anchor at sizes the enumeration cannot reach. At 120
  // messages the traffic's loop is long enough to be trimmed (periodic-trim.ts) for most lists.
  let problems = 0;
  let trimmed = 0;
  for (const file of readdirSync(SAMPLES).filter((f) => f.endsWith(".trajectory.jsonl"))) {
    const sample = readFileSync(join(SAMPLES, file), "utf8");
    for (const placement of PLACEMENTS) {
      for (const { name, problem } of problemsOf(longRunTrajectoryText(sample, 120, placement))) {
        const { classes: _classes, sameAsPrevious: _runs, ...plain } = problem;
        const got = bestMatch({ ...problem, onProgress: () => {} });
        const anchor = bestMatch({ ...plain, onProgress: () => {} });
        problems++;
        if (trimPeriodicStretches(compressRuns(problem)?.problem ?? problem)) trimmed++;
        const where = `${file} ${placement}, ${name}`;
        assert.ok(Math.abs(got.total - anchor.total) <= MATCH_TIE_EPSILON, `${where}: total ${got.total}, anchor ${anchor.total}`);
        assert.deepEqual(
          got.assignment.map((a) => a.index),
          anchor.assignment.map((a) => a.index),
          `${where}: mapping`,
        );
      }
    }
  }
  assert.ok(trimmed >= problems / 2, `only ${trimmed} of ${problems} lists had a stretch trimmed`);
});

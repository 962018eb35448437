import assert from "node:assert/strict";
import { test } from "node:test";
import { inShard, parseShard, shardOf, ShardSpecError } from "../../engine/runner/shards.js";
import { trajectoryFileName } from "../../engine/trajectory/run-files.js";

/** A suite's job names as a run names them: 129 scenarios x 8 variants x 3 trials. */
const JOBS = Array.from({ length: 129 * 8 }, (_, i) => `scenario_${Math.floor(i / 8)}_variant_${i % 8}`).flatMap((name) =>
  [1, 2, 3].map((trial) => trajectoryFileName(name, trial)),
);

test("every job is in exactly one shard, for N from 1 to 8", () => {
  for (let count = 1; count <= 8; count++) {
    const seen = new Map<string, number>();
    for (let index = 1; index <= count; index++) {
      for (const job of JOBS) if (inShard(job, { index, count })) seen.set(job, (seen.get(job) ?? 0) + 1);
    }
    assert.equal(seen.size, JOBS.length, `N=${count}: some job is in no shard`);
    assert.ok(
      [...seen.values()].every((n) => n === 1),
      `N=${count}: some job is in two shards`,
    );
  }
});

test("a job's shard depends on its name only, not on the order or the other jobs", () => {
  const forward = JOBS.map((job) => shardOf(job, 4));
  const backward = [...JOBS]
    .reverse()
    .map((job) => shardOf(job, 4))
    .reverse();
  assert.deepEqual(forward, backward);
  // Fixed values: a change of hash would move jobs between machines of a running sweep. Worked out
  // apart from the code (Python: int.from_bytes(sha256(name).digest()[:6], "big") % N + 1).
  assert.equal(shardOf("cellular_off_adapted.trajectory.jsonl", 4), 2);
  assert.deepEqual(
    ["a.trajectory.jsonl", "b.trajectory.jsonl", "c.trial-2.trajectory.jsonl"].map((j) => shardOf(j, 7)),
    [4, 1, 3],
  );
  assert.deepEqual(
    ["a.trajectory.jsonl", "b.trajectory.jsonl", "c.trial-2.trajectory.jsonl", "scenario_0_variant_0.trajectory.jsonl"].map((j) =>
      shardOf(j, 3),
    ),
    [1, 1, 2, 2],
  );
});

test("shards are balanced within a few percent on a suite-sized run", () => {
  const sizes = [0, 0, 0, 0];
  for (const job of JOBS) sizes[shardOf(job, 4) - 1]! += 1;
  const even = JOBS.length / 4;
  for (const size of sizes) assert.ok(Math.abs(size - even) / even < 0.06, `shard sizes ${sizes.join(", ")}`);
});

test("--shard takes I/N with 1 <= I <= N and says what is wrong otherwise", () => {
  assert.deepEqual(parseShard("2/4"), { index: 2, count: 4 });
  assert.deepEqual(parseShard("1/1"), { index: 1, count: 1 });
  for (const bad of ["0/4", "5/4", "2/0", "2", "a/b", "-1/4", "2/4/6"]) assert.throws(() => parseShard(bad), ShardSpecError, bad);
});

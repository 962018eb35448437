// A run's record as `report` and the runs panel read it (engine/reports/run-record.ts), and the
// report over records (engine/reports/runs-report.ts): telemetry summed, pass^k per scenario.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { runRecordOf } from "../../engine/reports/run-record.js";
import { runsReport } from "../../engine/reports/runs-report.js";
import { serializeLine } from "../../engine/trajectory/writer.js";

test("a model run's record sums its calls; the report sums the records and computes pass^k per scenario", () => {
  const sample = readFileSync(join("sample-scenarios", "trajectories", "find_temperature_adapted.trajectory.jsonl"), "utf8").split("\n");
  const call = (tokens: number) =>
    serializeLine({
      type: "model_call",
      role: "agent",
      index: 3,
      call: {
        model: "m",
        latency_ms: 100,
        attempts: 1,
        request_id: "r",
        usage: { prompt_tokens: tokens, completion_tokens: 5, total_tokens: tokens + 5 },
      },
    }).trimEnd();
  const text = [sample[0], sample[1], sample[2], sample[3], call(40), call(60), ...sample.slice(4)].join("\n");
  const record = runRecordOf(text, "/runs/a/find_temperature_adapted.trial-2.trajectory.jsonl", "/runs", 0);
  assert.equal(record.suite, "a");
  assert.equal(record.trial, 2);
  assert.equal(record.score, 1);
  assert.equal(record.damaged, null);
  assert.deepEqual(record.apps, ["Weather"], "the apps of the tools its reference calls");
  assert.deepEqual(record.telemetry, {
    calls: 2,
    failed_calls: 0,
    latency_ms: 200,
    prompt_tokens: 100,
    completion_tokens: 10,
    total_tokens: 110,
  });
  // Three runs, not copies of one file: each has its own bytes.
  const report = runsReport([
    record,
    { ...record, score: 0.5, content_digest: "sha256:trial-2-rerun" },
    { ...record, scenario: "other", categories: [], content_digest: "sha256:other-run" },
  ]);
  assert.equal(report.telemetry.total_tokens, 330);
  const [group] = report.groups;
  assert.equal(report.groups.length, 1);
  assert.deepEqual(
    group?.pass_hat_k?.pass_hat_k.map((p) => p.k),
    [1],
  );
  assert.equal(group?.pass_hat_k?.tasks.find((t) => t.task === "find_temperature_adapted")?.successes, 1);
});

// The job pool behind `run --concurrency`, and the progress bar's time estimate.
import { test } from "node:test";
import assert from "node:assert/strict";
import { runPool } from "../../engine/runner/pool.js";
import { jobLabel, planJobs, trajectoryFileName } from "../../engine/runner/jobs.js";
import { etaText } from "../../cli/progress.js";
import type { Scenario } from "../../engine/scenario/model.js";

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

test("the pool never has more than N jobs in flight and runs every job once", async () => {
  let inFlight = 0;
  let most = 0;
  const done: number[] = [];
  const items = Array.from({ length: 20 }, (_, i) => i);
  const started = await runPool(items, { concurrency: 4, signal: new AbortController().signal }, async (i) => {
    inFlight++;
    most = Math.max(most, inFlight);
    await sleep(i % 3);
    inFlight--;
    done.push(i);
  });
  assert.equal(started, 20);
  assert.equal(most, 4);
  assert.deepEqual(
    [...done].sort((a, b) => a - b),
    items,
  );
});

test("after the signal aborts no job starts; the running ones finish", async () => {
  const stop = new AbortController();
  const finished: number[] = [];
  const started = await runPool(
    Array.from({ length: 10 }, (_, i) => i),
    { concurrency: 3, signal: stop.signal },
    async (i) => {
      await sleep(i === 1 ? 1 : 5);
      if (i === 1) stop.abort();
      finished.push(i);
    },
  );
  assert.equal(started, 3);
  assert.deepEqual(finished.sort(), [0, 1, 2]);
});

test("a job that throws stops the pool, the others are told, and the error comes out after they settle", async () => {
  const settled: number[] = [];
  let told: unknown = null;
  const failure = new Error("disk full");
  await assert.rejects(
    runPool(
      Array.from({ length: 10 }, (_, i) => i),
      { concurrency: 2, signal: new AbortController().signal },
      async (i) => {
        if (i === 1) throw failure;
        await sleep(10);
        settled.push(i);
      },
      (e) => {
        told = e;
      },
    ),
    failure,
  );
  assert.equal(told, failure);
  assert.deepEqual(settled, [0]);
});

test("jobs: trials are numbered from 1 with consecutive seeds; a single trial has plain names", () => {
  const scenario = (name: string): Scenario => ({ name }) as Scenario;
  const runnable = [
    { file: "a.scenario.yaml", scenario: scenario("a") },
    { file: "b c.scenario.yaml", scenario: scenario("b c") },
  ];
  const jobs = planJobs(runnable, 2, 10);
  assert.deepEqual(
    jobs.map((j) => [j.index, j.scenario.name, j.trial, j.seed, j.trajectory]),
    [
      [0, "a", 1, 10, "a.trial-1.trajectory.jsonl"],
      [1, "a", 2, 11, "a.trial-2.trajectory.jsonl"],
      [2, "b c", 1, 10, "b_c.trial-1.trajectory.jsonl"],
      [3, "b c", 2, 11, "b_c.trial-2.trajectory.jsonl"],
    ],
  );
  assert.deepEqual(
    planJobs(runnable, 1, 10).map((j) => [j.trial, j.seed, j.trajectory]),
    [
      [null, 10, "a.trajectory.jsonl"],
      [null, 10, "b_c.trajectory.jsonl"],
    ],
  );
  assert.equal(trajectoryFileName(".hidden"), "_hidden.trajectory.jsonl");
  assert.equal(jobLabel("a", 2), "a #2");
  assert.equal(jobLabel("a", null), "a");
});

test("the time estimate follows the rate so far and waits for a first finished episode", () => {
  assert.equal(etaText(5000, 0, 10), "--");
  assert.equal(etaText(2000, 4, 6), "3s");
  assert.equal(etaText(60_000, 1, 2), "2m00s");
  assert.equal(etaText(3_600_000, 1, 2), "2h00m");
  assert.equal(etaText(1000, 3, 0), "0s");
});

test("a job held back by admit starts when the admission changes, without polling in between", async () => {
  let room = 1;
  let asked = 0;
  const listeners = new Set<() => void>();
  const changed = (): void => {
    for (const l of listeners) l();
  };
  const startedAt: number[] = [];
  let release: () => void = () => undefined;
  const firstHeld = new Promise<void>((resolve) => {
    release = resolve;
  });
  const pool = runPool(
    [0, 1],
    {
      concurrency: 2,
      signal: new AbortController().signal,
      admit: (running) => {
        asked++;
        return running < room;
      },
      onAdmissionChange: (listener) => {
        listeners.add(listener);
        return () => listeners.delete(listener);
      },
    },
    async (i) => {
      startedAt.push(i);
      if (i === 0) await firstHeld;
    },
  );
  await sleep(100);
  // Job 1 asked once and waits: no timer asks again while nothing changes.
  assert.deepEqual(startedAt, [0]);
  const askedWhileHeld = asked;
  await sleep(100);
  assert.equal(asked, askedWhileHeld);
  room = 2;
  changed();
  await sleep(10);
  assert.deepEqual(startedAt, [0, 1]);
  release();
  assert.equal(await pool, 2);
  assert.equal(listeners.size, 0, "the pool unsubscribes when it ends");
});

// The pool of `run --concurrency` taking jobs from a queue that is still being filled, as `run`
// plans a scenario's jobs once its file has been checked.
import { test } from "node:test";
import assert from "node:assert/strict";
import { JobQueue, runPool } from "../../engine/runner/pool.js";

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

test("jobs added while the pool runs are played in order; the pool ends once the queue is closed and empty", async () => {
  const queue = new JobQueue<number>();
  const order: number[] = [];
  let inFlight = 0;
  let most = 0;
  queue.add(0);
  const pool = runPool(queue, { concurrency: 2, signal: new AbortController().signal }, async (i) => {
    order.push(i);
    inFlight++;
    most = Math.max(most, inFlight);
    await sleep(2);
    inFlight--;
  });
  for (let i = 1; i < 6; i++) {
    await sleep(3);
    queue.add(i);
  }
  let ended = false;
  void pool.then(() => (ended = true));
  await sleep(10);
  assert.equal(ended, false, "an open queue keeps the pool waiting for more jobs");
  queue.close();
  assert.equal(await pool, 6);
  assert.deepEqual(order, [0, 1, 2, 3, 4, 5]);
  assert.ok(most <= 2);
});

test("a job that arrives after the signal aborted is not started", async () => {
  const queue = new JobQueue<number>();
  const stop = new AbortController();
  const played: number[] = [];
  // Abort once the first job has started, not after a fixed wait: on a loaded machine (four test
  // files at once on two cores) 5 ms went by before the pool took job 0.
  let firstStarted: () => void = () => {};
  const first = new Promise<void>((resolve) => (firstStarted = resolve));
  const pool = runPool(queue, { concurrency: 3, signal: stop.signal }, async (i) => {
    played.push(i);
    firstStarted();
  });
  queue.add(0);
  await first;
  stop.abort();
  queue.add(1);
  queue.close();
  assert.equal(await pool, 1);
  assert.deepEqual(played, [0]);
});

test("a closed queue takes no more jobs", () => {
  const queue = new JobQueue<number>();
  queue.close();
  assert.throws(() => queue.add(1), /closed/);
});

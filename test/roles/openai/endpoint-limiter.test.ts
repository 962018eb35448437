import assert from "node:assert/strict";
import { test } from "node:test";
import { durationMs, EndpointLimiter, pauseAsked } from "../../../engine/roles/openai/endpoint-limiter.js";

/** A manual clock, so the limiter's decisions do not depend on the machine's speed. */
function clock(): { now: () => number; advance: (ms: number) => void } {
  let t = 1_000_000;
  return { now: () => t, advance: (ms) => void (t += ms) };
}

async function call(limiter: EndpointLimiter, status: number, headers?: Headers): Promise<void> {
  await limiter.acquire();
  limiter.release({ status, ...(headers ? { headers } : {}) });
}

test("until the first refusal the limit doubles per round of answers, up to the maximum; after it, it climbs by about one per round", async () => {
  const c = clock();
  const limiter = new EndpointLimiter({ max: 16, initial: 2, now: c.now });
  for (let i = 0; i < 2; i++) await call(limiter, 200);
  assert.equal(limiter.limit, 4, "two answers at limit 2 double it");
  for (let i = 0; i < 4; i++) await call(limiter, 200);
  assert.equal(limiter.limit, 8);
  for (let i = 0; i < 400; i++) await call(limiter, 200);
  assert.equal(limiter.limit, 16, "never past the maximum");
  await call(limiter, 429);
  assert.equal(limiter.limit, 8);
  c.advance(1500);
  for (let i = 0; i < 8; i++) await call(limiter, 200);
  assert.equal(limiter.limit, 8, "after a refusal, eight answers at limit 8 add about one");
  await call(limiter, 200);
  assert.equal(limiter.limit, 9);
});

test("429s halve the limit once per burst, and answers bring it back additively", async () => {
  const c = clock();
  const limiter = new EndpointLimiter({ max: 64, initial: 32, now: c.now });
  // Five requests out at once, all refused: one signal, not five.
  for (let i = 0; i < 5; i++) await limiter.acquire();
  for (let i = 0; i < 5; i++) limiter.release({ status: 429 });
  assert.equal(limiter.limit, 16, "a burst of five refusals within a second is one signal");
  assert.equal(limiter.throttled, 5);
  // The clock passes a second before each request, beyond any pace the refusals set.
  const later = async (status: number): Promise<void> => {
    c.advance(1500);
    await call(limiter, status);
  };
  await later(503);
  assert.equal(limiter.limit, 8);
  c.advance(1500);
  await limiter.acquire();
  limiter.release({ timedOut: true }); // an attempt that never got an answer
  assert.equal(limiter.limit, 4);
  let answers = 0;
  while (limiter.limit < 8) {
    await later(200);
    answers++;
  }
  assert.ok(answers >= 4 + 5 + 6 + 7 - 4 && answers <= 4 + 5 + 6 + 7 + 4, `recovered to 8 after ${answers} answers`);
});

test("after a refusal requests are paced from the rate the endpoint accepted, and the pace climbs with answers", async () => {
  const c = clock();
  const limiter = new EndpointLimiter({ max: 64, initial: 64, now: c.now, pacing: true });
  assert.equal(limiter.pace, Number.POSITIVE_INFINITY, "unpaced until the endpoint refuses");
  // 40 answers within the last second, then a refusal: the pace starts at 85% of 40 per second.
  for (let i = 0; i < 40; i++) {
    c.advance(20);
    await call(limiter, 200);
  }
  await limiter.acquire();
  limiter.release({ status: 429 });
  assert.ok(Math.abs(limiter.pace - 34) < 1e-9, `pace ${limiter.pace}`);
  // The next request may start only 1000/34 ms later.
  let started = false;
  const next = limiter.acquire().then(() => {
    started = true;
  });
  await new Promise((resolve) => setTimeout(resolve, 5));
  assert.equal(started, false, "held back by the pace");
  c.advance(30);
  await next;
  limiter.release({ status: 200 });
  const before = limiter.pace;
  for (let i = 0; i < 34; i++) {
    c.advance(30);
    await call(limiter, 200);
  }
  assert.ok(
    limiter.pace > before + 1.5 && limiter.pace < before + 2.5,
    `a second of answers adds about 2 per second: ${before} -> ${limiter.pace}`,
  );
});

test("no more requests run at once than the limit; the others wait their turn", async () => {
  const limiter = new EndpointLimiter({ max: 3, initial: 3 });
  const order: number[] = [];
  for (let i = 0; i < 3; i++) await limiter.acquire();
  const waiting = [4, 5].map((n) => limiter.acquire().then(() => order.push(n)));
  await new Promise((r) => setImmediate(r));
  assert.equal(limiter.queued, 2);
  assert.deepEqual(order, []);
  limiter.release({ status: 200 });
  await waiting[0];
  assert.deepEqual(order, [4]);
  limiter.release({ status: 200 });
  await waiting[1];
  assert.deepEqual(order, [4, 5]);
});

test("Retry-After pauses every request of the endpoint until it has passed", async () => {
  const limiter = new EndpointLimiter({ max: 8, initial: 8 });
  await limiter.acquire();
  const started = Date.now();
  limiter.release({ status: 429, headers: new Headers({ "retry-after-ms": "300" }) });
  await limiter.acquire();
  const waited = Date.now() - started;
  limiter.release({ status: 200 });
  assert.ok(waited >= 280, `waited ${waited} ms`);
});

test("a pause's timer that fires a millisecond early, with the clock moving on while it is handled, still wakes the waiting requests", async (t) => {
  // libuv counts a timer from the start of its loop turn, so one can fire just before Date.now()
  // reaches the pause's end; and the clock moves while the limiter handles it. Read twice, such
  // a moment was too early to wake the waiters and too late to set another timer.
  t.mock.timers.enable({ apis: ["setTimeout"] });
  let time = 1_000_000;
  let ticking = false;
  const limiter = new EndpointLimiter({
    max: 4,
    initial: 4,
    // Once ticking, every reading of the clock is a millisecond later than the one before.
    now: () => (ticking ? time++ : time),
  });
  await limiter.acquire();
  // Refused with a pause of 100 ms: the next request waits for it (the limiter sets its timer).
  limiter.release({ status: 429, headers: new Headers({ "retry-after-ms": "100" }) });
  let woken = false;
  const waiting = limiter.acquire().then(() => (woken = true));
  assert.equal(limiter.queued, 1);
  // The timer fires at 99 ms by the limiter's clock, which then moves on a millisecond per read.
  time += 99;
  ticking = true;
  t.mock.timers.tick(100);
  for (let i = 0; i < 5 && !woken; i++) {
    await Promise.resolve();
    t.mock.timers.tick(10);
  }
  await Promise.race([waiting, Promise.resolve()]);
  assert.equal(woken, true, "the request waiting for the pause was let through");
  limiter.release({ status: 200 });
});

test("an aborted wait leaves the queue", async () => {
  const limiter = new EndpointLimiter({ max: 1, initial: 1 });
  await limiter.acquire();
  const stop = new AbortController();
  const waiting = limiter.acquire(stop.signal);
  stop.abort(new Error("cancelled"));
  await assert.rejects(waiting, /cancelled/);
  assert.equal(limiter.queued, 0);
});

test("the pause an endpoint asks for is read from its headers", () => {
  assert.equal(pauseAsked(new Headers({ "retry-after": "2" }), true), 2000);
  assert.equal(pauseAsked(new Headers({ "retry-after-ms": "150", "retry-after": "2" }), true), 150);
  assert.equal(pauseAsked(new Headers({ "retry-after": "2" }), false), 0, "Retry-After on a success asks nothing");
  assert.equal(pauseAsked(new Headers({ "x-ratelimit-remaining-requests": "0", "x-ratelimit-reset-requests": "1.5s" }), false), 1500);
  assert.equal(pauseAsked(new Headers({ "x-ratelimit-remaining-requests": "3", "x-ratelimit-reset-requests": "1s" }), false), 0);
  assert.equal(durationMs("6m0s"), 360_000);
  assert.equal(durationMs("250ms"), 250);
  assert.equal(durationMs("1h2m3.5s"), 3_723_500);
  assert.equal(durationMs("soon"), 0);
});

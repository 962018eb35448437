// Milestone breakpoints on long replays of the samples (test/debug/long-runs.ts): the adapter
// keeps answering while a long prefix is scored, a pause then stops it, and the stops and the
// milestones shown at each equal what scoring each prefix on its own gives.
import { strict as assert } from "node:assert";
import { test } from "node:test";
import type { DebugClient } from "@vscode/debugadapter-testsupport";
import type { DebugProtocol } from "@vscode/debugprotocol";
import { evaluate, firstUserMessageIndex } from "../../engine/evaluation/evaluate.js";
import { readTrajectoryFile } from "../../engine/trajectory/reader.js";
import { currentIndex, launchToStop, moveToStop, watch, withClient } from "./dap-client.js";
import { longRunFile, milestoneLines } from "./long-runs.js";

/** Which of two things the client saw first: the answer to a request, or a stopped event. */
async function firstOf(dc: DebugClient, request: () => Promise<unknown>): Promise<"answer" | "stopped"> {
  const stopped = dc.waitForEvent("stopped", 120_000).then(() => "stopped" as const);
  return Promise.race([request().then(() => "answer" as const), stopped]);
}

test("while a long prefix is scored for a milestone breakpoint, threads and pause are answered, and the pause stops", async () => {
  // Thousands of messages of partially similar traffic between interdependent milestones: one
  // prefix takes the matcher seconds, during which a blocked adapter would answer nothing.
  const run = longRunFile("find_days_till_holiday_wifi_off_adapted", 6000, "spread");
  await withClient(async (dc) => {
    dc.defaultTimeout = 120_000;
    const { stopped } = await launchToStop(dc, { program: run.trajectory, scenario: run.scenario }, { functions: ["message 5900"] });
    assert.equal(stopped.body.reason, "function breakpoint");
    const set = await dc.setBreakpointsRequest({
      source: { path: run.scenario },
      breakpoints: milestoneLines(run.source).map((line) => ({ line })),
    });
    assert.ok(
      set.body.breakpoints.every((b) => b.verified),
      "every milestone's breakpoint binds",
    );

    await dc.nextRequest({ threadId: 1 });
    assert.equal(await firstOf(dc, () => dc.threadsRequest()), "answer", "threads is answered before the step's stop");
    const threads = await dc.threadsRequest();
    assert.deepEqual(
      threads.body.threads.map((t) => t.name),
      ["episode"],
    );

    const paused = dc.waitForEvent("stopped", 120_000) as Promise<DebugProtocol.StoppedEvent>;
    await dc.pauseRequest({ threadId: 1 });
    const stop = await paused;
    assert.equal(stop.body.reason, "pause", "the step is paused, not finished");
    // Paused before the message whose prefix was being scored: the position is one fully checked.
    assert.equal(await currentIndex(dc), 5900);
    // The session goes on: a move after the pause is taken (the scoring thread, stopped, starts again).
    const back = await moveToStop(dc, () => dc.stepBackRequest({ threadId: 1 }));
    assert.equal(back.body.reason, "step");
    assert.equal(await currentIndex(dc), 5899);
  });
});

test("on a generated long run, milestone breakpoints stop where each prefix scored on its own matches, forward and back", async () => {
  const run = longRunFile("cellular_off_adapted", 120, "spread");
  const trajectory = readTrajectoryFile(run.trajectory);
  const first = firstUserMessageIndex(trajectory.messages);
  const last = trajectory.messages.length - 1;
  const alone = (i: number) =>
    evaluate(trajectory.header.scenario, trajectory.messages.slice(0, i + 1), (k) => trajectory.worldAt(k), first, {
      endReason: i === last ? trajectory.endReason : null,
    });
  const expected = [...trajectory.messages.keys()].filter((i) => alone(i).milestones.some((m) => m.matched_at === i));
  assert.ok(expected.length >= 2, `the run has stops to compare (${expected.join(", ")})`);
  const ids = trajectory.header.scenario.milestones.map((m) => m.id);
  const lines = milestoneLines(run.source).map((line) => ({ line }));

  await withClient(async (dc) => {
    const stops: number[] = [];
    const check = async (): Promise<void> => {
      const at = await currentIndex(dc);
      stops.push(at);
      const want = alone(at);
      for (const id of ids) {
        const shown = await watch(dc, `milestones.${id}.matched_at`);
        assert.equal(shown, JSON.stringify(want.milestones.find((m) => m.id === id)!.matched_at), `${id} at message ${at}`);
      }
    };
    const { stopped } = await launchToStop(dc, { program: run.trajectory, scenario: run.scenario }, { lines });
    assert.equal(stopped.body.reason, "breakpoint");
    await check();
    for (;;) {
      const [event] = await Promise.race([
        Promise.all([dc.waitForEvent("stopped"), dc.continueRequest({ threadId: 1 })]),
        dc.waitForEvent("terminated").then(() => [null] as const),
      ]);
      if (event === null) break;
      await check();
    }
    assert.deepEqual(stops, expected, "forward: a stop exactly where the prefix matches a milestone at its last message");
  });

  await withClient(async (dc) => {
    const lastStop = expected[expected.length - 1]!;
    await launchToStop(dc, { program: run.trajectory, scenario: run.scenario }, { functions: [`message ${last}`] });
    await dc.setBreakpointsRequest({ source: { path: run.scenario }, breakpoints: lines });
    const back: number[] = [];
    for (let k = 0; k < expected.length; k++) {
      const stop = await moveToStop(dc, () => dc.reverseContinueRequest({ threadId: 1 }));
      if (stop.body.reason !== "breakpoint") break;
      back.push(await currentIndex(dc));
    }
    const before = expected.filter((i) => i < last).reverse();
    assert.deepEqual(back, before, `backward from message ${last} (the last stop forward was ${lastStop})`);
  });
});

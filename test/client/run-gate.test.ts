// Pausing a live run: a paused run waits before its next turn, "step" plays exactly one turn and
// holds again, "continue" plays on to the end; the panel is told each state change.
import { test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { after } from "node:test";
import type { LiveState } from "../../engine/panel/protocol.js";
import { createScriptedRoles } from "../../engine/roles/scripted.js";
import { playToFile, type StreamedLine } from "../../client/host/live-run.js";
import { RunGate } from "../../client/host/run-gate.js";
import { removeTempDirs, resolveScenario, scenarioText, tempDir } from "./fixtures.js";

after(removeTempDirs);

/** Resolves each time the run reaches the gate (before the gate decides whether it may pass). */
class Arrivals {
  private waiters: (() => void)[] = [];
  count = 0;
  arrived(): void {
    this.count++;
    for (const w of this.waiters.splice(0)) w();
  }
  next(): Promise<void> {
    return new Promise((resolve) => this.waiters.push(resolve));
  }
}

const messageCount = (lines: readonly StreamedLine[]): number => lines.filter((l) => l.type === "message").length;

test("a run started paused waits before its first turn, steps one turn at a time, then continues to the end", async () => {
  const scenario = resolveScenario(scenarioText("cellular_off_adapted"));
  const states: LiveState[] = [];
  const gate = new RunGate((s) => states.push(s), { startPaused: true });
  const arrivals = new Arrivals();
  const lines: StreamedLine[] = [];
  let arrival = arrivals.next();
  const running = playToFile({
    scenario,
    ...createScriptedRoles(scenario),
    seed: 0,
    file: join(tempDir(), "gated.trajectory.jsonl"),
    signal: new AbortController().signal,
    beforeTurn: async () => {
      arrivals.arrived();
      await gate.beforeTurn();
    },
    onLine: (l) => lines.push(l),
  });

  await arrival;
  // Let anything that could still run do so: nothing may pass a paused gate.
  await new Promise((resolve) => setImmediate(resolve));
  const scripted = messageCount(lines);
  assert.equal(arrivals.count, 1);
  assert.equal(gate.state, "paused");

  arrival = arrivals.next();
  gate.control("step");
  await arrival;
  await new Promise((resolve) => setImmediate(resolve));
  assert.equal(arrivals.count, 2);
  // The agent's one turn: its tool call (one message) and nothing more.
  assert.equal(messageCount(lines), scripted + 1);
  assert.equal(gate.state, "paused");

  gate.control("continue");
  const outcome = await running;
  gate.finish();
  assert.equal(outcome.end?.reason, "end_conversation");
  assert.equal(outcome.evaluation?.score, 1);
  assert.deepEqual(states, ["paused", "running", "paused", "running", "finished"]);
});

test("pause during a run takes effect before the next turn; step while running pauses", () => {
  const states: LiveState[] = [];
  const gate = new RunGate((s) => states.push(s));
  gate.control("pause");
  gate.control("pause");
  gate.control("continue");
  gate.control("step");
  gate.finish();
  gate.control("continue");
  assert.deepEqual(states, ["running", "paused", "running", "paused", "finished"]);
});

test("a step asked for before the run reaches the gate lets exactly one turn through", async () => {
  const gate = new RunGate(() => undefined);
  gate.control("pause");
  gate.control("step");
  await gate.beforeTurn();
  let passed = false;
  void gate.beforeTurn().then(() => {
    passed = true;
  });
  await new Promise((resolve) => setImmediate(resolve));
  assert.equal(passed, false);
  gate.finish();
  await new Promise((resolve) => setImmediate(resolve));
  assert.equal(passed, true);
});

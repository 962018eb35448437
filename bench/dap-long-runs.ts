// bench:dap's long-run rows: every sample's own run stretched to 10,000 messages of traffic its
// milestones do not care about (bench/long-run-trajectory.ts, "spread"), replayed by `toolsandbox
// dap` with a breakpoint on every milestone and minefield (the insufficient-information samples
// have minefields alone). Per sample, from message 90% of the way:
//   - Step Over: from the request to the stopped event (each stop needs the evaluation of the
//     messages up to it; median of the steps);
//   - the Milestones scope at that stop: scopes, then its variables;
//   - pause while a continue is scoring: from the request to its answer, and to the stopped event.
// A figure that reaches the limit is cut there, shown as "> limit". Targets: stepping under 50 ms
// (median), the Milestones scope under 200 ms, pause answered within 100 ms.
import { readdirSync } from "node:fs";
import { resolve } from "node:path";
import { DebugClient } from "@vscode/debugadapter-testsupport";
import type { DebugProtocol } from "@vscode/debugprotocol";
import { longRunFile, milestoneLines } from "../test/debug/long-runs.js";
import { median } from "./report.js";

const STEP_TARGET_MS = 50;
const SCOPE_TARGET_MS = 200;
const PAUSE_TARGET_MS = 100;
/** The longest wait measured; past it the operation is paused (a step) or given up (a scope). */
const LIMIT_MS = 10_000;

interface SampleRow {
  readonly sample: string;
  readonly steps: readonly number[];
  readonly scope: number;
  readonly pauseAnswer: number;
  readonly pauseStop: number;
}

const timeout = (ms: number): Promise<"timeout"> => new Promise((r) => setTimeout(() => r("timeout"), ms).unref());

/** Milliseconds until `work` settles, or LIMIT_MS when it does not settle by then (`late` then runs, and the work is let settle). */
async function timed(work: Promise<unknown>, late: (() => Promise<unknown>) | null): Promise<number> {
  const start = performance.now();
  const outcome = await Promise.race([work.then(() => "done" as const), timeout(LIMIT_MS)]);
  if (outcome === "timeout") {
    if (late) {
      await late();
      await work;
    } else work.catch(() => {});
    return LIMIT_MS;
  }
  return performance.now() - start;
}

async function sampleRow(sample: string, messages: number, steps: number): Promise<SampleRow> {
  const run = longRunFile(sample, messages, "spread");
  const dc = new DebugClient(resolve("dist/cli.js"), "dap", "toolsandbox");
  dc.defaultTimeout = 120_000;
  await dc.start();
  try {
    const from = Math.floor(messages * 0.9);
    await Promise.all([
      dc
        .waitForEvent("initialized")
        .then(() => dc.setFunctionBreakpointsRequest({ breakpoints: [{ name: `message ${from}` }] }))
        .then(() => dc.configurationDoneRequest()),
      dc.launch({ program: run.trajectory, scenario: run.scenario }),
      dc.waitForEvent("stopped"),
    ]);
    const lines = [...milestoneLines(run.source), ...milestoneLines(run.source, "minefields")];
    await dc.setBreakpointsRequest({ source: { path: run.scenario }, breakpoints: lines.map((line) => ({ line })) });
    const pause = async (): Promise<void> => {
      await dc.pauseRequest({ threadId: 1 });
    };
    const stepTimes: number[] = [];
    for (let i = 0; i < steps; i++) {
      const stopped = dc.waitForEvent("stopped");
      await dc.nextRequest({ threadId: 1 });
      stepTimes.push(await timed(stopped, pause));
      if (stepTimes.at(-1)! >= LIMIT_MS) break;
    }
    const frame = (await dc.stackTraceRequest({ threadId: 1, startFrame: 0, levels: 1 })).body.stackFrames[0]!;
    // Given up at the limit: the continue below leaves the stop, and the pending answer with it.
    const scope = await timed(
      dc.scopesRequest({ frameId: frame.id }).then((answer) => {
        const milestones = answer.body.scopes.find((s) => s.name === "Milestones")!;
        return dc.variablesRequest({ variablesReference: milestones.variablesReference });
      }),
      null,
    );
    // Pause while a continue scores the prefixes after this stop.
    // A continue that reaches the end first (nothing left to score) has nothing to pause: the
    // session ends, and the row says so instead of waiting for a stop that cannot come.
    const stopped = Promise.race([dc.waitForEvent("stopped"), dc.waitForEvent("terminated")]) as Promise<DebugProtocol.Event>;
    await dc.continueRequest({ threadId: 1 });
    await new Promise((r) => setTimeout(r, 200));
    const pauseStart = performance.now();
    await dc.pauseRequest({ threadId: 1 });
    const pauseAnswer = performance.now() - pauseStart;
    const ended = await stopped;
    const pauseStop = ended.event === "terminated" ? Number.NaN : performance.now() - pauseStart;
    return { sample, steps: stepTimes, scope, pauseAnswer, pauseStop };
  } finally {
    await dc.stop();
  }
}

const ms = (value: number): string =>
  Number.isNaN(value) ? "none (the run ended first)" : value >= LIMIT_MS ? `> ${LIMIT_MS} ms` : `${value.toFixed(1)} ms`;

/** Prints one line per sample and the totals; returns the three targets, met or not. */
export async function longRunRows(messages: number, steps: number, only: number | null): Promise<{ what: string; met: boolean }[]> {
  const samples = readdirSync("sample-scenarios/trajectories")
    .filter((f) => f.endsWith(".trajectory.jsonl"))
    .map((f) => f.replace(/\.trajectory\.jsonl$/, ""))
    .sort()
    .slice(0, only ?? undefined);
  console.log(
    `\nLong runs: ${samples.length} samples at ${messages} messages (spread), a breakpoint on every milestone and minefield, from message ${Math.floor(messages * 0.9)}:`,
  );
  const rows: SampleRow[] = [];
  for (const sample of samples) {
    const row = await sampleRow(sample, messages, steps);
    rows.push(row);
    console.log(
      `  ${sample.padEnd(72)} Step Over median ${ms(median(row.steps))} (${row.steps.length} steps), Milestones scope ${ms(row.scope)}, pause answered in ${row.pauseAnswer.toFixed(1)} ms, stopped after ${ms(row.pauseStop)}`,
    );
  }
  const stepMedians = rows.map((r) => median(r.steps));
  const stepsMet = stepMedians.filter((m) => m < STEP_TARGET_MS).length;
  const scopesMet = rows.filter((r) => r.scope < SCOPE_TARGET_MS).length;
  const pauseWorst = Math.max(...rows.map((r) => r.pauseAnswer));
  console.log(`  Step Over median under ${STEP_TARGET_MS} ms: ${stepsMet} of ${rows.length} samples`);
  console.log(`  Milestones scope under ${SCOPE_TARGET_MS} ms: ${scopesMet} of ${rows.length} samples`);
  console.log(`  pause answered: worst ${pauseWorst.toFixed(1)} ms`);
  return [
    { what: `long runs: Step Over under ${STEP_TARGET_MS} ms (median) on every sample`, met: stepsMet === rows.length },
    { what: `long runs: Milestones scope under ${SCOPE_TARGET_MS} ms on every sample`, met: scopesMet === rows.length },
    { what: `long runs: pause answered within ${PAUSE_TARGET_MS} ms while scoring`, met: pauseWorst < PAUSE_TARGET_MS },
  ];
}

// Debugger speed on a long replay: a synthetic 10,000-message trajectory (a world change at every
// tool result, test/webview/trajectories.ts) replayed by `toolsandbox dap` over stdio, driven by
// the DAP test client. Prints the median and the worst of:
//   - stop to Variables ready: from the stopped event to the last answer of what VS Code asks on a
//     stop (threads, the top 20 frames, the scopes, the variables of every scope);
//   - step latency: from sending Step Over (or Step Back) to the stopped event.
// Target: under 50 ms each. Prints figures; asserts nothing.
//
// Then the long-run rows (bench/dap-long-runs.ts): every sample at 10,000 messages with milestone
// breakpoints set.
//
//   npm run bench:dap                 (10,000 messages, 30 steps each way; the samples at 10,000)
//   npm run bench:dap -- 20000 50
//   npm run bench:dap -- 10000 30 5   (the long-run rows of the first 5 samples only)
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { DebugClient } from "@vscode/debugadapter-testsupport";
import type { DebugProtocol } from "@vscode/debugprotocol";
import { longRun, writeLines } from "../test/webview/trajectories.js";
import { longRunRows } from "./dap-long-runs.js";
import { startBenchReport, median } from "./report.js";

const TARGET_MS = 50;

function positiveArg(index: number, fallback: number, least: number, what: string): number {
  const arg = process.argv[index];
  if (arg === undefined) return fallback;
  const n = Number(arg);
  if (!Number.isInteger(n) || n < least) {
    console.error(`bench:dap: ${what} must be a whole number of at least ${least}, got "${arg}"`);
    process.exit(2);
  }
  return n;
}

/**
 * What VS Code asks for on a stop, in its order; resolves once everything has been answered. Like
 * VS Code, it leaves expensive scopes (Milestones: the evaluation of the messages so far) closed.
 */
async function readStop(dc: DebugClient): Promise<void> {
  await dc.threadsRequest();
  const frames = (await dc.stackTraceRequest({ threadId: 1, startFrame: 0, levels: 20 })).body.stackFrames;
  const scopes = (await dc.scopesRequest({ frameId: frames[0]!.id })).body.scopes.filter((s) => !s.expensive);
  const lists = await Promise.all(scopes.map((s) => dc.variablesRequest({ variablesReference: s.variablesReference })));
  // The first table's rows, as a user opening World would see them.
  const world = lists[scopes.findIndex((s) => s.name === "World")]?.body.variables[0];
  if (world && world.variablesReference > 0) await dc.variablesRequest({ variablesReference: world.variablesReference });
}

async function timedStop(dc: DebugClient, move: () => Promise<unknown>): Promise<{ step: number; variables: number }> {
  const start = performance.now();
  const [stopped] = await Promise.all([dc.waitForEvent("stopped"), move()]);
  const stoppedAt = performance.now();
  if ((stopped as DebugProtocol.StoppedEvent).body.reason === "exception") throw new Error("unexpected exception stop");
  await readStop(dc);
  return { step: stoppedAt - start, variables: performance.now() - stoppedAt };
}

function line(what: string, values: readonly number[]): string {
  const worst = Math.max(...values);
  const verdict = median(values) < TARGET_MS ? "under" : "OVER";
  return `${what}: median ${median(values).toFixed(1)} ms, worst ${worst.toFixed(1)} ms (${verdict} the ${TARGET_MS} ms target)`;
}

async function main(): Promise<void> {
  const report = startBenchReport("dap");
  const messages = positiveArg(2, 10_000, 8, "the message count");
  const steps = positiveArg(3, 30, 1, "the number of steps");
  const samples = process.argv[4] === undefined ? null : positiveArg(4, 29, 1, "the number of samples");
  const dir = mkdtempSync(join(tmpdir(), "toolsandbox-bench-dap-"));
  const file = writeLines(join(dir, "long.trajectory.jsonl"), longRun(messages));
  const dc = new DebugClient(resolve("dist/cli.js"), "dap", "toolsandbox");
  dc.defaultTimeout = 60_000;
  await dc.start();
  try {
    const target = Math.floor(messages * 0.9);
    const launchStart = performance.now();
    await Promise.all([
      dc
        .waitForEvent("initialized")
        .then(() => dc.setFunctionBreakpointsRequest({ breakpoints: [{ name: `message ${target}` }] }))
        .then(() => dc.configurationDoneRequest()),
      dc.launch({ program: file }),
      dc.waitForEvent("stopped"),
    ]);
    console.log(`launch to the breakpoint at message ${target} of ${messages}: ${(performance.now() - launchStart).toFixed(0)} ms`);
    const firstRead = performance.now();
    await readStop(dc);
    const variables: number[] = [performance.now() - firstRead];
    const forward: number[] = [];
    const backward: number[] = [];
    for (let i = 0; i < steps; i++) {
      const next = await timedStop(dc, () => dc.nextRequest({ threadId: 1 }));
      forward.push(next.step);
      variables.push(next.variables);
    }
    for (let i = 0; i < steps; i++) {
      const back = await timedStop(dc, () => dc.stepBackRequest({ threadId: 1 }));
      backward.push(back.step);
      variables.push(back.variables);
    }
    const at = (await dc.evaluateRequest({ expression: "index", context: "watch" })).body.result;
    // Every move went where it should: forward and back again by the same number of messages.
    if (Number(at) !== target) throw new Error(`the steps ended at message ${at}, not ${target}`);
    console.log(
      `${steps} Step Overs and ${steps} Step Backs, back at message ${at}; first read of Variables ${variables[0]!.toFixed(1)} ms`,
    );
    console.log(line("stop to Variables ready", variables));
    console.log(line("Step Over", forward));
    console.log(line("Step Back", backward));
    report.target(`stop to Variables ready under ${TARGET_MS} ms (median)`, median(variables) < TARGET_MS);
    report.target(`Step Over and Step Back under ${TARGET_MS} ms (median)`, median(forward) < TARGET_MS && median(backward) < TARGET_MS);
  } finally {
    await dc.stop();
  }
  for (const target of await longRunRows(10_000, 3, samples)) report.target(target.what, target.met);
  report.write();
}

void main();

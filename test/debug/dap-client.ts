// A DAP client on `node dist/cli.js dap` over stdio (the adapter as nvim-dap or VS Code starts it),
// with the few moves the debugger's tests repeat: launch and wait for the first stop, read where
// the session stands, read a scope of the Variables view.
import { copyFileSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { DebugClient } from "@vscode/debugadapter-testsupport";
import type { DebugProtocol } from "@vscode/debugprotocol";
import { requireBuild } from "../cli/harness.js";

export const CLI = resolve("dist/cli.js");
export const FIXTURE = resolve("test/debug/fixtures/debug_target.scenario.yaml");

// The adapter is the built CLI: a test without a current build fails with one line saying so.
export { requireBuild };

/** A folder of its own with a copy of the fixture scenario (runs are written beside it). */
export function scenarioCopy(): { dir: string; scenario: string } {
  const dir = mkdtempSync(join(tmpdir(), "toolsandbox-dap-"));
  const scenario = join(dir, "debug_target.scenario.yaml");
  copyFileSync(FIXTURE, scenario);
  return { dir, scenario };
}

export async function withClient<T>(body: (dc: DebugClient) => Promise<T>): Promise<T> {
  requireBuild();
  // The runtime is the CLI itself (it starts with #!/usr/bin/env node); its one argument is the command.
  const dc = new DebugClient(CLI, "dap", "toolsandbox");
  dc.defaultTimeout = 20_000;
  await dc.start();
  try {
    return await body(dc);
  } finally {
    await dc.stop();
  }
}

interface Setup {
  readonly lines?: readonly (number | DebugProtocol.SourceBreakpoint)[];
  readonly functions?: readonly (string | DebugProtocol.FunctionBreakpoint)[];
  readonly exceptions?: readonly string[];
}

interface Launched {
  readonly stopped: DebugProtocol.StoppedEvent;
  readonly lineBreakpoints: readonly DebugProtocol.Breakpoint[];
  readonly functionBreakpoints: readonly DebugProtocol.Breakpoint[];
}

/** Launches, sets the breakpoints once the adapter is initialized, and waits for the first stop. */
export async function launchToStop(dc: DebugClient, args: Record<string, unknown>, setup: Setup = {}, bpFile?: string): Promise<Launched> {
  let lineBreakpoints: readonly DebugProtocol.Breakpoint[] = [];
  let functionBreakpoints: readonly DebugProtocol.Breakpoint[] = [];
  const configure = async (): Promise<void> => {
    await dc.waitForEvent("initialized");
    const file = bpFile ?? (typeof args.scenario === "string" ? args.scenario : String(args.program));
    const lines = (setup.lines ?? []).map((l) => (typeof l === "number" ? { line: l } : l));
    const set = await dc.setBreakpointsRequest({ source: { path: file }, breakpoints: lines });
    lineBreakpoints = set.body.breakpoints;
    const functions = (setup.functions ?? []).map((f) => (typeof f === "string" ? { name: f } : f));
    functionBreakpoints = (await dc.setFunctionBreakpointsRequest({ breakpoints: functions })).body.breakpoints;
    await dc.setExceptionBreakpointsRequest({ filters: [...(setup.exceptions ?? [])] });
    await dc.configurationDoneRequest();
  };
  const [, , stopped] = await Promise.all([configure(), dc.launch(args), dc.waitForEvent("stopped")]);
  return { stopped: stopped as DebugProtocol.StoppedEvent, lineBreakpoints, functionBreakpoints };
}

/** Waits for the next stop after a request that moves the session. */
export async function moveToStop(dc: DebugClient, move: () => Promise<unknown>): Promise<DebugProtocol.StoppedEvent> {
  const [stopped] = await Promise.all([dc.waitForEvent("stopped"), move()]);
  return stopped as DebugProtocol.StoppedEvent;
}

/** The message index the session stands at, as Watch reads it. */
export async function currentIndex(dc: DebugClient): Promise<number> {
  return Number((await dc.evaluateRequest({ expression: "index", context: "watch" })).body.result);
}

export async function watch(dc: DebugClient, expression: string): Promise<string> {
  return (await dc.evaluateRequest({ expression, context: "watch" })).body.result;
}

export async function repl(dc: DebugClient, expression: string): Promise<string> {
  return (await dc.evaluateRequest({ expression, context: "repl" })).body.result;
}

export async function topFrame(dc: DebugClient): Promise<DebugProtocol.StackFrame> {
  const frames = (await dc.stackTraceRequest({ threadId: 1 })).body.stackFrames;
  if (!frames[0]) throw new Error("no stack frame");
  return frames[0];
}

/** The variables of a scope of the top frame by scope name, and of their children by a path of names. */
export async function variables(dc: DebugClient, scopeName: string, ...path: string[]): Promise<DebugProtocol.Variable[]> {
  const frame = await topFrame(dc);
  const scopes = (await dc.scopesRequest({ frameId: frame.id })).body.scopes;
  const scope = scopes.find((s) => s.name === scopeName);
  if (!scope) throw new Error(`no scope ${scopeName} (scopes: ${scopes.map((s) => s.name).join(", ")})`);
  let list = (await dc.variablesRequest({ variablesReference: scope.variablesReference })).body.variables;
  for (const name of path) {
    const found = list.find((v) => v.name === name);
    if (!found) throw new Error(`no variable ${name} among ${list.map((v) => v.name).join(", ")}`);
    list = (await dc.variablesRequest({ variablesReference: found.variablesReference })).body.variables;
  }
  return list;
}

export function valueNamed(list: readonly DebugProtocol.Variable[], name: string): string {
  const found = list.find((v) => v.name === name);
  if (!found) throw new Error(`no variable ${name} among ${list.map((v) => v.name).join(", ")}`);
  return found.value;
}

/** The 1-based line of the first line of the fixture containing `text` (after `from`, when given). */
export function lineOf(text: string, source: string, from?: string): number {
  const lines = source.split("\n");
  const start = from === undefined ? 0 : lines.findIndex((l) => l.includes(from));
  const at = lines.findIndex((l, i) => i >= start && l.includes(text));
  if (at < 0) throw new Error(`the fixture has no line with ${text}`);
  return at + 1;
}

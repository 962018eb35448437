// `toolsandbox dap` against what a client written from the specification may send: frames that are
// not well-formed (written as raw bytes at the adapter), every way a session ends, requests it does
// not announce, malformed arguments, a second launch, breakpoints in another file, an unknown tool
// in the console (through @vscode/debugadapter-testsupport's DebugClient).
import { strict as assert } from "node:assert";
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import type { DebugProtocol } from "@vscode/debugprotocol";
import { readTrajectoryFile } from "../../engine/trajectory/reader.js";
import { CLI, launchToStop, repl, requireBuild, scenarioCopy, withClient } from "./dap-client.js";

/** The adapter spoken to in raw bytes: what it answers, the events it sends, and how it exits. */
class RawDap {
  readonly child: ChildProcess;
  readonly messages: Record<string, unknown>[] = [];
  readonly exit: Promise<{ code: number | null; stderr: string }>;
  private stdout = Buffer.alloc(0);
  private stderr = "";
  private seq = 1;
  private readonly waiters: (() => void)[] = [];

  constructor() {
    requireBuild();
    this.child = spawn(process.execPath, [CLI, "dap"], { env: { PATH: process.env.PATH ?? "" } });
    this.child.stdin?.on("error", () => undefined);
    this.child.stdout?.on("data", (chunk: Buffer) => {
      this.stdout = Buffer.concat([this.stdout, chunk]);
      for (;;) {
        const text = this.stdout.toString("latin1");
        const header = /^Content-Length: (\d+)\r\n\r\n/.exec(text);
        if (!header?.[1]) break;
        const start = header[0].length;
        const length = Number(header[1]);
        if (this.stdout.length < start + length) break;
        this.messages.push(JSON.parse(this.stdout.toString("utf8", start, start + length)) as Record<string, unknown>);
        this.stdout = this.stdout.subarray(start + length);
      }
      for (const wake of this.waiters.splice(0)) wake();
    });
    this.child.stderr?.on("data", (chunk: Buffer) => (this.stderr += chunk.toString()));
    this.exit = new Promise((resolve) => this.child.on("close", (code) => resolve({ code, stderr: this.stderr })));
  }

  bytes(data: string): void {
    this.child.stdin?.write(data);
  }

  /** Sends a request; its seq. */
  request(command: string, args?: unknown): number {
    const seq = this.seq++;
    const body = JSON.stringify({ seq, type: "request", command, ...(args === undefined ? {} : { arguments: args }) });
    this.bytes(`Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
    return seq;
  }

  events(name: string): Record<string, unknown>[] {
    return this.messages.filter((m) => m.type === "event" && m.event === name);
  }

  /** Waits (at most 20 s) until `found` holds of what has arrived. */
  async until(what: string, found: () => boolean): Promise<void> {
    const deadline = Date.now() + 20_000;
    while (!found()) {
      if (Date.now() > deadline)
        throw new Error(`no ${what} within 20 s; got ${JSON.stringify(this.messages.map((m) => m.event ?? m.command))}`);
      await new Promise<void>((resolve) => {
        this.waiters.push(resolve);
        setTimeout(resolve, 200);
      });
    }
  }

  /** Initialize, launch and configurationDone at once (the launch waits for the configuration). */
  launch(args: Record<string, unknown>): void {
    this.request("initialize", { adapterID: "toolsandbox", pathFormat: "path", linesStartAt1: true, columnsStartAt1: true });
    this.request("launch", args);
    this.request("configurationDone", {});
  }
}

const frame = (body: string): string => `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;

test("bad frames end the adapter with one line and exit 1, never silently, never hanging", async () => {
  const cases: { what: string; bytes: string; endInput: boolean; line: RegExp }[] = [
    { what: "a body that is not JSON", bytes: frame("{not json"), endInput: false, line: /a frame whose body is not JSON: "\{not json"/ },
    { what: "a body of null", bytes: frame("null"), endInput: false, line: /a frame whose body is null, not a message object/ },
    {
      what: "a body shorter than its Content-Length",
      bytes: 'Content-Length: 500\r\n\r\n{"seq":1,"type":"request","command":"threads"}',
      endInput: true,
      line: /the input ended inside a frame: 46 of the 500 bytes its Content-Length announced/,
    },
    {
      what: "a header without a valid Content-Length",
      bytes: 'Content-Length: twelve\r\n\r\n{"seq":1,"type":"request","command":"threads"}',
      endInput: false,
      line: /a Content-Length that is not a whole number of bytes: "Content-Length: twelve"/,
    },
    {
      what: "a header without Content-Length",
      bytes: 'Content-Type: application/json\r\n\r\n{"seq":1,"type":"request","command":"threads"}',
      endInput: false,
      line: /a header without Content-Length/,
    },
  ];
  for (const c of cases) {
    const dap = new RawDap();
    dap.bytes(c.bytes);
    if (c.endInput) dap.child.stdin?.end();
    const { code, stderr } = await dap.exit;
    assert.equal(code, 1, `${c.what}: ${stderr}`);
    const lines = stderr.split("\n").filter((l) => l !== "");
    assert.equal(lines.length, 1, `${c.what}: one line: ${stderr}`);
    assert.match(lines[0] ?? "", /^toolsandbox: dap: /, c.what);
    assert.match(lines[0] ?? "", c.line, c.what);
    // The client is told too, while it may still listen.
    assert.equal(dap.events("terminated").length, 1, c.what);
  }
});

test("a request without a command is answered with an error; the session goes on", async () => {
  const dap = new RawDap();
  dap.bytes(frame(JSON.stringify({ seq: 7, type: "request" })));
  const threads = dap.request("threads");
  await dap.until("the threads answer", () => dap.messages.some((m) => m.request_seq === threads));
  const refused = dap.messages.find((m) => m.request_seq === 7);
  assert.equal(refused?.success, false);
  assert.equal(refused?.message, "the request has no command");
  dap.child.stdin?.end();
  assert.equal((await dap.exit).code, 0);
});

/** A launch whose agent is a program that records its pid and never connects: the episode waits on it. */
function hangingAgentLaunch(): { args: Record<string, unknown>; dir: string; pid: () => number | null } {
  const { dir, scenario } = scenarioCopy();
  writeFileSync(
    join(dir, "agent.mjs"),
    `import { writeFileSync } from "node:fs";\nwriteFileSync("agent.pid", String(process.pid));\nsetInterval(() => {}, 1000);\n`,
  );
  return {
    args: { program: scenario, agent: "cmd:node agent.mjs", user: "scripted", cwd: dir, out: join(dir, "runs") },
    dir,
    pid: () => (existsSync(join(dir, "agent.pid")) ? Number(readFileSync(join(dir, "agent.pid"), "utf8")) : null),
  };
}

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

test("ending without disconnect (input closed, SIGTERM, a bad frame) kills a cmd: agent's processes and writes the trajectory's end", async () => {
  const endings: { what: string; end: (dap: RawDap) => void; code: number }[] = [
    { what: "stdin closed", end: (dap) => dap.child.stdin?.end(), code: 0 },
    { what: "SIGTERM", end: (dap) => dap.child.kill("SIGTERM"), code: 130 },
    { what: "a bad frame", end: (dap) => dap.bytes(frame("null")), code: 1 },
  ];
  for (const ending of endings) {
    const { args, dir, pid } = hangingAgentLaunch();
    const dap = new RawDap();
    dap.launch(args);
    await dap.until("the agent's start", () => pid() !== null);
    const agent = pid() ?? 0;
    assert.ok(alive(agent), `${ending.what}: the agent runs`);
    ending.end(dap);
    const { code, stderr } = await dap.exit;
    assert.equal(code, ending.code, `${ending.what}: ${stderr}`);
    assert.equal(alive(agent), false, `${ending.what}: the agent's process is gone`);
    const files = readdirSync(join(dir, "runs")).filter((f) => f.endsWith(".trajectory.jsonl"));
    assert.equal(files.length, 1, ending.what);
    const trajectory = readTrajectoryFile(join(dir, "runs", files[0] ?? ""));
    assert.equal(trajectory.end?.reason, "cancelled", `${ending.what}: the trajectory has its end line`);
    assert.equal(dap.events("terminated").length, 1, `${ending.what}: terminated once`);
  }
});

test("disconnect ends the process; exited is sent, and terminated once, as after terminate", async () => {
  for (const first of ["disconnect", "terminate"] as const) {
    const { scenario } = scenarioCopy();
    const dap = new RawDap();
    dap.launch({ program: scenario, agent: "scripted", user: "scripted", stopOnEntry: true });
    await dap.until("the stop on entry", () => dap.events("stopped").length > 0);
    if (first === "terminate") {
      const terminate = dap.request("terminate", {});
      await dap.until("the terminate answer", () => dap.messages.some((m) => m.request_seq === terminate));
    }
    const disconnect = dap.request("disconnect", {});
    const { code, stderr } = await dap.exit;
    assert.equal(code, 0, `${first}: ${stderr}`);
    assert.equal(dap.messages.find((m) => m.request_seq === disconnect)?.success, true, first);
    assert.equal(dap.events("exited").length, 1, `${first}: exited once`);
    assert.equal(dap.events("terminated").length, 1, `${first}: terminated once`);
  }
});

/** A request answered with an error: its message (and never a stack). */
async function refusal(run: () => Promise<unknown>): Promise<string> {
  try {
    await run();
  } catch (e) {
    const message = e instanceof Error ? e.message : String(e);
    assert.doesNotMatch(message, /\n\s+at /, "no stack trace");
    return message;
  }
  throw new Error("the request succeeded");
}

test("unannounced requests, malformed arguments, an unknown threadId and a second launch are refused with a message", async () => {
  const { scenario } = scenarioCopy();
  await withClient(async (dc) => {
    const args = { program: scenario, agent: "scripted", user: "scripted", stopOnEntry: true };
    await launchToStop(dc, args);
    for (const command of ["setVariable", "restart", "goto", "attach", "source"]) {
      const message = await refusal(() => dc.customRequest(command, {}));
      assert.equal(
        message,
        `${command}: "${command}" is not supported by the ToolSandbox debug adapter (it is not among its capabilities)`,
      );
    }
    assert.equal(
      await refusal(() => dc.customRequest("setBreakpoints", {})),
      `setBreakpoints: "source" must be an object (the file the breakpoints are in)`,
    );
    assert.equal(await refusal(() => dc.customRequest("evaluate", {})), `evaluate: "expression" must be a string`);
    assert.equal(
      await refusal(() => dc.customRequest("setBreakpoints", { source: { path: scenario }, breakpoints: [{ line: "3" }] })),
      `setBreakpoints: "breakpoints[0]" "line" must be a whole number`,
    );
    assert.equal(await refusal(() => dc.nextRequest({ threadId: 2 })), "next: unknown threadId 2: the episode is thread 1");
    assert.equal(
      await refusal(() => dc.launch(args)),
      "this debug session has launched its episode already; start another debug session for another",
    );
    // None of it moved the session.
    const frames = (await dc.stackTraceRequest({ threadId: 1 })).body.stackFrames;
    assert.match(frames[0]?.name ?? "", /^set-up · #0/);
  });
});

test("breakpoints in another file come back unverified with their own source; the console names an unknown tool", async () => {
  const { scenario } = scenarioCopy();
  const other = join(mkdtempSync(join(tmpdir(), "toolsandbox-dap-other-")), "notes.yaml");
  writeFileSync(other, "a: 1\nb: 2\n");
  await withClient(async (dc) => {
    await launchToStop(dc, { program: scenario, agent: "scripted", user: "scripted", stopOnEntry: true });
    const set = await dc.setBreakpointsRequest({ source: { path: other, name: "notes.yaml" }, breakpoints: [{ line: 2 }] });
    const [bp] = set.body.breakpoints as DebugProtocol.Breakpoint[];
    assert.equal(bp?.verified, false);
    assert.equal(bp?.source?.path, other);
    assert.equal(bp?.line, 2);
    assert.equal(await refusal(() => repl(dc, "no_such_tool(x=1)")), "no_such_tool is not a tool of this world (toolsandbox).");
    assert.equal(
      await refusal(() => repl(dc, `search_contact(name="Fredrik")`)),
      `search_contact is not a tool of this world (toolsandbox). Did you mean "search_contacts"?`,
    );
  });
});

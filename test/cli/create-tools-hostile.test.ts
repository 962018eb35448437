// `toolsandbox create-tools` against hostile model code, through the real CLI: `mock-llm
// --code-answers` (a process of its own) answers each tool's creation request with a file of
// test/fixtures/tool-creation/hostile/, and create-tools runs it in the sandbox. The host's walls
// must hold whatever the code does: its deadlines, its memory cap, the protocol's order, and the
// checks of what comes back.
import assert from "node:assert/strict";
import { type ChildProcess, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { requireBuild, CLI, lines, removeTempDirs, runCli, tempDir } from "./harness.js";

const HOSTILE = "test/fixtures/tool-creation/hostile";
let mock: ChildProcess;
let baseUrl = "";

interface CaseResult {
  readonly label: string;
  readonly pass: boolean;
  readonly reason: string;
}
interface ToolResult {
  readonly failure: string | null;
  readonly cases: readonly CaseResult[];
  readonly sandbox: {
    readonly stopped: string | null;
    readonly run_ms: number | null;
    readonly memory: { readonly limit_mb: number; readonly enforcement: string; readonly peak_mb: number };
  } | null;
}

before(async () => {
  requireBuild();
  mock = spawn(process.execPath, [CLI, "mock-llm", "--code-answers", HOSTILE, "--port", "0", "--quiet"], { env: {} });
  baseUrl = await new Promise<string>((resolve, reject) => {
    let out = "";
    mock.stdout?.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      const url = out.match(/OpenAI base URL (\S+)/)?.[1];
      if (url) resolve(url);
    });
    mock.on("close", (code) => reject(new Error(`mock-llm stopped (exit ${code}) before listening: ${out}`)));
  });
});

after(() => {
  mock.kill("SIGTERM");
  removeTempDirs();
});

/** create-tools on `tools`; `onChild` sees the CLI's process as soon as it starts. */
function createTools(
  tools: string,
  extra: readonly string[],
  onChild: (cli: ChildProcess) => void = () => undefined,
): Promise<{ status: number | null; stdout: string; stderr: string; out: string }> {
  const out = tempDir("create-tools-hostile");
  const args = ["create-tools", "--tools", tools, "--agent", "openai:coder", "--base-url", baseUrl, "--out", out, ...extra];
  const cli = spawn(process.execPath, [CLI, ...args], { env: { PATH: process.env.PATH ?? "" } });
  onChild(cli);
  let stdout = "";
  let stderr = "";
  cli.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
  cli.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve, reject) => {
    cli.on("error", reject);
    cli.on("close", (status) => resolve({ status, stdout, stderr, out }));
  });
}

const result = (out: string, tool: string): ToolResult =>
  JSON.parse(readFileSync(join(out, `${tool}.creation.json`), "utf8")) as ToolResult;
const reasons = (r: ToolResult): [string, string][] => r.cases.filter((c) => !c.pass).map((c) => [c.label, c.reason]);

describe("create-tools against hostile code (mock-llm --code-answers)", () => {
  it("kills forgers at the host's deadlines, never counts a forged line, and refuses values it cannot compare", async () => {
    const tools =
      "get_wifi_status,get_current_timestamp,get_cellular_service_status,set_wifi_status,set_low_battery_mode_status,set_cellular_service_status";
    const { status, stdout, stderr, out } = await createTools(tools, ["--call-timeout", "2"]);
    assert.equal(status, 0, stderr);

    // Forges "defined" every half second from a top level that never ends: killed when defining
    // the function has taken its 2 s, not later.
    const defined = result(out, "get_wifi_status");
    assert.equal(defined.failure, "killed: defining the function took longer than 2 s");
    assert.deepEqual(
      defined.cases.map((c) => c.reason),
      ["not run: killed: defining the function took longer than 2 s", "not run: killed: defining the function took longer than 2 s"],
    );
    const definedMs = defined.sandbox?.run_ms ?? 0;
    assert.ok(definedMs >= 2000 && definedMs < 3000, `killed at its 2 s deadline, after ${definedMs} ms`);

    // Forges "done", then spins in its one call: killed at the call's limit; the tool's deadline
    // after start-up is (1 + 1 calls) x 2 s + 1 s, and the sandbox ends well within it.
    const done = result(out, "get_current_timestamp");
    assert.equal(done.failure, "killed: a call took longer than 2 s");
    assert.deepEqual(reasons(done), [["now", "killed: a call took longer than 2 s"]]);
    const doneMs = done.sandbox?.run_ms ?? Number.POSITIVE_INFINITY;
    assert.ok(doneMs < 5000, `ended within the tool's deadline plus a second, after ${doneMs} ms`);

    // Forges the right answer to each case, then returns a wrong one: only the real answer counts.
    const forged = result(out, "get_cellular_service_status");
    assert.equal(forged.sandbox?.stopped, null);
    assert.deepEqual(reasons(forged), [
      ["it is on", 'returned "forged" where ours returns true'],
      ["it is off", 'returned "forged" where ours returns false'],
    ]);

    // 10**400 where ours returns None once came back as null and passed.
    assert.deepEqual(reasons(result(out, "set_wifi_status")), [
      ["turn it off", "the result holds a number that is not finite"],
      ["turn it on while it is off", "the result holds a number past the exactly representable range (2^53 - 1): 9007199254740992"],
      ["turn it off in low battery mode", "the result holds a number that is not finite"],
    ]);

    // Exception names with a line break, or of 200 characters: the case fails, on one line.
    const notAName = "raised an exception whose name is not a Python identifier of at most 100 characters";
    assert.deepEqual(reasons(result(out, "set_low_battery_mode_status")), [
      ["turn it off while it is already off", notAName],
      ["a number for on", notAName],
    ]);

    for (const tool of tools.split(","))
      for (const c of result(out, tool).cases) assert.ok(!/[\n\r\u2028\u2029]/.test(c.reason), `${tool}: one line: ${c.reason}`);
    assert.match(lines(stdout).find((l) => l.startsWith("get_wifi_status")) ?? "", /0\/2\s+0\.0%\s+killed: defining the function/);

    // Bidirectional controls in what the code raised show as escapes, in the file and the table.
    const bidi = result(out, "set_cellular_service_status");
    assert.equal(bidi.failure, "ValueError: see \\u202Eexe.txt\\u2066 now");
    assert.ok(/[\u202A-\u202E\u2066-\u2069]/.test(stdout) === false, "no bidirectional control reaches the terminal");
    assert.match(
      lines(stdout).find((l) => l.startsWith("set_cellular_service_status")) ?? "",
      /ValueError: see \\u202Eexe\.txt\\u2066 now$/,
    );
  });

  it("kills a typed-array allocator at the memory cap: its resident memory never passes the cap by more than the margin", async () => {
    const capMb = 768;
    // Documented in docs/dialogtool.md: the host reads the child's resident memory every 20 ms.
    const marginMb = 256;
    let peakKb = 0;
    let sampler: NodeJS.Timeout | undefined;
    const { status, stderr, out } = await createTools(
      "search_contacts",
      ["--memory-limit", String(capMb), "--call-timeout", "60"],
      (cli) => {
        // The sandbox is the CLI's child: its high-water mark (VmHWM), read by this process on its own.
        sampler = setInterval(() => {
          try {
            const children = readFileSync(`/proc/${cli.pid}/task/${cli.pid}/children`, "utf8").trim().split(/\s+/).filter(Boolean);
            for (const pid of children) {
              const kb = Number(readFileSync(`/proc/${pid}/status`, "utf8").match(/^VmHWM:\s+(\d+) kB$/m)?.[1] ?? 0);
              peakKb = Math.max(peakKb, kb);
            }
          } catch {
            // The sandbox ended between two readings.
          }
        }, 5);
      },
    );
    clearInterval(sampler);
    assert.equal(status, 0, stderr);
    const r = result(out, "search_contacts");
    assert.match(r.failure ?? "", new RegExp(`^killed: memory over the limit of ${capMb} MiB`));
    // The call running fails with the reason; the calls after it never ran.
    assert.deepEqual(
      r.cases.map((c) => c.reason),
      r.cases.map((_, i) => (i === 0 ? r.failure : `not run: ${r.failure}`)),
    );
    assert.equal(r.sandbox?.memory.limit_mb, capMb);
    const peakMb = peakKb / 1024;
    console.log(
      `memory cap ${capMb} MiB (${r.sandbox?.memory.enforcement}): peak resident ${peakMb.toFixed(0)} MiB, read by the test every 5 ms`,
    );
    assert.ok(peakMb > 0, "the test read the sandbox's memory");
    assert.ok(peakMb <= capMb + marginMb, `peak ${peakMb.toFixed(0)} MiB is within ${marginMb} MiB of the ${capMb} MiB cap`);
  });

  it("mock-llm refuses a --code-answers folder without code, and a start with nothing to answer, in one line each", () => {
    const empty = tempDir("code-answers-empty");
    const none = runCli(["mock-llm", "--code-answers", empty, "--port", "0"]);
    assert.equal(none.status, 3);
    assert.deepEqual(lines(none.stderr), [`toolsandbox: --code-answers: ${empty} holds no <tool>.py file to answer with`]);
    const nothing = runCli(["mock-llm", "--port", "0"]);
    assert.equal(nothing.status, 2);
    assert.deepEqual(lines(nothing.stderr), ["toolsandbox: give --scenarios, --code-answers or both: there is nothing to answer with"]);
  });
});

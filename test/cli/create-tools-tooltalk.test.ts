// `toolsandbox create-tools --pack tooltalk` through the real CLI: `mock-llm --code-answers DIR` (a
// process of its own) answers each tool's creation request with our Python file for it
// (test/fixtures/tool-creation/tooltalk/), and create-tools runs it in the sandbox on the cases our
// ToolTalk tools answered. Every tool of the pack has cases; our correct files pass all of them and
// our buggy ones fail exactly the cases their bug touches.
import assert from "node:assert/strict";
import { type ChildProcess, spawn } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { TOOLTALK_PACK } from "../../engine/packs/tooltalk/index.js";
import { requireBuild, CLI, lines, removeTempDirs, runCliAsync, tempDir } from "./harness.js";

const FIXTURES = "test/fixtures/tool-creation/tooltalk";
const mocks: ChildProcess[] = [];

/** Starts `mock-llm --code-answers dir` and gives its base URL. */
async function mockLlm(dir: string): Promise<string> {
  const mock = spawn(process.execPath, [CLI, "mock-llm", "--code-answers", dir, "--port", "0", "--quiet"], { env: {} });
  mocks.push(mock);
  return new Promise<string>((resolve, reject) => {
    let out = "";
    mock.stdout?.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      const url = out.match(/OpenAI base URL (\S+)/)?.[1];
      if (url) resolve(url);
    });
    mock.on("close", (code) => reject(new Error(`mock-llm stopped (exit ${code}) before listening: ${out}`)));
  });
}

let correctUrl = "";
let buggyUrl = "";

before(async () => {
  requireBuild();
  [correctUrl, buggyUrl] = await Promise.all([mockLlm(join(FIXTURES, "correct")), mockLlm(join(FIXTURES, "buggy"))]);
});

after(() => {
  for (const mock of mocks) mock.kill("SIGTERM");
  removeTempDirs();
});

interface ToolResult {
  readonly tool: string;
  readonly app: string;
  readonly passed: number;
  readonly total: number;
  readonly failure: string | null;
  readonly prompt: readonly { readonly role: string; readonly content: string }[];
  readonly cases: readonly { readonly label: string; readonly kind: string; readonly pass: boolean; readonly reason: string }[];
  readonly model_calls: readonly unknown[];
}

const result = (out: string, tool: string): ToolResult =>
  JSON.parse(readFileSync(join(out, `${tool}.creation.json`), "utf8")) as ToolResult;
const failed = (r: ToolResult): string[] => r.cases.filter((c) => !c.pass).map((c) => c.label);

async function createTools(
  baseUrl: string,
  extra: readonly string[],
): Promise<{ status: number | null; stdout: string; stderr: string; out: string }> {
  const out = tempDir("create-tools-tooltalk");
  const run = await runCliAsync([
    "create-tools",
    "--pack",
    "tooltalk",
    "--agent",
    "openai:coder",
    "--base-url",
    baseUrl,
    "--out",
    out,
    ...extra,
  ]);
  return { ...run, out };
}

describe("create-tools --pack tooltalk (mock-llm --code-answers)", () => {
  it("our correct Python passes every case of every ToolTalk tool, the session read from and written to world", async () => {
    const { status, stdout, stderr, out } = await createTools(correctUrl, []);
    assert.equal(status, 0, stderr);
    const agentTools = TOOLTALK_PACK.apps.flatMap((a) => a.tools).sort();
    const written = readdirSync(out)
      .filter((f) => f.endsWith(".creation.json"))
      .map((f) => f.replace(".creation.json", ""))
      .sort();
    assert.deepEqual(written, agentTools, "every tool of the pack, each with a result file");
    for (const tool of agentTools) {
      const r = result(out, tool);
      assert.deepEqual(
        failed(r),
        [],
        `${tool}: ${r.cases
          .filter((c) => !c.pass)
          .map((c) => `${c.label}: ${c.reason}`)
          .join("; ")}`,
      );
      assert.ok(r.total >= 3, `${tool} has at least 3 cases`);
      assert.equal(r.failure, null);
      assert.equal(r.model_calls.length, 1, "one model call, with its telemetry");
    }
    const summary = JSON.parse(readFileSync(join(out, "creation-summary.json"), "utf8"));
    assert.equal(summary.pack, "tooltalk");
    const all = summary.apps.at(-1);
    assert.deepEqual([all.app, all.tools, all.tools_passed], ["all", 28, 28]);
    assert.equal(all.passed, all.total);
    assert.deepEqual(
      summary.apps.slice(0, -1).map((a: { app: string }) => a.app),
      TOOLTALK_PACK.apps.map((a) => a.name),
    );
    const printed = lines(stdout);
    assert.match(printed.find((l) => l.startsWith("UserLogin")) ?? "", /Account\s+5\/5\s+100\.0%/);
    assert.match(printed.find((l) => l.startsWith("all")) ?? "", /all\s+28\/28\s+\d+\/\d+\s+100\.0%/);
    // The prompt: the pack's rules (the session in world), whether the tool needs a login, the
    // SESSION table, and a demonstration whose world holds the session.
    const login = result(out, "UserLogin");
    assert.match(login.prompt[0]?.content ?? "", /world\["SESSION"\]` holds one row: who is logged in/);
    const user = login.prompt[1]?.content ?? "";
    assert.match(user, /^Needs a login: no$/m);
    assert.match(user, /^- SESSION: /m);
    assert.match(user, /"SESSION":\[\{"username":null,"session_token":null\}\]/);
    assert.match(result(out, "AddAlarm").prompt[1]?.content ?? "", /^Needs a login: yes$/m);
  });

  it("buggy Python fails exactly the cases its bug touches", async () => {
    const { status, stderr, out } = await createTools(buggyUrl, [
      "--tools",
      "UserLogin,LogoutUser,FindAlarms,CreateEvent,CompleteReminder",
    ]);
    assert.equal(status, 0, stderr);
    // Never checks the session: logs ben in over ana's login.
    assert.deepEqual(failed(result(out, "UserLogin")), ["someone is already logged in"]);
    assert.match(result(out, "UserLogin").cases[1]!.reason, /^returned .* where ours raises ToolExecutor$/);
    // Clears the account's token, not the session.
    assert.deepEqual(failed(result(out, "LogoutUser")), ["the user logs out"]);
    assert.equal(result(out, "LogoutUser").cases[0]!.reason, 'world["SESSION"] after the call differs from ours');
    // An exclusive start bound.
    assert.deepEqual(failed(result(out, "FindAlarms")), ["from 21:15 on, the bound included"]);
    // The user not added to a meeting's attendees.
    assert.deepEqual(failed(result(out, "CreateEvent")), ["a meeting: the user joins its attendees"]);
    assert.match(result(out, "CreateEvent").cases[1]!.reason, /world\["CALENDAR"\] after the call differs/);
    // "not found" where ToolTalk's lookup fails with a KeyError.
    assert.deepEqual(failed(result(out, "CompleteReminder")), ["a user who never had reminders"]);
    assert.equal(result(out, "CompleteReminder").cases[3]!.reason, "raised APIException where ours raises KeyError");
  });
});

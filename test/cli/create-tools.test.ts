// `toolsandbox create-tools` from a clean build (dist/cli.js, dist/creation-sandbox.cjs,
// dist/pyodide/), its model played by mock-llm over HTTP with our Python files as answers.
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { startMockLlm, type MockLlm } from "../../engine/mock-llm/server.js";
import { requireBuild, lines, removeTempDirs, runCli, runCliAsync, tempDir } from "./harness.js";

const FIXTURES = "test/fixtures/tool-creation";
let mock: MockLlm;

function answers(): Map<string, string> {
  const read = (folder: string): [string, string][] =>
    readdirSync(join(FIXTURES, folder)).map((f) => [f.replace(/\.py$/, ""), readFileSync(join(FIXTURES, folder, f), "utf8")]);
  // Correct everywhere but set_wifi_status (no low-battery check) and get_current_timestamp (spins).
  return new Map([
    ...read("correct"),
    ["set_wifi_status", readFileSync(join(FIXTURES, "buggy/set_wifi_status.py"), "utf8")],
    ["get_current_timestamp", readFileSync(join(FIXTURES, "malicious/get_current_timestamp.py"), "utf8")],
  ]);
}

before(async () => {
  requireBuild();
  mock = await startMockLlm({ scenarios: [], codeAnswers: answers() });
});
after(async () => {
  await mock.close();
  removeTempDirs();
});

describe("create-tools", () => {
  it("writes a result per tool and the summary, and prints the pass rates per tool and per app", async () => {
    const out = tempDir("create-tools");
    const tools = "get_wifi_status,set_wifi_status,add_contact,get_current_timestamp";
    const {
      status: code,
      stdout,
      stderr,
    } = await runCliAsync([
      "create-tools",
      "--tools",
      tools,
      "--agent",
      "openai:coder",
      "--base-url",
      `${mock.url}/v1`,
      "--call-timeout",
      "2",
      "--out",
      out,
    ]);
    assert.equal(code, 0, stderr);
    const printed = lines(stdout);
    assert.match(printed.find((l) => l.startsWith("get_wifi_status")) ?? "", /Settings\s+2\/2\s+100\.0%/);
    assert.match(printed.find((l) => l.startsWith("set_wifi_status")) ?? "", /Settings\s+5\/6\s+83\.3%/);
    assert.match(
      printed.find((l) => l.startsWith("get_current_timestamp")) ?? "",
      /Clock\s+0\/1\s+0\.0%\s+killed: a call took longer than 2 s/,
    );
    assert.match(printed.find((l) => l.startsWith("Settings")) ?? "", /Settings\s+1\/2\s+7\/8\s+87\.5%/);
    assert.match(printed.find((l) => l.startsWith("all")) ?? "", /all\s+2\/4\s+13\/15\s+86\.7%/);
    const wifi = JSON.parse(readFileSync(join(out, "set_wifi_status.creation.json"), "utf8"));
    assert.equal(wifi.format, "toolsandbox-tool-creation/1");
    assert.equal(wifi.prompt[0].content.split("\n")[0], "Task: tool creation.");
    assert.match(wifi.code, /def set_wifi_status/);
    assert.equal(wifi.model_calls.length, 1);
    assert.deepEqual(
      wifi.cases.filter((c: { pass: boolean }) => !c.pass).map((c: { label: string; reason: string }) => [c.label, c.reason]),
      [["turn it on in low battery mode", "returned null where ours raises PermissionError"]],
    );
    const summary = JSON.parse(readFileSync(join(out, "creation-summary.json"), "utf8"));
    assert.deepEqual(summary.apps.at(-1), { app: "all", tools: 4, tools_passed: 2, passed: 13, total: 15 });
  });

  it("refuses a scripted agent and an unknown tool with one line each", () => {
    const out = tempDir("create-tools-usage");
    const scripted = runCli(["create-tools", "--agent", "scripted", "--out", out]);
    assert.equal(scripted.status, 2);
    assert.deepEqual(lines(scripted.stderr), ["toolsandbox: create-tools needs a model: --agent openai:<model>"]);
    const unknown = runCli([
      "create-tools",
      "--agent",
      "openai:x",
      "--base-url",
      "http://127.0.0.1:9/v1",
      "--tools",
      "no_such_tool",
      "--out",
      out,
    ]);
    assert.equal(unknown.status, 2);
    assert.match(unknown.stderr, /^toolsandbox: no tool-creation cases for no_such_tool in pack toolsandbox/);
  });
});

// The cases (our tools as the oracle), the pass rule, and the prompt's input and reading of replies.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { CASE_NEW_IDS, generateCases, type ToolCase } from "../../../../engine/benchmarks/dialogtool/creation/cases.js";
import { jsonEqual, judgeCase } from "../../../../engine/benchmarks/dialogtool/creation/case-verdicts.js";
import { CREATION_PACKS } from "../../../../engine/benchmarks/dialogtool/creation/packs.js";
import { codeOfReply, creationMessages, TOOL_CREATION_MARKER } from "../../../../engine/benchmarks/dialogtool/creation/prompt.js";
import { firstNewIds, TOOLTALK_PACK } from "../../../../engine/packs/tooltalk/index.js";

const pack = CREATION_PACKS.get("toolsandbox")!;
const casesOf = (tool: string): ToolCase[] => generateCases(pack.toolByName(tool)!, pack.specs.find((s) => s.tool === tool)!, pack.world);

describe("tool-creation cases", () => {
  it("cover at least 10 tools, each with a valid call to show, and the same bytes every time", () => {
    assert.ok(pack.specs.length >= 10);
    for (const spec of pack.specs) {
      const cases = casesOf(spec.tool);
      assert.ok(
        cases.some((c) => c.kind === "valid" && c.expected.kind === "returned"),
        `${spec.tool} has a valid case`,
      );
      assert.equal(JSON.stringify(cases), JSON.stringify(casesOf(spec.tool)));
    }
  });

  it("take their expected outcomes from our tools, state included", () => {
    const [, , , lowBattery] = casesOf("set_wifi_status");
    assert.deepEqual(lowBattery?.expected, {
      kind: "raised",
      exception: "PermissionError",
      message: "Wifi cannot be turned on in low battery mode",
    });
    const [added] = casesOf("add_contact");
    assert.equal(added?.expected.kind === "returned" && added.expected.result, CASE_NEW_IDS[0]);
    const world = added?.expected.kind === "returned" ? added.expected.world : {};
    assert.deepEqual(world.new_ids, CASE_NEW_IDS.slice(1), "the id the tool drew is gone from new_ids");
    const unknown = casesOf("remove_contact")[1];
    assert.equal(unknown?.expected.kind === "raised" && unknown.expected.exception, "NoDataError", "polars' dotted name, last part");
  });
});

describe("the pass rule", () => {
  const [wifiOff, , , lowBattery] = casesOf("set_wifi_status") as [ToolCase, ToolCase, ToolCase, ToolCase];
  const after = wifiOff.expected.kind === "returned" ? wifiOff.expected.world : {};

  it("compares JSON values: keys in any order, numbers to 1e-9, booleans never numbers", () => {
    assert.ok(jsonEqual({ a: 1, b: [1, 2] }, { b: [1, 2], a: 1 }));
    assert.ok(jsonEqual(0.1 + 0.2, 0.3));
    assert.ok(!jsonEqual([1, 2], [2, 1]));
    assert.ok(!jsonEqual(true, 1));
    assert.ok(!jsonEqual({ a: null }, {}));
  });

  it("passes a same result and world, a same exception class; fails anything else with a reason", () => {
    assert.equal(judgeCase(wifiOff, { kind: "returned", result: null, world: after }).pass, true);
    assert.equal(
      judgeCase(wifiOff, { kind: "returned", result: null, world: wifiOff.world }).reason,
      'world["SETTING"] after the call differs from ours',
    );
    assert.equal(judgeCase(wifiOff, { kind: "returned", result: false, world: after }).reason, "returned false where ours returns null");
    assert.equal(judgeCase(lowBattery, { kind: "raised", exception: "PermissionError", message: "another text" }).pass, true);
    assert.equal(
      judgeCase(lowBattery, { kind: "raised", exception: "ValueError", message: "" }).reason,
      "raised ValueError where ours raises PermissionError",
    );
    assert.equal(
      judgeCase(lowBattery, { kind: "not_run", reason: "killed: a call took longer than 5 s" }).reason,
      "killed: a call took longer than 5 s",
    );
  });
});

describe("the prompt", () => {
  it("gives the description, arguments, returns, errors, tables and one demonstration", () => {
    const tool = pack.toolByName("send_message_with_phone_number")!;
    const example = casesOf(tool.name)[0]!;
    const [system, user] = creationMessages({ tool, tables: ["SETTING", "CONTACT", "MESSAGING"], schemas: pack.world.schemas, example });
    assert.equal(String(system?.content).split("\n")[0], TOOL_CREATION_MARKER);
    const text = String(user?.content);
    for (const part of [
      "Tool name: send_message_with_phone_number",
      "- phone_number (string, required)",
      "ConnectionError: Cellular service is not enabled",
      "- MESSAGING:",
      `send_message_with_phone_number(world, **${JSON.stringify(example.arguments)})`,
    ])
      assert.ok(text.includes(part), `the prompt has ${part}`);
  });

  it("takes the first python block of a reply, else the first block", () => {
    assert.equal(codeOfReply("Sure:\n```text\nno\n```\n```python\ndef f(world):\n    return 1\n```"), "def f(world):\n    return 1\n");
    assert.equal(codeOfReply("```\ndef g(world): pass\n```"), "def g(world): pass\n");
    assert.equal(codeOfReply("def f(world): return 1"), null);
  });
});

describe("ToolTalk's cases", () => {
  const tooltalk = CREATION_PACKS.get("tooltalk")!;
  const of = (tool: string): ToolCase[] =>
    generateCases(tooltalk.toolByName(tool)!, tooltalk.specs.find((s) => s.tool === tool)!, tooltalk.world);

  it("cover every agent tool of the pack, each with a valid call, the same bytes every time", () => {
    const tools = TOOLTALK_PACK.apps.flatMap((a) => a.tools);
    assert.deepEqual(tooltalk.specs.map((s) => s.tool).sort(), [...tools].sort());
    for (const tool of tools) {
      const cases = of(tool);
      assert.ok(
        cases.some((c) => c.kind === "valid" && c.expected.kind === "returned"),
        `${tool} has a valid case`,
      );
      assert.equal(JSON.stringify(cases), JSON.stringify(of(tool)));
    }
  });

  it("carry the session in world and take outcomes from the pack's runtime: login rules, session updates, its own ids", () => {
    const [login, already] = of("UserLogin");
    const [token, ...rest] = firstNewIds("UserLogin", 3);
    assert.deepEqual(login?.world.SESSION, [{ username: null, session_token: null }]);
    assert.deepEqual(login?.world.new_ids, [token, ...rest]);
    assert.ok(login?.expected.kind === "returned");
    assert.deepEqual(login.expected.result, { session_token: token });
    assert.deepEqual(login.expected.world.SESSION, [{ username: "ben", session_token: token }], "the session is the new login");
    assert.deepEqual(login.expected.world.new_ids, rest, "the token is gone from new_ids");
    assert.deepEqual(already?.expected, {
      kind: "raised",
      exception: "ToolExecutor",
      message: "Only one user can be logged in at a time. Current user is ana.",
    });
    const nobody = of("GetReminders").find((c) => c.label === "nobody is logged in");
    assert.equal(nobody?.expected.kind === "raised" && nobody.expected.exception, "ToolExecutor");
    const keyError = of("DeleteReminder").find((c) => c.label === "a user who never had reminders");
    assert.equal(keyError?.expected.kind === "raised" && keyError.expected.exception, "KeyError");
    assert.deepEqual(of("CurrentWeather")[0]?.world.new_ids, [], "a tool that makes no id is shown none");
  });

  it("tell the model the pack's rules and whether the tool needs a login", () => {
    const tool = tooltalk.toolByName("DeleteAlarm")!;
    const [system, user] = creationMessages({
      tool,
      tables: ["SESSION", "ACCOUNT", "ALARM"],
      schemas: tooltalk.world.schemas,
      example: of("DeleteAlarm")[0]!,
      ...(tooltalk.rules === undefined ? {} : { rules: tooltalk.rules }),
      notes: tooltalk.toolNotes?.(tool) ?? [],
    });
    assert.match(String(system?.content), /raises `ToolExecutor\("User is not logged in"\)`/);
    assert.match(String(user?.content), /^Tool name: DeleteAlarm\nNeeds a login: yes$/m);
  });
});

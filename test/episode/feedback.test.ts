// What the agent is told about a call the tools cannot take: the engine's Python-style errors by
// default, ToolScan's feedback texts with `options.feedback: toolscan`. Every case goes through a
// real episode: the agent's call, the environment's answer, the world and the agent's next request.
import { test } from "node:test";
import assert from "node:assert/strict";
import { toolScanMetrics } from "../../engine/benchmarks/peers.js";
import { callableTools } from "../../engine/episode/tool-calls.js";
import type { ToolCall } from "../../engine/episode/types.js";
import type { AgentTurn } from "../../engine/episode/role.js";
import type { Scenario, ScenarioOptions } from "../../engine/scenario/model.js";
import { buildScenario } from "./fixtures.js";
import { played, queuedRoles, runScenario, settingAt } from "./harness.js";

const allow = ["set_wifi_status", "get_wifi_status", "add_reminder"];

function scenarioWith(options: Partial<ScenarioOptions>): Scenario {
  const base = buildScenario({ allow });
  return { ...base, options: { ...base.options, ...options } };
}

interface Case {
  readonly what: string;
  readonly call: ToolCall;
  readonly engine: string;
  readonly toolscan: string;
}

const CASES: readonly Case[] = [
  {
    what: "an unknown tool",
    call: { id: "c1", name: "fly_to_moon", arguments: {} },
    engine:
      "KeyError: \"Agent tool call agent_facing_tool_name='fly_to_moon' is not a known allowed tool. Options are available_tool_names=['get_wifi_status', 'add_reminder', 'set_wifi_status']\"",
    toolscan:
      "ERROR | Incorrect function name fly_to_moon please refer to the list of function calls available ['get_wifi_status', 'add_reminder', 'set_wifi_status']",
  },
  {
    what: "an unknown argument",
    call: { id: "c2", name: "set_wifi_status", arguments: { on: false, quickly: true } },
    engine: "TypeError: got an unexpected keyword argument 'quickly'",
    toolscan: "ERROR | Incorrect argument name quickly for function set_wifi_status, Valid arguments are ['on']",
  },
  {
    what: "an argument to a tool that takes none",
    call: { id: "c3", name: "get_wifi_status", arguments: { verbose: true } },
    engine: "TypeError: got an unexpected keyword argument 'verbose'",
    toolscan: "ERROR | Incorrect argument name verbose for function get_wifi_status, this function does not require any arguments.",
  },
  {
    what: "a missing required argument",
    call: { id: "c4", name: "add_reminder", arguments: { content: "Buy milk" } },
    engine: "TypeError: missing a required argument: 'reminder_timestamp'",
    toolscan: "ERROR | Insufficient required arguments for function add_reminder, Please add the required argument ['reminder_timestamp']",
  },
  {
    what: "an argument of the wrong type",
    call: { id: "c5", name: "set_wifi_status", arguments: { on: "off" } },
    engine: "TypeError: Parameter 'on' is of type '<class 'str'>', but expected '<class 'bool'>'.",
    toolscan: "ERROR | Incorrect argument type for on for function set_wifi_status, Valid argument type is <class 'bool'>",
  },
  {
    what: "two arguments of the wrong type (one message each, run together)",
    call: { id: "c6", name: "add_reminder", arguments: { content: 3, reminder_timestamp: "soon", latitude: null } },
    engine: "TypeError: Parameter 'content' is of type '<class 'int'>', but expected '<class 'str'>'.",
    toolscan:
      "ERROR | Incorrect argument type for content for function add_reminder, Valid argument type is <class 'str'>" +
      "ERROR | Incorrect argument type for reminder_timestamp for function add_reminder, Valid argument type is (<class 'int'>, <class 'float'>, <class 'complex'>)",
  },
  {
    // ToolScan reports unknown names before missing ones, the engine (Python's binding) the other way round.
    what: "an unknown argument and a missing one",
    call: { id: "c7", name: "add_reminder", arguments: { text: "Buy milk" } },
    engine: "TypeError: missing a required argument: 'content'",
    toolscan:
      "ERROR | Incorrect argument name text for function add_reminder, Valid arguments are ['content', 'reminder_timestamp', 'latitude', 'longitude']",
  },
];

const VALID: ToolCall = { id: "ok", name: "set_wifi_status", arguments: { on: false } };

/** Every case in turn, then a valid call, then a closing text; the answers the agent got, in order. */
async function play(scenario: Scenario, calls: readonly ToolCall[]) {
  const turns: AgentTurn[] = [...calls.map((call): AgentTurn => ({ kind: "calls", calls: [call] })), { kind: "text", text: "Done." }];
  const roles = queuedRoles(turns);
  const { episode } = await runScenario(scenario, { agent: roles.agent, user: roles.user });
  const answers = played(episode).filter((m) => m.sender === "execution_environment" && m.recipient === "agent");
  return { episode, answers, agentRequests: roles.agentRequests };
}

for (const style of ["engine", "toolscan"] as const) {
  test(`${style} feedback: each invalid call is answered with ${style === "engine" ? "the engine's error" : "ToolScan's text"} and changes nothing`, async () => {
    const scenario = scenarioWith(style === "toolscan" ? { feedback: "toolscan" } : {});
    const { episode, answers, agentRequests } = await play(scenario, [...CASES.map((c) => c.call), VALID]);
    assert.equal(answers.length, CASES.length + 1);
    CASES.forEach((c, i) => {
      const answer = answers[i]!;
      assert.equal(answer.content, c[style], c.what);
      assert.equal(answer.tool_call_exception, c[style], c.what);
      assert.equal(answer.openai_tool_call_id, c.call.id);
      assert.equal(answer.tool_trace, null);
      // The agent reads the answer in its next request.
      assert.equal(agentRequests[i + 1]!.messages.at(-1)!.content, c[style], c.what);
      assert.equal(settingAt(episode, answer.sandbox_message_index).wifi, true, `${c.what} did not run`);
    });
    const ran = answers.at(-1)!;
    assert.equal(ran.content, "None");
    assert.equal(ran.tool_call_exception, null);
    assert.equal(settingAt(episode, ran.sandbox_message_index).wifi, false);
    assert.deepEqual(episode.ended, { reason: "end_conversation" });
  });
}

test("toolscan feedback: arguments that are not a JSON object keep the engine's ValueError", async () => {
  const { answers } = await play(scenarioWith({ feedback: "toolscan" }), [
    { id: "c1", name: "set_wifi_status", raw_arguments: '{"on": fals' },
  ]);
  assert.equal(answers[0]!.content, "ValueError: Tool call arguments are not a valid JSON object: '{\"on\": fals'");
});

test("toolscan feedback: the text is the one the peer metrics' ToolScan validator gives the same call", async () => {
  const scenario = scenarioWith({ feedback: "toolscan" });
  const { episode, answers } = await play(scenario, [...CASES.map((c) => c.call), VALID]);
  const offered = [...callableTools(scenario, "agent").keys()];
  const tagged = toolScanMetrics(scenario, episode.messages, offered).calls;
  assert.deepEqual(
    tagged.map((c) => c.feedback),
    [...answers.slice(0, -1).map((a) => a.content), null],
  );
  assert.deepEqual(
    tagged.map((c) => c.tags),
    [["IFN"], ["IAN"], ["IAN"], ["IAN"], ["IAT"], ["IAT"], ["IAN"], []],
  );
});

test("toolscan feedback with scrambled tool names names only what the agent sees", async () => {
  const scenario = scenarioWith({ feedback: "toolscan", augmentations: ["tool_name_scrambled"] });
  const { episode, answers } = await play(scenario, [
    { id: "c1", name: "set_wifi_status", arguments: { on: false } },
    { id: "c2", name: "setting_8", arguments: { on: "off" } },
    { id: "c3", name: "setting_8", arguments: { on: false } },
  ]);
  assert.deepEqual(
    answers.map((a) => a.content),
    [
      "ERROR | Incorrect function name set_wifi_status please refer to the list of function calls available ['setting_4', 'reminder_0', 'setting_8']",
      "ERROR | Incorrect argument type for on for function setting_8, Valid argument type is <class 'bool'>",
      "None",
    ],
  );
  assert.equal(settingAt(episode, answers[2]!.sandbox_message_index).wifi, false);
});

test("toolscan feedback leaves the user's end_conversation and `invalid_tool_call: end` as they are", async () => {
  const { episode, answers } = await play(scenarioWith({ feedback: "toolscan", invalid_tool_call: "end" }), [CASES[0]!.call]);
  // Upstream's crash on an unknown tool comes first: the episode ends before any answer.
  assert.equal(answers.length, 0);
  assert.equal(episode.ended?.reason, "invalid_tool_call");

  const { episode: recovered, answers: argument } = await play(scenarioWith({ feedback: "toolscan", invalid_tool_call: "end" }), [
    CASES[1]!.call,
  ]);
  // Argument errors never ended an episode upstream: the agent is told, in ToolScan's words.
  assert.equal(argument[0]!.content, CASES[1]!.toolscan);
  assert.deepEqual(recovered.ended, { reason: "end_conversation" });
});

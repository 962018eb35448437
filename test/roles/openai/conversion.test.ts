import { test } from "node:test";
import { packById } from "../../../engine/packs/registry.js";
import assert from "node:assert/strict";
import OpenAI from "openai";
import type { Message, RoleName, ToolCall } from "../../../engine/episode/types.js";
import { toolsFor } from "../../../engine/episode/tool-calls.js";
import { busMessage } from "../../episode/fixtures.js";
import { OpenAiAgent } from "../../../engine/roles/openai/agent.js";
import { toAgentMessages } from "../../../engine/roles/openai/agent-messages.js";
import { describeModelFailure } from "../../../engine/roles/openai/failures.js";
import { pythonJsonDumps } from "../../../engine/roles/openai/python-json.js";
import { readAssistantMessage } from "../../../engine/roles/openai/response.js";
import { modelSettings } from "../../../engine/roles/openai/settings.js";
import { toUserSimulatorMessages, userSimulatorTools } from "../../../engine/roles/openai/user-messages.js";
import { RoleError } from "../../../engine/episode/role.js";
import { toolByName } from "../../../engine/packs/toolsandbox/tools/catalog.js";
import { openAiToolSchema } from "../../../engine/tools/openai-schema.js";
import { buildScenario } from "../../episode/fixtures.js";

let index = 0;
function message(sender: RoleName, recipient: RoleName, content: string, extra: Partial<Message> = {}): Message {
  return busMessage(index++, sender, recipient, content, extra);
}

const request = (call: ToolCall): Message =>
  message("agent", "execution_environment", "code", { tool_call: call, openai_tool_call_id: call.id, openai_function_name: call.name });
const result = (id: string, name: string, content: string): Message =>
  message("execution_environment", "agent", content, { openai_tool_call_id: id, openai_function_name: name });

const TOOLSANDBOX = packById("toolsandbox");

test("the agent's history: parallel calls become one assistant message, each result a tool message", () => {
  const messages = [
    message("system", "agent", "Be careful."),
    message("user", "agent", "Text Maya and switch wifi off."),
    request({ id: "a", name: "search_contacts", arguments: { name: "Maya" }, raw_arguments: '{"name":"Maya"}' }),
    request({ id: "b", name: "set_wifi_status", arguments: { on: false } }),
    result("b", "set_wifi_status", "None"),
    result("a", "search_contacts", "[]"),
    message("agent", "user", "I found no Maya."),
    message("user", "agent", "Try Mája."),
    request({ id: "c", name: "contact_3", arguments: { name: "Mája", limit: 1.5, tags: [true, null] } }),
    result("c", "contact_3", "[]"),
  ];
  assert.deepEqual(toAgentMessages(messages), [
    { role: "system", content: "Be careful." },
    { role: "user", content: "Text Maya and switch wifi off." },
    {
      role: "assistant",
      content: null,
      tool_calls: [
        // Re-serialised as Python's json.dumps writes them, not as the model sent them.
        { id: "a", type: "function", function: { name: "search_contacts", arguments: '{"name": "Maya"}' } },
        { id: "b", type: "function", function: { name: "set_wifi_status", arguments: '{"on": false}' } },
      ],
    },
    { role: "tool", tool_call_id: "b", name: "set_wifi_status", content: "None" },
    { role: "tool", tool_call_id: "a", name: "search_contacts", content: "[]" },
    { role: "assistant", content: "I found no Maya." },
    { role: "user", content: "Try Mája." },
    {
      role: "assistant",
      content: null,
      // The agent-facing (scrambled) name stays; non-ASCII is escaped as Python does.
      tool_calls: [
        {
          id: "c",
          type: "function",
          function: { name: "contact_3", arguments: '{"name": "M\\u00e1ja", "limit": 1.5, "tags": [true, null]}' },
        },
      ],
    },
    { role: "tool", tool_call_id: "c", name: "contact_3", content: "[]" },
  ]);
});

test("a call whose arguments never parsed is shown to the agent as it was written", () => {
  const [, assistant] = toAgentMessages([
    message("user", "agent", "hi"),
    request({ id: "x", name: "set_wifi_status", raw_arguments: '{"on": tru' }),
    result("x", "set_wifi_status", "ValueError: ..."),
  ]);
  assert.deepEqual(assistant, {
    role: "assistant",
    content: null,
    tool_calls: [{ id: "x", type: "function", function: { name: "set_wifi_status", arguments: '{"on": tru' } }],
  });
});

test("messages the agent cannot be shown are a role error, not a silent gap", () => {
  assert.throws(
    () => toAgentMessages([message("system", "user", "secret instruction")]),
    (e: unknown) => e instanceof RoleError && /system->user/.test(e.message),
  );
});

test("the user simulator's history has the roles reversed and leaves out end_conversation traffic", () => {
  const messages = [
    message("system", "user", "Instruction + demo goal", { visible_to: ["user"] }),
    message("user", "agent", "demo: I need to text someone.", { visible_to: ["user"] }),
    message("agent", "user", "demo: Who?", { visible_to: ["user"] }),
    message("user", "execution_environment", "end_conversation()", { visible_to: ["user"] }),
    message("execution_environment", "user", "None", { visible_to: ["user"] }),
    message("system", "user", "Instruction + real goal"),
    message("user", "agent", "Turn my wifi off."),
    message("agent", "user", "Done. Anything else?"),
  ];
  assert.deepEqual(toUserSimulatorMessages(messages), [
    { role: "system", content: "Instruction + demo goal" },
    { role: "assistant", content: "demo: I need to text someone." },
    { role: "user", content: "demo: Who?" },
    { role: "system", content: "Instruction + real goal" },
    { role: "assistant", content: "Turn my wifi off." },
    { role: "user", content: "Done. Anything else?" },
  ]);
});

test("end_conversation is the simulator's only tool, and only right after the agent spoke", () => {
  const end = openAiToolSchema(toolByName("end_conversation")!);
  assert.deepEqual(userSimulatorTools([message("system", "user", "x"), message("agent", "user", "Done.")], TOOLSANDBOX), [end]);
  assert.deepEqual(userSimulatorTools([message("system", "user", "x")], TOOLSANDBOX), []);
  assert.deepEqual(userSimulatorTools([message("agent", "user", "Done."), message("user", "agent", "Thanks")], TOOLSANDBOX), []);
  assert.deepEqual(userSimulatorTools([], TOOLSANDBOX), []);
});

test("Python json.dumps formatting: separators, ensure_ascii, nesting", () => {
  assert.equal(
    pythonJsonDumps({ a: [1, 2.5, "x"], b: { "c d": null }, e: "😀 \n é" }),
    '{"a": [1, 2.5, "x"], "b": {"c d": null}, "e": "\\ud83d\\ude00 \\n \\u00e9"}',
  );
  assert.equal(pythonJsonDumps([]), "[]");
  assert.equal(pythonJsonDumps({}), "{}");
});

test("a model answer is checked before it is used", () => {
  assert.deepEqual(readAssistantMessage({ choices: [{ message: { content: "Hi", tool_calls: null } }] }), {
    ok: true,
    message: { content: "Hi", toolCalls: [] },
  });
  assert.deepEqual(
    readAssistantMessage({
      choices: [{ message: { content: null, tool_calls: [{ id: "1", type: "function", function: { name: "f", arguments: { a: 1 } } }] } }],
    }),
    { ok: true, message: { content: null, toolCalls: [{ id: "1", name: "f", arguments: '{"a":1}' }] } },
  );
  assert.deepEqual(readAssistantMessage({ choices: [] }), { ok: false, problem: "a chat completion without choices" });
  assert.deepEqual(readAssistantMessage("<html>"), { ok: false, problem: "something that is not a chat completion" });
  assert.deepEqual(readAssistantMessage({ choices: [{ message: { tool_calls: [{ id: "1", function: { arguments: "{}" } }] } }] }), {
    ok: false,
    problem: "tool call 1 without a function name",
  });
});

test("a failed call's description names the status and the attempts, never the key", () => {
  const key = "sk-live-SECRET-1234567890";
  const settings = modelSettings("gpt-x", { base_url: "http://127.0.0.1:9/v1", timeout_seconds: 5 });
  const unauthorized = OpenAI.APIError.generate(
    401,
    { error: { message: `Incorrect API key provided: ${key}.` } },
    undefined,
    new Headers(),
  );
  const text = describeModelFailure(unauthorized, { settings, attempts: 1, apiKey: key });
  assert.equal(text, "HTTP 401 from http://127.0.0.1:9/v1 after 1 attempt: Incorrect API key provided: [redacted].");
  assert.equal(
    describeModelFailure(new OpenAI.APIConnectionTimeoutError(), { settings, attempts: 3, apiKey: key }),
    "no answer from http://127.0.0.1:9/v1 within 5 s (3 attempts)",
  );
});

test("the agent's turn from a model answer: raw text kept, blank arguments as none, missing ids numbered, text beside calls dropped", async () => {
  const answer = {
    id: "r",
    object: "chat.completion",
    created: 0,
    model: "m",
    choices: [
      {
        index: 0,
        finish_reason: "tool_calls",
        message: {
          role: "assistant",
          content: "Let me check.",
          tool_calls: [
            { id: "", type: "function", function: { name: "get_wifi_status", arguments: "" } },
            { id: "b", type: "function", function: { name: "set_wifi_status", arguments: '{"on": tru' } },
            { id: "c", type: "function", function: { name: "set_wifi_status", arguments: "[1]" } },
          ],
        },
      },
    ],
  };
  const fakeFetch: typeof fetch = async () =>
    new Response(JSON.stringify(answer), { status: 200, headers: { "content-type": "application/json" } });
  const agent = new OpenAiAgent({ settings: modelSettings("m", { base_url: "http://127.0.0.1:9/v1" }), apiKey: "k", fetch: fakeFetch });
  const scenario = buildScenario({ allow: ["get_wifi_status", "set_wifi_status"] });
  const turn = await agent.respond({ messages: [message("user", "agent", "hi")], tools: toolsFor(scenario, "agent"), scenario });
  assert.deepEqual(turn, {
    kind: "calls",
    calls: [
      { id: "call_1", name: "get_wifi_status", raw_arguments: "", arguments: {} },
      { id: "b", name: "set_wifi_status", raw_arguments: '{"on": tru' },
      { id: "c", name: "set_wifi_status", raw_arguments: "[1]" },
    ],
  });
});

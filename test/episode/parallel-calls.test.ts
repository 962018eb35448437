import { test } from "node:test";
import assert from "node:assert/strict";
import type { RowChange } from "../../engine/world/types.js";
import { agentSays, buildScenario, call, calls, endConversation } from "./fixtures.js";
import { played, routes, runScenario, settingAt } from "./harness.js";

const holiday = call("call_1", "search_holiday", { holiday_name: "Christmas", year: 2024 });
const wifiOff = call("call_2", "set_wifi_status", { on: false });

test("calls that only work in one order fail: the failing ordering's responses and world win", async () => {
  // In the given order the holiday search runs while wifi is still on; swapped, it fails.
  const scenario = buildScenario({ reference: [calls(holiday, wifiOff), agentSays("Done."), endConversation] });
  const { episode } = await runScenario(scenario);
  const m = played(episode);
  assert.deepEqual(routes(m.slice(0, 4)), [
    "agent>execution_environment",
    "agent>execution_environment",
    "execution_environment>agent",
    "execution_environment>agent",
  ]);
  assert.deepEqual(
    m.slice(0, 2).map((x) => x.openai_tool_call_id),
    ["call_1", "call_2"],
    "requests keep the agent's order",
  );
  const [first, second] = m.slice(2, 4);
  assert.equal(first!.openai_tool_call_id, "call_2", "responses follow the failing ordering");
  assert.equal(first!.content, "None");
  assert.equal(first!.tool_trace![0]!.tool_name, "set_wifi_status");
  assert.equal(second!.openai_tool_call_id, "call_1");
  assert.equal(second!.openai_function_name, "search_holiday");
  assert.equal(second!.content, "ConnectionError: Wifi is not enabled");
  assert.equal(second!.tool_trace, null);
  assert.equal(settingAt(episode, first!.sandbox_message_index).wifi, false);
  assert.equal(settingAt(episode, first!.sandbox_message_index - 1).wifi, true);
});

test("when the original order already fails, its responses come back in that order", async () => {
  const scenario = buildScenario({ reference: [calls(wifiOff, holiday), agentSays("Done."), endConversation] });
  const { episode } = await runScenario(scenario);
  const [, , first, second] = played(episode);
  assert.deepEqual([first!.openai_tool_call_id, second!.openai_tool_call_id], ["call_2", "call_1"]);
  assert.equal(second!.content, "ConnectionError: Wifi is not enabled");
  assert.equal(settingAt(episode, first!.sandbox_message_index).wifi, false);
});

test("independent calls keep the original order, world changes and ids", async () => {
  const contact = call("call_a", "add_contact", { name: "Lars Ulrich", phone_number: "+15550100" });
  const reminder = call("call_b", "add_reminder", { content: "Call Lars", reminder_timestamp: 1_700_100_000 });
  const later = call("call_c", "add_contact", { name: "Kirk Hammett", phone_number: "+15550101" });
  const parallel = await runScenario(
    buildScenario({ reference: [calls(contact, reminder), calls(later), agentSays("Done."), endConversation] }),
  );
  const m = played(parallel.episode);
  assert.deepEqual(
    m.slice(2, 4).map((x) => x.openai_tool_call_id),
    ["call_a", "call_b"],
  );
  assert.ok(m.slice(2, 4).every((x) => x.tool_call_exception === null));
  const worldEvents = parallel.events.filter(
    (e): e is { type: "world"; index: number; changes: readonly RowChange[] } => e.type === "world",
  );
  assert.deepEqual(
    worldEvents[0]!.changes.map((c) => c.table),
    ["CONTACT", "REMINDER"],
  );
  assert.equal(worldEvents[0]!.index, m[2]!.sandbox_message_index);

  // Every ordering starts from the same random state, so the ids are those of running the calls
  // one after the other, and so is every id drawn afterwards.
  const sequential = await runScenario(
    buildScenario({ reference: [calls(contact), calls(reminder), calls(later), agentSays("Done."), endConversation] }),
  );
  const results = (messages: typeof m) =>
    messages.filter((x) => x.sender === "execution_environment" && x.recipient === "agent").map((x) => x.tool_trace![0]!.result);
  assert.deepEqual(results(m), results(played(sequential.episode)));
  assert.equal(new Set(results(m)).size, 3);
});

test("orderings past maxOrderings are not checked", async () => {
  const scenario = buildScenario({ reference: [calls(holiday, wifiOff), agentSays("Done."), endConversation] });
  const { episode } = await runScenario(scenario, { maxOrderings: 1 });
  const [, , first, second] = played(episode);
  assert.deepEqual([first!.openai_tool_call_id, second!.openai_tool_call_id], ["call_1", "call_2"]);
  assert.equal(first!.tool_call_exception, null, "the failing swap was never tried");
});

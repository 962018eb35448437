import { test } from "node:test";
import assert from "node:assert/strict";
import { agentSays, buildScenario, call, calls, endConversation } from "./fixtures.js";
import { played, runScenario, settingAt } from "./harness.js";

test("world changes are recorded at the index of the first response, announced just before it", async () => {
  const scenario = buildScenario({
    reference: [calls(call("call_1", "set_wifi_status", { on: false })), agentSays("Done."), endConversation],
  });
  const { episode, events } = await runScenario(scenario);
  const [request, response] = played(episode);
  assert.equal(request!.sandbox_message_index, 3);
  assert.equal(response!.sandbox_message_index, 4);
  assert.equal(settingAt(episode, 3).wifi, true, "the request itself changes nothing");
  assert.equal(settingAt(episode, 4).wifi, false);
  assert.equal(settingAt(episode, 99).wifi, false);
  assert.deepEqual(
    episode.world.all().map((s) => s.index),
    [0, 4],
  );

  const at = events.findIndex((e) => e.type === "world");
  const worldEvent = events[at]!;
  assert.equal(worldEvent.type === "world" && worldEvent.index, 4);
  const next = events[at + 1]!;
  assert.ok(next.type === "message" && next.message.sandbox_message_index === 4, "the world event comes right before its message");
  assert.equal(events.filter((e) => e.type === "world").length, 1, "calls that change nothing emit no world event");
  if (worldEvent.type !== "world") throw new Error("unreachable");
  assert.deepEqual(
    worldEvent.changes.map((c) => [c.op, c.table]),
    [["update", "SETTING"]],
  );
});

test("a successful call answers with the Python repr of its result and its trace", async () => {
  const scenario = buildScenario({
    reference: [
      calls(call("call_1", "add_contact", { name: "Lars Ulrich", phone_number: "+15550100" })),
      agentSays("Added."),
      endConversation,
    ],
  });
  const { episode } = await runScenario(scenario);
  const response = played(episode)[1]!;
  assert.equal(response.sender, "execution_environment");
  assert.equal(response.recipient, "agent");
  assert.equal(response.tool_call_exception, null);
  const trace = response.tool_trace![0]!;
  assert.equal(response.tool_trace!.length, 1);
  assert.equal(trace.tool_name, "add_contact");
  // Defaults are filled into the trace, as upstream's signature binding does.
  assert.deepEqual(trace.arguments, { name: "Lars Ulrich", phone_number: "+15550100", relationship: null, is_self: false });
  assert.equal(typeof trace.result, "string");
  assert.equal(response.content, `'${String(trace.result)}'`);
  const added = episode.world.at(response.sandbox_message_index).CONTACT!.at(-1)!;
  assert.equal(added.person_id, trace.result);
  assert.equal(added.name, "Lars Ulrich");
});

test("new ids come from the seed: the same seed repeats them, another seed does not", async () => {
  const scenario = buildScenario({
    reference: [
      calls(call("call_1", "add_contact", { name: "Lars Ulrich", phone_number: "+15550100" })),
      agentSays("Added."),
      endConversation,
    ],
  });
  const idFor = async (seed: number): Promise<string> => {
    const { episode } = await runScenario(scenario, { seed });
    return String(played(episode)[1]!.tool_trace![0]!.result);
  };
  assert.equal(await idFor(1), await idFor(1));
  assert.notEqual(await idFor(1), await idFor(2));
});

test("a tool error is shown to the agent as Python's last traceback line, with no trace and no change", async () => {
  const scenario = buildScenario({
    setting: { cellular: false },
    reference: [
      calls(call("call_1", "send_message_with_phone_number", { phone_number: "+12453344098", content: "Hi" })),
      calls(call("call_2", "add_contact", { name: "Lars Ulrich" })),
      agentSays("I could not do it."),
      endConversation,
    ],
  });
  const { episode, events } = await runScenario(scenario);
  const [, cellular, , missing] = played(episode);
  assert.equal(cellular!.content, "ConnectionError: Cellular service is not enabled");
  assert.equal(cellular!.tool_call_exception, "ConnectionError: Cellular service is not enabled");
  assert.equal(cellular!.tool_trace, null);
  assert.equal(cellular!.openai_tool_call_id, "call_1");
  assert.equal(missing!.content, "TypeError: missing a required argument: 'phone_number'");
  assert.equal(missing!.tool_call_exception, missing!.content);
  assert.equal(events.filter((e) => e.type === "world").length, 0);
  assert.equal(episode.world.all().length, 1);
  // The conversation goes on after a tool error.
  assert.deepEqual(episode.ended, { reason: "end_conversation" });
});

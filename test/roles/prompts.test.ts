import { test } from "node:test";
import assert from "node:assert/strict";
import {
  DEFAULT_AGENT_SYSTEM_PROMPT,
  NEVER_REVEAL_NOTE,
  USER_INSTRUCTION,
  renderUserSystemMessage,
} from "../../engine/scenario/prompts/prompts.js";
import { BUILTIN_DEMONSTRATIONS, DEFAULT_DEMONSTRATIONS } from "../../engine/scenario/prompts/demonstrations.js";

test("the agent system prompt asks not to guess argument values and to ask when unclear, in our own words", () => {
  assert.match(DEFAULT_AGENT_SYSTEM_PROMPT, /guess the values/);
  assert.match(DEFAULT_AGENT_SYSTEM_PROMPT, /ask them/);
  assert.doesNotMatch(DEFAULT_AGENT_SYSTEM_PROMPT, /plug into functions/);
});

test("every built-in demonstration ends with the simulated user calling end_conversation, as upstream's do", () => {
  for (const demo of Object.values(BUILTIN_DEMONSTRATIONS)) {
    assert.deepEqual(
      demo.messages.at(-1),
      { sender: "user", recipient: "execution_environment", content: "end_conversation()" },
      demo.name,
    );
  }
});

test("the user instruction casts the simulator as User A, numbers rules 0-6 and ends with the goal lead-in", () => {
  assert.match(USER_INSTRUCTION, /User A/);
  assert.match(USER_INSTRUCTION, /User B/);
  for (const n of [0, 1, 2, 3, 4, 5, 6]) assert.match(USER_INSTRUCTION, new RegExp(`^${n}\\. `, "m"));
  assert.match(USER_INSTRUCTION, /`end_conversation`/);
  assert.ok(USER_INSTRUCTION.endsWith(": "), "the goal is appended right after the lead-in");
});

test("with no knowledge the system message is the instruction followed directly by the goal", () => {
  assert.equal(renderUserSystemMessage("Turn off wifi", []), `${USER_INSTRUCTION}Turn off wifi.`);
  assert.equal(renderUserSystemMessage("  Is my wifi on?  ", []), `${USER_INSTRUCTION}Is my wifi on?`);
});

test("knowledge facts follow the goal in order, and secret ones carry the do-not-reveal note", () => {
  const text = renderUserSystemMessage("Find out Homer S's phone number.", [
    { fact: "It should turn out to be +10000000000", value: "+10000000000", reveal: "never" },
    { fact: "You know nothing else about Homer S.", value: null, reveal: "when_asked" },
  ]);
  assert.equal(
    text,
    `${USER_INSTRUCTION}Find out Homer S's phone number. It should turn out to be +10000000000. ${NEVER_REVEAL_NOTE} You know nothing else about Homer S.`,
  );
});

test("the six upstream demonstration names are built in, and the default one is among them", () => {
  assert.deepEqual(Object.keys(BUILTIN_DEMONSTRATIONS).sort(), [
    "find_temperature_f_with_location_and_time_diff_multiple_user_turn",
    "find_temperature_low_battery_mode",
    "modify_contact_with_message_recency_multiple_user_turn",
    "remove_contact_by_phone_multiple_user_turn",
    "search_message_with_recency_latest_multiple_user_turn",
    "send_message_with_contact_content_cellular_off_multiple_user_turn",
  ]);
  assert.deepEqual(DEFAULT_DEMONSTRATIONS, ["send_message_with_contact_content_cellular_off_multiple_user_turn"]);
  for (const name of DEFAULT_DEMONSTRATIONS) assert.ok(BUILTIN_DEMONSTRATIONS[name]);
});

test("every demonstration is a user/agent dialogue that the user opens and the agent closes, then end_conversation", () => {
  for (const [name, demo] of Object.entries(BUILTIN_DEMONSTRATIONS)) {
    assert.equal(demo.name, name);
    assert.ok(demo.goal.trim().length > 0, `${name} has a goal`);
    assert.ok(demo.messages.length >= 5, `${name} has several turns`);
    const dialogue = demo.messages.slice(0, -1);
    dialogue.forEach((m, i) => {
      const expected = i % 2 === 0 ? ["user", "agent"] : ["agent", "user"];
      assert.deepEqual([m.sender, m.recipient], expected, `${name} message ${i} alternates`);
      assert.ok(m.content.trim().length > 0);
    });
    assert.equal(dialogue.at(-1)?.sender, "agent", `${name} ends with the agent finishing the task`);
  }
});

// A scenario's texts are never empty, but a model may send an empty message: the draft keeps the
// turn as a placeholder (so the reference's order stays one a conversation can have), says so in a
// note, and still checks clean with a reference that scores 1.0.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { draftScenario } from "../../engine/drafting/draft.js";
import { scoreReference } from "../../engine/evaluation/reference-check.js";
import { checkScenarioText } from "../../engine/scenario/resolve.js";
import { parseTrajectory } from "../../engine/trajectory/reader.js";

const RUN = "sample-scenarios/trajectories/send_message_with_contact_content_cellular_off_multiple_user_turn_adapted.trajectory.jsonl";

test("empty agent and user messages become placeholders with a note", async () => {
  const lines = readFileSync(RUN, "utf8").split("\n");
  const original = parseTrajectory(readFileSync(RUN, "utf8"), RUN);
  const first = original.messages.findIndex((m, i) => i > 0 && m.scripted !== true);
  const agentText = original.messages.findIndex((m, i) => i >= first && m.sender === "agent" && m.recipient === "user");
  const userText = original.messages.findIndex((m, i) => i > agentText && m.sender === "user" && m.recipient === "agent");
  assert.ok(agentText > 0 && userText > agentText);
  const blanked = lines
    .map((line) => {
      if (!line.startsWith('{"type":"message"')) return line;
      const event = JSON.parse(line) as { message: { sandbox_message_index: number; content: string } };
      if (event.message.sandbox_message_index === agentText || event.message.sandbox_message_index === userText) event.message.content = "";
      return JSON.stringify(event);
    })
    .join("\n");
  const draft = draftScenario(parseTrajectory(blanked, RUN), { name: "blank_turns", source: "blank.trajectory.jsonl" });
  assert.equal(
    draft.notes.filter((n) => /the (agent|user) said nothing; the draft says "\(nothing\)" there/.test(n)).length,
    2,
    draft.notes.join("\n"),
  );
  const checked = checkScenarioText(draft.text, "blank_turns.scenario.yaml");
  assert.deepEqual(
    checked.diagnostics.filter((d) => d.severity === "error").map((d) => d.message),
    [],
  );
  assert.equal((await scoreReference(checked.scenario!)).score, 1);
});

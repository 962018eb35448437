// The format's forms for constructs of upstream scenarios: infinite tolerances and the user
// simulator's own preamble.
import { test } from "node:test";
import assert from "node:assert/strict";
import { checkScenarioText } from "../../engine/scenario/resolve.js";
import { INFINITE_TOLERANCE } from "../../engine/scenario/tolerances.js";
import { renderUserSystemMessage, USER_INSTRUCTION } from "../../engine/scenario/prompts/prompts.js";

const scenario = (measures: string, extra = ""): string => `name: tolerance_check
user: { goal: Find my upcoming reminder, opening: What's next on my list? }
${extra}
milestones:
  - id: searched
    constraints:
      - kind: snapshot
        table: SANDBOX
        target: [{ sender: execution_environment, recipient: agent, tool_trace: { tool_name: search_reminder, arguments: { reminder_timestamp_lowerbound: now } } }]
        measures:
${measures}
reference:
  - agent: Nothing is due.
  - end_conversation: true
`;

const errors = (text: string): string[] =>
  checkScenarioText(text, "t.scenario.yaml")
    .diagnostics.filter((d) => d.severity === "error")
    .map((d) => d.message);

test(".inf is an infinite tolerance for a tool-trace argument and for a close measure", () => {
  const result = checkScenarioText(
    scenario(
      "          tool_trace: { kind: tool_trace, atol: { reminder_timestamp_lowerbound: .inf } }\n          sandbox_message_index: { kind: close, atol: .inf }",
    ),
    "t.scenario.yaml",
  );
  assert.deepEqual(
    result.diagnostics.filter((d) => d.severity === "error"),
    [],
  );
  const measures = result.scenario!.milestones[0]!.constraints[0]!.measures;
  assert.deepEqual(measures.tool_trace, { kind: "tool_trace", atol: { reminder_timestamp_lowerbound: INFINITE_TOLERANCE } });
  assert.deepEqual(measures.sandbox_message_index, { kind: "close", atol: INFINITE_TOLERANCE });
  // The resolved scenario stays JSON (it is embedded in every trajectory header).
  assert.doesNotThrow(() =>
    JSON.stringify(result.scenario, (_k, v: unknown) => {
      if (typeof v === "number" && !Number.isFinite(v)) throw new Error("non-finite");
      return v;
    }),
  );
});

test("-.inf is still no tolerance, and .inf is no number anywhere else", () => {
  assert.equal(errors(scenario("          tool_trace: { kind: tool_trace, atol: { reminder_timestamp_lowerbound: -.inf } }")).length, 1);
  assert.equal(errors(scenario("          tool_trace: { kind: tool_trace }", "max_messages: .inf")).length, 1);
});

test("a preamble replaces the default instruction, and the goal follows it as written", () => {
  assert.equal(
    renderUserSystemMessage("Turn off wifi", [], "Play the phone's owner. Task: "),
    "Play the phone's owner. Task: Turn off wifi",
  );
  assert.equal(renderUserSystemMessage("Turn off wifi", []), `${USER_INSTRUCTION}Turn off wifi.`);
  const withPreamble = checkScenarioText(
    "name: p\nuser: { preamble: 'Play the owner. Task: ', goal: Turn off wifi, opening: Wifi off please }\nreference:\n  - agent: Done.\n  - end_conversation: true\n",
    "p.scenario.yaml",
  );
  assert.equal(withPreamble.scenario!.user.preamble, "Play the owner. Task: ");
  const without = checkScenarioText(
    "name: p\nuser: { goal: Turn off wifi, opening: Wifi off please }\nreference:\n  - agent: Done.\n  - end_conversation: true\n",
    "p.scenario.yaml",
  );
  assert.equal("preamble" in without.scenario!.user, false); // left out, so older trajectories stay the same
});

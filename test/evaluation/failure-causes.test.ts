// One planted run per cause rule (engine/evaluation/failure-causes.ts): each starts from a saved
// sample run that succeeded and changes only what the rule looks at.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Message } from "../../engine/episode/types.js";
import { failureCause, type CauseInput } from "../../engine/evaluation/failure-causes.js";
import type { EvaluationResult } from "../../engine/evaluation/result.js";
import { readRunRecord } from "../../engine/reports/run-record.js";
import { withReferenceCauses } from "../../engine/reports/reference-causes.js";
import { parseTrajectory } from "../../engine/trajectory/reader.js";

const FILE = "sample-scenarios/trajectories/cellular_off_adapted.trajectory.jsonl";
const TEXT = readFileSync(FILE, "utf8");
const sample = parseTrajectory(TEXT, FILE);

/** The sample as the rules see it, with `change` applied. */
function run(change: Partial<Omit<CauseInput, "evaluation">> & { evaluation?: Partial<EvaluationResult> } = {}): CauseInput {
  const { evaluation, ...rest } = change;
  return {
    scenario: sample.header.scenario,
    messages: sample.messages,
    endReason: sample.endReason,
    endDetail: null,
    ...rest,
    evaluation: { ...sample.evaluation!, ...evaluation },
  };
}

const message = (
  i: number,
  sender: Message["sender"],
  recipient: Message["recipient"],
  content: string,
  extra: Partial<Message> = {},
): Message => ({
  sandbox_message_index: i,
  sender,
  recipient,
  content,
  visible_to: [sender, recipient],
  conversation_active: true,
  openai_tool_call_id: null,
  openai_function_name: null,
  tool_call_exception: null,
  tool_trace: null,
  ...extra,
});

const system = sample.messages.filter((m) => m.sender === "system");

test("a run that succeeded has no cause", () => {
  assert.equal(failureCause(run()), null);
});

test("infrastructure: an errored end, whatever the score", () => {
  const cause = failureCause(run({ endReason: "model_error", endDetail: "agent openai:m: HTTP 500 after 3 attempts" }));
  assert.deepEqual(cause && [cause.kind, cause.rule, cause.evidence], [
    "infrastructure",
    "errored-end",
    "the run ended in model_error: agent openai:m: HTTP 500 after 3 attempts",
  ]);
});

test("scenario: the reference does not reach a milestone (given by the caller)", () => {
  const cause = failureCause(run({ evaluation: { score: 0.5 }, referenceMisses: ["confirmed"] }));
  assert.deepEqual(cause && [cause.kind, cause.rule, cause.message], ["scenario", "reference-misses", null]);
  assert.match(cause?.evidence ?? "", /does not reach milestone confirmed$/);
});

test("scenario: withReferenceCauses plays the planted scenario's reference and blames the scenario", async () => {
  const dir = mkdtempSync(join(tmpdir(), "causes-"));
  try {
    const lines = TEXT.split("\n").filter((l) => l !== "");
    const header = JSON.parse(lines[0]!) as {
      scenario: { milestones: { id: string; constraints: { target: { content?: string }[] }[] }[] };
    };
    // The milestone now expects words the reference never says: no agent can reach it either.
    header.scenario.milestones.find((m) => m.id === "confirmed")!.constraints[0]!.target[0]!.content =
      "Done, and I also booked you a flight to Lisbon.";
    const evaluation = JSON.parse(lines.at(-1)!) as { result: { score: number } };
    evaluation.result.score = 0.5;
    const file = join(dir, "planted.trajectory.jsonl");
    writeFileSync(file, `${[JSON.stringify(header), ...lines.slice(1, -1), JSON.stringify(evaluation)].join("\n")}\n`);
    const record = readRunRecord(file, dir);
    assert.equal(record.cause?.kind, "agent", "without playing the reference, the agent is blamed");
    const [checked] = await withReferenceCauses([record]);
    assert.deepEqual([checked?.cause?.kind, checked?.cause?.rule], ["scenario", "reference-misses"]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("simulated user: it ended the conversation before saying anything to the agent", () => {
  const end = message(system.length, "user", "execution_environment", "end_conversation()");
  const cause = failureCause(run({ messages: [...system, end], evaluation: { score: 0 } }));
  assert.deepEqual(cause && [cause.kind, cause.rule, cause.message], ["user", "user-ended-before-goal", system.length]);
});

test("simulated user: it said a phone number outside its knowledge that nothing had shown it", () => {
  const n = system.length;
  const messages = [
    ...system,
    message(n, "user", "agent", "Turn off cellular service."),
    message(n + 1, "agent", "user", "Sure. Anything else?"),
    message(n + 2, "user", "agent", "Also text +1 (555) 010-9999 that I'm late."),
  ];
  const cause = failureCause(run({ messages, evaluation: { score: 0.5 } }));
  assert.deepEqual(cause && [cause.kind, cause.rule, cause.message, cause.evidence], [
    "user",
    "user-unknown-value",
    n + 2,
    'the user said "+1 (555) 010-9999", which is not in its goal or knowledge and was never shown to it',
  ]);
  // Once the agent has shown the number, saying it back is not inventing it.
  const shown = [...messages.slice(0, -2), message(n + 1, "agent", "user", "Your partner's number is +15550109999."), messages.at(-1)!];
  assert.notEqual(failureCause(run({ messages: shown, evaluation: { score: 0.5 } }))?.rule, "user-unknown-value");
});

test("simulated user: it contradicted its goal, giving another value for the number its goal pins", () => {
  // The goal and knowledge pin one 11-digit number, the contact's new one: +10293847563.
  const file = "sample-scenarios/trajectories/modify_contact_with_message_recency_adapted.trajectory.jsonl";
  const contact = parseTrajectory(readFileSync(file, "utf8"), file);
  const opening = contact.messages.findIndex((m) => m.sender === "user" && m.recipient === "agent");
  const before = contact.messages.slice(0, opening + 1);
  const n = before.length;
  const planted = (content: string): CauseInput => ({
    scenario: contact.header.scenario,
    messages: [
      ...before,
      message(n, "agent", "user", "Which number should I give them?"),
      message(n + 1, "user", "agent", content, { visible_to: ["user", "agent"] }),
    ],
    endReason: contact.endReason,
    endDetail: null,
    evaluation: { ...contact.evaluation!, score: 0.5 },
  });
  const cause = failureCause(planted("Make it +1 029 384 7564 please."));
  assert.deepEqual(cause && [cause.kind, cause.rule, cause.message, cause.evidence], [
    "user",
    "user-contradicted-goal",
    n + 1,
    'the user said "+1 029 384 7564" where its goal gives "+10293847563"',
  ]);
  // The goal's own number, however it is written, is no contradiction; nor is a correction that says it.
  assert.notEqual(failureCause(planted("Make it +1 (029) 384-7563 please."))?.rule, "user-contradicted-goal");
  assert.notEqual(failureCause(planted("Not +10293847564, I mean +10293847563."))?.rule, "user-contradicted-goal");
  // A scenario that gives two numbers of that length pins neither: no slot, no contradiction.
  const two = planted("Make it +1 029 384 7564 please.");
  const knowledge = [
    ...two.scenario.user.knowledge,
    { fact: "Your old number was +10293847000.", value: null, reveal: "when_asked" as const },
  ];
  const loose = { ...two, scenario: { ...two.scenario, user: { ...two.scenario.user, knowledge } } };
  assert.notEqual(failureCause(loose)?.rule, "user-contradicted-goal");
});

test("the saved sample runs set off no user rule (no false alarms on runs that succeeded)", () => {
  for (const name of readdirSync("sample-scenarios/trajectories").filter((f) => f.endsWith(".trajectory.jsonl"))) {
    const path = `sample-scenarios/trajectories/${name}`;
    const t = parseTrajectory(readFileSync(path, "utf8"), path);
    if (t.evaluation === null) continue;
    const cause = failureCause({
      scenario: t.header.scenario,
      messages: t.messages,
      endReason: t.endReason,
      endDetail: null,
      evaluation: { ...t.evaluation, score: 0 },
    });
    assert.notEqual(cause?.kind, "user", `${name}: ${cause?.evidence}`);
  }
});

test("agent: a minefield hit", () => {
  const mine = { ...sample.evaluation!.milestones[0]!, id: "deleted_contacts", matched_at: 7 };
  const cause = failureCause(run({ evaluation: { score: 0, minefields: [mine] } }));
  assert.deepEqual(cause && [cause.kind, cause.rule, cause.message, cause.evidence], [
    "agent",
    "minefield-hit",
    7,
    "the agent stepped on minefield deleted_contacts",
  ]);
});

test("agent: a tool error it never recovered from", () => {
  const failed = sample.messages.map((m) =>
    m.sender === "execution_environment" && m.recipient === "agent"
      ? { ...m, tool_call_exception: "PermissionError: low battery mode" }
      : m,
  );
  const cause = failureCause(run({ messages: failed, evaluation: { score: 0.5 } }));
  assert.deepEqual(cause && [cause.kind, cause.rule], ["agent", "tool-error-unrecovered"]);
  assert.match(
    cause?.evidence ?? "",
    /^set_cellular_service_status failed \(PermissionError: low battery mode\) and was never called successfully after$/,
  );
});

test("agent: a missed milestone", () => {
  const [first, second] = sample.evaluation!.milestones;
  const cause = failureCause(run({ evaluation: { score: 0.5, milestones: [first!, { ...second!, matched_at: null, similarity: 0 }] } }));
  assert.deepEqual(cause && [cause.kind, cause.rule, cause.evidence], [
    "agent",
    "missed-milestone",
    "milestone confirmed was never reached",
  ]);
});

test("agent: under the threshold with every milestone reached", () => {
  const cause = failureCause(run({ evaluation: { score: 0.5 } }));
  assert.deepEqual(cause && [cause.kind, cause.rule], ["agent", "below-threshold"]);
});

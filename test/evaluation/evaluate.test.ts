import { test } from "node:test";
import assert from "node:assert/strict";
import { Episode } from "../../engine/episode/episode.js";
import { evaluate, EvaluationError, firstUserMessageIndex, type EvaluationResult } from "../../engine/evaluation/evaluate.js";
import { createScriptedRoles } from "../../engine/roles/scripted.js";
import type { Scenario } from "../../engine/scenario/model.js";
import { checkScenarioText } from "../../engine/scenario/resolve.js";
import { checkEvent } from "../../engine/trajectory/schema.js";

// Without demonstrations the scripted start is: [0] system -> agent, [1] system -> user,
// [2] the opening user -> agent. The reference's first call is [3], its result [4], and so on.
const HEAD = `name: evaluation_test
clock: { now: 2026-01-15T09:00:00, timezone: America/Los_Angeles }
world:
  SETTING: { cellular: false }
user:
  goal: Turn cellular on.
  opening: Turn cellular on please.
  demonstrations: []
`;

const TURN_ON = `  - calls:
      - tool: set_cellular_service_status
        arguments: { on: true }
`;
const ADD_CONTACT = `  - calls:
      - tool: add_contact
        arguments: { name: Lars Ulrich, phone_number: "+15550100" }
`;
const SAY_DONE = `  - agent: Cellular service is on now.
  - end_conversation: true
`;

const CELLULAR_ON = `  - id: cellular_on
    constraints:
      - { kind: snapshot, table: SETTING, target: [{ cellular: true }] }
`;
const TOLD = `  - id: told
    constraints:
      - kind: snapshot
        table: SANDBOX
        target: [{ sender: agent, recipient: user, content: Cellular service is on now. }]
`;

function load(text: string): Scenario {
  const { scenario, diagnostics } = checkScenarioText(text, "test.scenario.yaml");
  assert.ok(scenario, diagnostics.map((d) => `${d.range.start.line + 1}: ${d.code} ${d.message}`).join("\n"));
  return scenario;
}

interface Played {
  readonly scenario: Scenario;
  readonly episode: Episode;
  readonly result: EvaluationResult;
}

async function play(body: string, scenario = load(HEAD + body)): Promise<Played> {
  const { agent, user } = createScriptedRoles(scenario);
  const episode = new Episode({ scenario, agent, user, seed: 1 });
  await episode.run();
  const result = evaluate(scenario, episode.messages, (i) => episode.world.at(i), episode.firstUserIndex, {
    endReason: episode.ended?.reason ?? null,
  });
  return { scenario, episode, result };
}

const node = (r: EvaluationResult, id: string) => {
  const found = [...r.milestones, ...r.minefields].find((n) => n.id === id);
  assert.ok(found, `no node ${id}`);
  return found;
};

test("a reference that meets every milestone scores 1, each matched at the earliest message where it holds", async () => {
  const { result, episode } = await play(`milestones:\n${CELLULAR_ON}${TOLD}reference:\n${TURN_ON}${SAY_DONE}`);
  assert.equal(episode.messages[4]?.openai_function_name, "set_cellular_service_status");
  assert.equal(result.score, 1);
  assert.equal(result.milestone_score, 1);
  assert.equal(result.minefield_score, 0);
  assert.equal(result.zero_reason, null);
  assert.deepEqual(result.window, { first: 2, last: episode.messages.length - 1 });
  // The setting changes with the tool's result at [4]; cellular stays on afterwards, and the
  // tie-break takes the earliest message of an optimal mapping.
  assert.deepEqual(
    result.milestones.map((m) => [m.id, m.matched_at, m.similarity]),
    [
      ["cellular_on", 4, 1],
      ["told", 5, 1],
    ],
  );
  // Agent call, result, agent text; the scripted start and the user's end_conversation do not count.
  assert.equal(result.turn_count, 3);
});

test("a milestone that already holds in the initial state matches at the opening message (upstream behaviour)", async () => {
  const wifi = `  - id: wifi_on\n    constraints:\n      - { kind: snapshot, table: SETTING, target: [{ wifi: true }] }\n`;
  const { result } = await play(`milestones:\n${wifi}reference:\n${TURN_ON}${SAY_DONE}`);
  assert.equal(node(result, "wifi_on").matched_at, 2);
});

test("a milestone met nowhere is unmatched, counts 0 in the mean, and is explained at its closest miss", async () => {
  const never = `  - id: wifi_off\n    constraints:\n      - { kind: snapshot, table: SETTING, target: [{ wifi: false, cellular: true }] }\n`;
  const { result } = await play(`milestones:\n${CELLULAR_ON}${never}reference:\n${TURN_ON}${SAY_DONE}`);
  assert.equal(result.score, 0.5);
  const missed = node(result, "wifi_off");
  assert.equal(missed.matched_at, null);
  assert.equal(missed.similarity, 0);
  // From [4] on cellular is right and only wifi is wrong: closer than before, where both were.
  assert.equal(missed.explained_at, 4);
  const [constraint] = missed.constraints;
  assert.equal(constraint?.similarity, 0);
  assert.deepEqual(constraint?.explanation.weakest, { target: 0, row: 0, column: "wifi", similarity: 0 });
});

test("a partial match (ROUGE-L on the answer) lowers the score by its similarity", async () => {
  const told = TOLD.replace("content: Cellular service is on now. }", `content: "Cellular service is on now, as you asked." }`);
  const { result } = await play(`milestones:\n${CELLULAR_ON}${told}reference:\n${TURN_ON}${SAY_DONE}`);
  const partial = node(result, "told");
  assert.equal(partial.matched_at, 5);
  assert.ok(partial.similarity > 0.5 && partial.similarity < 1, String(partial.similarity));
  assert.equal(result.score, (1 + partial.similarity) / 2);
  assert.equal(partial.constraints[0]?.explanation.weakest?.column, "content");
});

test("a world table nobody constrains that changes between two milestones breaks the later one's guardrail", async () => {
  const called = `  - id: called
    constraints:
      - kind: snapshot
        table: SANDBOX
        target: [{ sender: execution_environment, recipient: agent, tool_trace: { tool_name: set_cellular_service_status, arguments: { on: true } } }]
`;
  const { result } = await play(`milestones:\n${called}${TOLD}reference:\n${TURN_ON}${ADD_CONTACT}${SAY_DONE}`);
  assert.equal(node(result, "called").matched_at, 4);
  const told = node(result, "told");
  assert.equal(told.matched_at, null);
  // The agent's text is [7]; its own constraint holds there, the CONTACT guardrail does not.
  assert.equal(told.explained_at, 7);
  assert.equal(told.constraints[0]?.similarity, 1);
  assert.deepEqual(
    told.guardrails.map((g) => [g.table, g.reference?.id, g.reference?.index, g.similarity]),
    [
      ["SETTING", "called", 4, 1],
      ["CONTACT", "called", 4, 0],
      ["MESSAGING", "called", 4, 1],
      ["REMINDER", "called", 4, 1],
    ],
  );
  assert.equal(told.guardrails[1]?.explanation.reason, "table changed: 4 rows at the reference, 5 now");
  assert.equal(result.score, 0.5);
});

test("excluding the table from the guardrails lets the same run score 1", async () => {
  const called = `  - id: called
    constraints:
      - kind: snapshot
        table: SANDBOX
        target: [{ sender: execution_environment, recipient: agent, tool_trace: { tool_name: set_cellular_service_status, arguments: {} } }]
`;
  const told = TOLD.replace("  - id: told\n", "  - id: told\n    guardrails: { exclude: [CONTACT] }\n");
  const { result } = await play(`milestones:\n${called}${told}reference:\n${TURN_ON}${ADD_CONTACT}${SAY_DONE}`);
  assert.equal(result.score, 1);
  assert.deepEqual(
    node(result, "told").guardrails.map((g) => g.table),
    ["SETTING", "MESSAGING", "REMINDER"],
  );
});

test("references resolve to the referenced milestone's match, or to the opening message for initial", async () => {
  const added = `  - id: added
    after: [cellular_on]
    constraints:
      - { kind: addition, table: CONTACT, reference: cellular_on, target: [{ name: Lars Ulrich, phone_number: "+15550100" }] }
      - { kind: addition, table: CONTACT, target: [{ name: Lars Ulrich }] }
`;
  const { result } = await play(`milestones:\n${CELLULAR_ON}${added}reference:\n${TURN_ON}${ADD_CONTACT}${SAY_DONE}`);
  const m = node(result, "added");
  assert.equal(m.matched_at, 6);
  assert.deepEqual(
    m.constraints.map((c) => c.reference),
    [
      { id: "cellular_on", index: 4 },
      { id: "initial", index: 2 },
    ],
  );
  assert.equal(result.score, 1);
});

test("a matched minefield scores the run 0 and says which one, while the milestone score stays visible", async () => {
  const mine = `minefields:
  - id: contact_added
    guardrails: { exclude: [SETTING] }
    constraints:
      - { kind: addition, table: CONTACT, target: [{ name: Lars Ulrich }] }
`;
  const { result } = await play(`milestones:\n${CELLULAR_ON}${mine}reference:\n${TURN_ON}${ADD_CONTACT}${SAY_DONE}`);
  assert.equal(result.milestone_score, 1);
  assert.equal(result.minefield_score, 1);
  assert.equal(result.score, 0);
  assert.equal(node(result, "contact_added").matched_at, 6);
  assert.equal(result.zero_reason, 'minefield "contact_added" matched at message 6');
});

test("an addition against the initial state is guarded against it: another table that changed since vetoes the match", async () => {
  const mine = `minefields:
  - id: contact_added
    constraints:
      - { kind: addition, table: CONTACT, target: [{ name: Lars Ulrich }] }
`;
  const { result } = await play(`milestones:\n${CELLULAR_ON}${mine}reference:\n${TURN_ON}${ADD_CONTACT}${SAY_DONE}`);
  const mined = node(result, "contact_added");
  assert.equal(mined.matched_at, null);
  assert.equal(mined.constraints[0]?.similarity, 1);
  assert.deepEqual(
    mined.guardrails.map((g) => [g.table, g.reference?.id, g.similarity]),
    [
      ["SETTING", "initial", 0],
      ["MESSAGING", "initial", 1],
      ["REMINDER", "initial", 1],
    ],
  );
  assert.equal(result.score, 1);
});

test("a minefield that is not stepped on leaves the score alone", async () => {
  const mine = `minefields:\n  - id: wifi_off\n    constraints:\n      - { kind: snapshot, table: SETTING, target: [{ wifi: false }] }\n`;
  const { result } = await play(`milestones:\n${CELLULAR_ON}${mine}reference:\n${TURN_ON}${SAY_DONE}`);
  assert.equal(result.score, 1);
  assert.equal(node(result, "wifi_off").matched_at, null);
});

test("no milestones score 1 and no minefields score 0 (upstream's empty-graph rule)", async () => {
  const { result } = await play(`reference:\n${TURN_ON}${SAY_DONE}`);
  assert.deepEqual([result.score, result.milestone_score, result.minefield_score], [1, 1, 0]);
  assert.deepEqual([result.milestones, result.minefields], [[], []]);
});

test("an invalid tool call in `end` mode scores 0 with max_messages turns, as upstream's crash does; `recover` mode scores normally", async () => {
  const body = `max_messages: 12\noptions: { invalid_tool_call: end }\nmilestones:\n${CELLULAR_ON}reference:\n${TURN_ON}${SAY_DONE}`;
  const { scenario, episode } = await play(body);
  const score = (s: Scenario): EvaluationResult =>
    evaluate(s, episode.messages, (i) => episode.world.at(i), episode.firstUserIndex, { endReason: "invalid_tool_call" });
  const crashed = score(scenario);
  assert.equal(crashed.score, 0);
  assert.equal(crashed.milestone_score, 1);
  assert.equal(crashed.turn_count, 12);
  assert.match(crashed.zero_reason ?? "", /invalid tool call/);
  const recovered = score({ ...scenario, options: { invalid_tool_call: "recover" } });
  assert.equal(recovered.score, 1);
  assert.equal(recovered.turn_count, 3);
});

test("an episode cut before the opening message has no candidate message: nothing matches", async () => {
  const { scenario, episode } = await play(`milestones:\n${CELLULAR_ON}reference:\n${TURN_ON}${SAY_DONE}`);
  const result = evaluate(scenario, episode.messages.slice(0, 2), (i) => episode.world.at(i), 2);
  assert.equal(result.window, null);
  assert.equal(result.score, 0);
  assert.deepEqual(node(result, "cellular_on"), {
    id: "cellular_on",
    matched_at: null,
    explained_at: null,
    similarity: 0,
    constraints: [],
    guardrails: [],
  });
});

test("the result is plain JSON and fits the trajectory schema's evaluation event", async () => {
  const mine = `minefields:\n  - id: wifi_off\n    constraints:\n      - { kind: snapshot, table: SETTING, target: [{ wifi: false }] }\n`;
  const { result } = await play(`milestones:\n${CELLULAR_ON}${TOLD}${mine}reference:\n${TURN_ON}${ADD_CONTACT}${SAY_DONE}`);
  assert.deepEqual(JSON.parse(JSON.stringify(result)), result);
  const check = checkEvent({ type: "evaluation", result });
  assert.ok(check.ok, check.ok ? "" : check.error);
  const broken = checkEvent({ type: "evaluation", result: { ...result, score: 2 } });
  assert.equal(broken.ok, false);
});

test("milestones a checked scenario cannot have (a cycle, a reference to a non-ancestor) are refused with a reason", async () => {
  const { scenario, episode } = await play(`milestones:\n${CELLULAR_ON}${TOLD}reference:\n${TURN_ON}${SAY_DONE}`);
  const [on, told] = scenario.milestones;
  assert.ok(on && told);
  const score = (milestones: Scenario["milestones"]): EvaluationResult =>
    evaluate({ ...scenario, milestones }, episode.messages, (i) => episode.world.at(i), 2);
  assert.throws(
    () => score([{ ...on, after: ["told"] }, told]),
    (e: unknown) => e instanceof EvaluationError && /cycle/.test(e.message),
  );
  const readsLater = {
    ...on,
    constraints: [{ kind: "addition", table: "CONTACT", target: [], measures: {}, reference: { kind: "milestone", id: "told" } } as const],
  };
  assert.throws(() => score([readsLater, told]), /not one of its ancestors/);
  assert.throws(() => score([on, { ...told, after: ["nowhere"] }]), /"nowhere", which is not a milestone/);
});

test("the opening message of a saved episode is the last scripted one", async () => {
  const { episode } = await play(`reference:\n${TURN_ON}${SAY_DONE}`);
  assert.equal(firstUserMessageIndex(episode.messages), episode.firstUserIndex);
  assert.equal(firstUserMessageIndex([]), 0);
});

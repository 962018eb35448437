// DialogTool's per-turn tasks, teacher-forced: the reference as the agent (the oracle) scores 1.0
// on every sample; a planted wrong turn (a missing call, a wrong tool, a wrong argument, a wrong
// reply) lowers exactly the scores of that turn it should, and no other turn's.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { metricsOfTurns } from "../../../../engine/benchmarks/dialogtool/tasks/metrics.js";
import { teacherForcedTurns } from "../../../../engine/benchmarks/dialogtool/tasks/teacher-forced.js";
import { scoreTurn } from "../../../../engine/benchmarks/dialogtool/tasks/turn-scores.js";
import type { ScoredDialogToolTurn, TurnScores } from "../../../../engine/benchmarks/dialogtool/tasks/types.js";
import { createScriptedAgent } from "../../../../engine/roles/scripted.js";
import type { AgentRole, AgentTurn } from "../../../../engine/episode/role.js";
import { loadScenarioFile } from "../../../../engine/scenario/load.js";
import type { Scenario } from "../../../../engine/scenario/model.js";

const SAMPLES = "sample-scenarios";

function sample(name: string): Scenario {
  const { scenario, diagnostics } = loadScenarioFile(join(SAMPLES, `${name}.scenario.yaml`));
  assert.ok(scenario, diagnostics.map((d) => d.message).join("\n"));
  return scenario;
}

async function scored(scenario: Scenario, predictor: AgentRole): Promise<ScoredDialogToolTurn[]> {
  return (await teacherForcedTurns(scenario, predictor)).map((t) => ({ ...t, scores: scoreTurn(t) }));
}

/** The reference as the agent, except that its k-th turn is replaced by what `plant` makes of it. */
function plantedAt(scenario: Scenario, k: number, plant: (turn: AgentTurn) => AgentTurn): AgentRole {
  const reference = createScriptedAgent(scenario);
  let asked = 0;
  return {
    id: "planted",
    respond: async (request) => {
      const turn = await reference.respond(request);
      return asked++ === k ? plant(turn) : turn;
    },
  };
}

test("the reference as the agent scores 1.0 on awareness, selection and execution, and full marks on its replies, in every sample", async () => {
  const names = readdirSync(SAMPLES)
    .filter((f) => f.endsWith(".scenario.yaml"))
    .map((f) => f.slice(0, -".scenario.yaml".length));
  assert.equal(names.length, 29);
  for (const name of names) {
    const scenario = sample(name);
    const turns = await scored(scenario, createScriptedAgent(scenario));
    const m = metricsOfTurns(turns);
    assert.ok(m.turns > 0, name);
    assert.equal(m.awareness.accuracy, 1, name);
    if (m.selection.total > 0) {
      assert.equal(m.selection.accuracy, 1, name);
      assert.equal(m.execution.accuracy, 1, name);
      assert.equal(m.arguments.correct, m.arguments.total, name);
    }
    assert.ok(Math.abs((m.response.bleu ?? 0) - 100) < 1e-9, `${name}: BLEU ${m.response.bleu}`);
    assert.equal(m.response.rouge_l, 1, name);
  }
});

const SCENARIO = "send_message_with_contact_content_cellular_off_adapted";

/** The scores of every turn but `k` are the oracle's; turn k's are returned. */
async function plantedTurn(k: number, plant: (turn: AgentTurn) => AgentTurn): Promise<{ truth: ScoredDialogToolTurn; scores: TurnScores }> {
  const scenario = sample(SCENARIO);
  const oracle = await scored(scenario, createScriptedAgent(scenario));
  const planted = await scored(scenario, plantedAt(scenario, k, plant));
  assert.equal(planted.length, oracle.length);
  planted.forEach((t, i) => {
    if (i !== k) assert.deepEqual(t.scores, oracle[i]?.scores, `turn ${i} keeps the oracle's scores`);
  });
  const truth = oracle[k];
  assert.ok(truth);
  return { truth, scores: planted[k]?.scores ?? assert.fail("no planted turn") };
}

test("the sample's agent turns: parallel calls, a call, a reply, each in its dialogue turn", async () => {
  const scenario = sample(SCENARIO);
  const turns = await scored(scenario, createScriptedAgent(scenario));
  assert.deepEqual(
    turns.map((t) => [t.dialogue_turn, t.truth.kind === "calls" ? t.truth.calls.map((c) => c.tool).join("+") : "reply"]),
    [
      [0, "search_contacts+set_cellular_service_status"],
      [0, "send_message_with_phone_number"],
      [0, "reply"],
    ],
  );
  assert.equal(turns[0]?.index, 17, "where the first agent turn starts in the conversation");
});

test("a missing call (a reply where the reference called tools) lowers awareness, selection and execution of that turn", async () => {
  const { scores } = await plantedTurn(1, () => ({ kind: "text", text: "I sent it." }));
  assert.equal(scores.awareness, false);
  assert.equal(scores.selection, false);
  assert.equal(scores.execution, false);
  assert.deepEqual(scores.calls, { correct: 0, total: 1 });
  assert.deepEqual(scores.arguments, { correct: 0, total: 2 });
});

test("a wrong tool lowers selection and execution, not awareness", async () => {
  const { scores } = await plantedTurn(1, (turn) =>
    turn.kind === "calls" ? { kind: "calls", calls: turn.calls.map((c) => ({ ...c, name: "send_message_with_contact" })) } : turn,
  );
  assert.equal(scores.awareness, true);
  assert.equal(scores.selection, false);
  assert.equal(scores.execution, false);
  assert.deepEqual(scores.calls, { correct: 0, total: 1 });
});

test("a wrong argument lowers execution and that argument only, not awareness or selection", async () => {
  const { scores } = await plantedTurn(1, (turn) =>
    turn.kind === "calls"
      ? { kind: "calls", calls: turn.calls.map((c) => ({ ...c, arguments: { ...c.arguments, content: "Is the album done yet" } })) }
      : turn,
  );
  assert.equal(scores.awareness, true);
  assert.equal(scores.selection, true);
  assert.equal(scores.execution, false);
  assert.deepEqual(scores.calls, { correct: 0, total: 1 });
  assert.deepEqual(scores.arguments, { correct: 1, total: 2 });
});

test("one of two parallel calls left out: selection and execution fall, the call made still counts", async () => {
  const { scores } = await plantedTurn(0, (turn) => (turn.kind === "calls" ? { kind: "calls", calls: turn.calls.slice(0, 1) } : turn));
  assert.equal(scores.awareness, true);
  assert.equal(scores.selection, false);
  assert.equal(scores.execution, false);
  assert.deepEqual(scores.calls, { correct: 1, total: 2 });
});

test("parallel calls in another order are still right", async () => {
  const { scores } = await plantedTurn(0, (turn) => (turn.kind === "calls" ? { kind: "calls", calls: [...turn.calls].reverse() } : turn));
  assert.equal(scores.selection, true);
  assert.equal(scores.execution, true);
});

test("a reply in other words keeps awareness and lowers BLEU and ROUGE-L; a call where a reply was due scores 0 on both", async () => {
  const reworded = await plantedTurn(2, () => ({ kind: "text", text: "Done: your message went out to Fredrik." }));
  assert.equal(reworded.scores.awareness, true);
  assert.ok((reworded.scores.bleu ?? 100) < 99);
  assert.ok((reworded.scores.rouge_l ?? 1) < 1);
  assert.equal(reworded.scores.selection, undefined, "no tool task on a reply turn");
  const called = await plantedTurn(2, () => ({ kind: "calls", calls: [{ id: "x", name: "get_cellular_service_status", arguments: {} }] }));
  assert.equal(called.scores.awareness, false);
  assert.equal(called.scores.bleu, 0);
  assert.equal(called.scores.rouge_l, 0);
});

// DialogTool's further figures, each lowered by exactly the mistake planted for it: a wrong action
// (`--awareness actions`), a transactional call before the user's go-ahead (confirmation), a wrong
// app (hierarchical selection), a missing, an extra, a wrong date and a wrong location argument
// (the execution error analysis). The reference as the agent scores 1.0 on each, on every sample.
// Confirmation is checked in a free run as well.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { metricsOfTurns } from "../../../../engine/benchmarks/dialogtool/tasks/metrics.js";
import { teacherForcedTurns, type TeacherForcingOptions } from "../../../../engine/benchmarks/dialogtool/tasks/teacher-forced.js";
import { scriptedChooser, type Chooser } from "../../../../engine/benchmarks/dialogtool/tasks/choices.js";
import { scoreTurn } from "../../../../engine/benchmarks/dialogtool/tasks/turn-scores.js";
import type { DialogToolMetrics, ScoredDialogToolTurn } from "../../../../engine/benchmarks/dialogtool/tasks/types.js";
import { createScriptedAgent, createScriptedUser } from "../../../../engine/roles/scripted.js";
import { Episode } from "../../../../engine/episode/episode.js";
import { scoredFreeRun } from "../../../../engine/benchmarks/dialogtool/tasks/trajectory-turns.js";
import type { AgentRole, AgentTurn } from "../../../../engine/episode/role.js";
import { loadScenarioFile } from "../../../../engine/scenario/load.js";
import type { Scenario } from "../../../../engine/scenario/model.js";

const SAMPLES = "sample-scenarios";
const CONFIRMING = "send_message_with_contact_content_cellular_off_multiple_user_turn_adapted";

function sample(name: string): Scenario {
  const { scenario, diagnostics } = loadScenarioFile(join(SAMPLES, `${name}.scenario.yaml`));
  assert.ok(scenario, diagnostics.map((d) => d.message).join("\n"));
  return scenario;
}

interface Plants {
  /** Replaces the agent's k-th turn. */
  readonly turn?: { readonly k: number; readonly plant: (turn: AgentTurn) => AgentTurn };
  /** Replaces the answer to the k-th question of this kind. */
  readonly answer?: { readonly kind: "action" | "app"; readonly k: number; readonly text: string };
}

function planted(scenario: Scenario, plants: Plants): { predictor: AgentRole; options: TeacherForcingOptions } {
  const reference = createScriptedAgent(scenario);
  let asked = 0;
  const predictor: AgentRole = {
    id: "planted",
    respond: async (request) => {
      const turn = await reference.respond(request);
      return plants.turn && asked++ === plants.turn.k ? plants.turn.plant(turn) : turn;
    },
  };
  const honest = scriptedChooser(scenario);
  const counts = { action: 0, app: 0 };
  const chooser: Chooser = {
    choose: async (kind, request, question) => {
      const k = counts[kind]++;
      if (plants.answer?.kind === kind && plants.answer.k === k) return { answer: plants.answer.text };
      return honest.choose(kind, request, question);
    },
  };
  return {
    predictor,
    options: { awareness: "actions", selection: "hierarchical", chooser, hierarchicalPredictor: createScriptedAgent(scenario) },
  };
}

async function run(scenario: Scenario, plants: Plants = {}): Promise<{ turns: ScoredDialogToolTurn[]; m: DialogToolMetrics }> {
  const { predictor, options } = planted(scenario, plants);
  const turns = (await teacherForcedTurns(scenario, predictor, options)).map((t) => ({ ...t, scores: scoreTurn(t) }));
  return { turns, m: metricsOfTurns(turns) };
}

/** The figures a planted mistake may touch, as numbers, for comparing whole sets at once. */
function figures(m: DialogToolMetrics): Record<string, number> {
  const e = m.errors;
  const h = m.selection_settings.hierarchical;
  return {
    awareness: m.awareness.correct,
    selection: m.selection.correct,
    execution: m.execution.correct,
    arguments: m.arguments.correct,
    actions: m.actions?.tally.correct ?? -1,
    confirmation: m.confirmation.correct,
    confirmation_total: m.confirmation.total,
    flat_app: m.selection_settings.flat.app.correct,
    hierarchical_app: h?.app.correct ?? -1,
    hierarchical_api: h?.api.correct ?? -1,
    hierarchical_argument: h?.argument.correct ?? -1,
    false_negatives: e.awareness.false_negatives.count,
    false_positives: e.awareness.false_positives.count,
    recall: e.selection.recall.correct,
    parse_errors: e.selection.parse_errors,
    unnecessary_calls: e.selection.unnecessary_calls,
    missing: e.execution.missing,
    extra: e.execution.extra,
    date_time: e.execution.mismatched.date_time,
    location: e.execution.mismatched.location,
    number: e.execution.mismatched.number,
    other: e.execution.mismatched.other,
  };
}

/** Runs the oracle and the planted agent; asserts that exactly `changes` differ, by the amounts given. */
async function assertOnly(scenario: Scenario, plants: Plants, changes: Record<string, number>): Promise<ScoredDialogToolTurn[]> {
  const oracle = figures((await run(scenario)).m);
  const { turns, m } = await run(scenario, plants);
  const got = figures(m);
  const expected = { ...oracle };
  for (const [key, delta] of Object.entries(changes)) expected[key] = (oracle[key] ?? 0) + delta;
  assert.deepEqual(got, expected);
  return turns;
}

function callsOf(turn: AgentTurn): Extract<AgentTurn, { kind: "calls" }> {
  assert.equal(turn.kind, "calls");
  return turn as Extract<AgentTurn, { kind: "calls" }>;
}

test("the reference as the agent scores 1.0 on actions, confirmation and both selection settings in every sample", async () => {
  const names = readdirSync(SAMPLES)
    .filter((f) => f.endsWith(".scenario.yaml"))
    .map((f) => f.slice(0, -".scenario.yaml".length));
  let confirmed = 0;
  for (const name of names) {
    const { m } = await run(sample(name));
    assert.equal(m.actions?.tally.accuracy, 1, name);
    assert.equal(m.confirmation.correct, m.confirmation.total, name);
    confirmed += m.confirmation.total;
    // A scenario whose reference calls no tool has no tool turn to select for.
    for (const s of m.selection.total === 0 ? [] : [m.selection_settings.flat, m.selection_settings.hierarchical]) {
      assert.ok(s, name);
      assert.deepEqual([s.app.accuracy, s.api.accuracy, s.argument.accuracy], [1, 1, 1], name);
    }
    assert.equal(m.errors.awareness.false_negatives.count + m.errors.awareness.false_positives.count, 0, name);
    assert.equal(m.errors.execution.missing + m.errors.execution.extra, 0, name);
  }
  assert.ok(confirmed >= 20, `${confirmed} transactional calls checked`);
});

test("the reference's actions: Request, Confirm before switching cellular on, Call_Tool, Notify_Success", async () => {
  const { turns } = await run(sample(CONFIRMING));
  assert.deepEqual(
    turns.map((t) => t.truth_action),
    ["Request", "Request", "Call_Tool", "Call_Tool", "Confirm", "Call_Tool", "Call_Tool", "Notify_Success"],
  );
  // Switching cellular on comes after the user's "Yes, go ahead."; sending, in the same dialogue turn.
  assert.deepEqual(turns[5]?.go_ahead, ["set_cellular_service_status"]);
});

test("a wrong action lowers the action score only, and shows in the confusion matrix", async () => {
  const scenario = sample(CONFIRMING);
  await assertOnly(scenario, { answer: { kind: "action", k: 4, text: "I would Inform the user." } }, { actions: -1 });
  const { m } = await run(scenario, { answer: { kind: "action", k: 4, text: "Inform" } });
  assert.deepEqual(m.actions?.confusion.Confirm, { Inform: 1 });
});

test("a transactional call before the user said yes is unconfirmed (and, a call where a reply was due, unaware)", async () => {
  const scenario = sample(CONFIRMING);
  const planted: Plants = {
    turn: {
      k: 4,
      plant: () => ({ kind: "calls", calls: [{ id: "early", name: "set_cellular_service_status", arguments: { on: true } }] }),
    },
  };
  await assertOnly(scenario, planted, { confirmation_total: 1, awareness: -1, false_positives: 1, unnecessary_calls: 1 });
});

test("a wrong app in hierarchical mode lowers the hierarchical App accuracy only", async () => {
  const scenario = sample(CONFIRMING);
  // The third agent turn searches the contacts: the agent picks Messages instead.
  await assertOnly(scenario, { answer: { kind: "app", k: 2, text: "Messages" } }, { hierarchical_app: -1 });
});

test("a missing argument, an extra one: execution falls, and the error analysis names which", async () => {
  const scenario = sample(CONFIRMING);
  const send = (change: (args: Record<string, unknown>) => Record<string, unknown>): Plants => ({
    turn: {
      k: 6,
      plant: (turn) => {
        const calls = callsOf(turn).calls.map((c) => ({ ...c, arguments: change({ ...c.arguments }) as typeof c.arguments }));
        return { kind: "calls", calls };
      },
    },
  });
  await assertOnly(
    scenario,
    send(({ content: _content, ...rest }) => rest),
    { execution: -1, arguments: -1, hierarchical_argument: 0, missing: 1 },
  );
  await assertOnly(
    scenario,
    send((args) => ({ ...args, urgent: true })),
    { execution: -1, extra: 1 },
  );
});

test("a wrong date lowers execution and counts as a date/time mismatch; a wrong place, as a location mismatch", async () => {
  const reminder = sample("add_reminder_content_and_date_and_time_multiple_user_turn_adapted");
  const { turns } = await run(reminder);
  const addAt = turns.findIndex((t) => t.truth.kind === "calls" && t.truth.calls[0]?.tool === "add_reminder");
  await assertOnly(
    reminder,
    {
      turn: {
        k: addAt,
        plant: (turn) => ({
          kind: "calls",
          calls: callsOf(turn).calls.map((c) => ({ ...c, arguments: { ...c.arguments, reminder_timestamp: 1774299600 } })),
        }),
      },
    },
    { execution: -1, arguments: -1, date_time: 1 },
  );
  const distance = sample("find_distance_with_location_name_adapted");
  const around = (await run(distance)).turns.findIndex(
    (t) => t.truth.kind === "calls" && t.truth.calls[0]?.tool === "search_location_around_lat_lon",
  );
  await assertOnly(
    distance,
    {
      turn: {
        k: around,
        plant: (turn) => ({
          kind: "calls",
          calls: callsOf(turn).calls.map((c) => ({ ...c, arguments: { ...c.arguments, location: "Bay Bridge" } })),
        }),
      },
    },
    { execution: -1, arguments: -1, location: 1 },
  );
});

test("a free run that switches cellular on without asking first: that call is unconfirmed", async () => {
  const scenario = sample(CONFIRMING);
  const reference = createScriptedAgent(scenario);
  let k = 0;
  // The reference's agent, minus its question "May I turn it on?" (its fifth turn), then a farewell.
  const hasty: AgentRole = {
    id: "hasty",
    respond: async (request) => {
      if (k === 4) {
        k++;
        await reference.respond(request);
      }
      k++;
      return k > 8 ? { kind: "text", text: "Bye." } : reference.respond(request);
    },
  };
  const episode = new Episode({ scenario, agent: hasty, user: createScriptedUser(scenario), seed: 0 });
  await episode.run();
  const free = scoredFreeRun(episode.messages, scenario);
  // Its turn where the reference asks is the switch; the send after it is a turn beyond the
  // reference's in that dialogue turn, which a free run counts apart and does not score.
  assert.deepEqual([free.metrics.confirmation.correct, free.metrics.confirmation.total], [0, 1]);
  assert.equal(free.extra_turns, 2);
  const patient = new Episode({ scenario, agent: createScriptedAgent(scenario), user: createScriptedUser(scenario), seed: 0 });
  await patient.run();
  const ok = scoredFreeRun(patient.messages, scenario).metrics.confirmation;
  assert.deepEqual([ok.correct, ok.total], [2, 2]);
});

// All 78 published ToolTalk conversations imported as scenarios: each one checks without a single
// diagnostic, its reference scores 1.0 in milestone mode and steps on no minefield, ToolTalk's own
// oracle holds when the scenario is simulated in the ToolTalk mode, and each scenario carries its
// starting world itself. The conversations and databases are the user's copy of ToolTalk's data.
import { test } from "node:test";
import assert from "node:assert/strict";
import { formatDiagnostic } from "../../../../../engine/base/diagnostics.js";
import { nodeWhy } from "../../../../../engine/evaluation/highlights.js";
import { scoreReference } from "../../../../../engine/evaluation/reference-check.js";
import { importConversation, type ImportedScenario } from "../../../../../engine/benchmarks/tooltalk/importer/import-conversation.js";
import { checkScenarioText } from "../../../../../engine/scenario/resolve.js";
import type { Scenario } from "../../../../../engine/scenario/model.js";
import { groundTruthPredictor } from "../../../../../engine/benchmarks/tooltalk/evaluation/ground-truth-predictor.js";
import { runConversation } from "../../../../../engine/benchmarks/tooltalk/evaluation/simulation.js";
import { ScenarioBackend, scenarioConversation } from "../../../../../engine/benchmarks/tooltalk/mode/scenario-conversation.js";
import { toolTalkConversations, toolTalkDatabases } from "../../published-data.js";

const SCHEMA = "../schemas/scenario.schema.json";
const conversations = toolTalkConversations();
const databases = toolTalkDatabases();

let imported: ImportedScenario[] | undefined;
function importAll(): ImportedScenario[] {
  imported ??= conversations.map((c) => importConversation(c, { schemaPath: SCHEMA, databases }));
  return imported;
}

let scenarios: Scenario[] | undefined;
function checkedScenarios(): Scenario[] {
  scenarios ??= importAll().map(({ name, text }) => {
    const { scenario, diagnostics } = checkScenarioText(text, `${name}.scenario.yaml`);
    assert.deepEqual(diagnostics.map(formatDiagnostic), [], name);
    assert.ok(scenario, name);
    return scenario;
  });
  return scenarios;
}

test("all 78 conversations import, each under its own name", () => {
  assert.equal(conversations.length, 78);
  const names = importAll().map((s) => s.name);
  assert.equal(new Set(names).size, 78);
  assert.ok(names.includes("tooltalk_golden_conversation_1"));
  assert.ok(names.includes("tooltalk_account_tools_alarm_calendar_add_alarm_0"));
});

test("every imported scenario checks with no diagnostic at all", () => {
  assert.equal(checkedScenarios().length, 78);
  for (const s of checkedScenarios()) assert.equal(s.world.pack, "tooltalk", s.name);
});

test("every reference scores 1.0 in milestone mode: each milestone met in full, no minefield hit", async () => {
  for (const scenario of checkedScenarios()) {
    const result = await scoreReference(scenario);
    const below = result.milestones.filter((m) => m.similarity < 1).map((m) => `${m.id} ${m.similarity}: ${nodeWhy(m, "milestone")}`);
    assert.deepEqual(below, [], scenario.name);
    assert.deepEqual(
      result.minefields.filter((m) => m.matched_at !== null).map((m) => m.id),
      [],
      scenario.name,
    );
    assert.equal(result.score, 1, scenario.name);
    assert.ok(result.milestones.length > 0, `${scenario.name} has milestones`);
  }
});

test("ToolTalk's oracle through the scenarios: the ground truth simulated turn by turn gives precision = recall = 1 and success", async () => {
  for (const [i, scenario] of checkedScenarios().entries()) {
    const conversation = scenarioConversation(scenario, `${scenario.name}.scenario.yaml`);
    // The scenario holds the conversation's turns and calls as the file has them.
    const original = conversations[i];
    assert.ok(original);
    const calls = (c: typeof conversation): string[] =>
      c.turns.flatMap((t) => (t.role === "assistant" ? t.apis.map((a) => a.request.api_name) : []));
    assert.deepEqual(calls(conversation), calls(original), scenario.name);
    const result = await runConversation(conversation, new ScenarioBackend(scenario), groundTruthPredictor(conversation));
    const { precision, recall, success } = result.metrics;
    assert.deepEqual({ precision, recall, success }, { precision: 1, recall: 1, success: true }, scenario.name);
  }
});

test("importing again gives the same bytes", () => {
  const again = conversations.map((c) => importConversation(c, { schemaPath: SCHEMA, databases }));
  assert.deepEqual(again, importAll());
});

test("each scenario starts from its own rows: an empty base, its user logged in as the file says, rows of the databases", () => {
  for (const [i, scenario] of checkedScenarios().entries()) {
    const text = importAll()[i]?.text ?? "";
    assert.match(text, /^ {2}base: empty$/m, scenario.name);
    const user = conversations[i]?.user;
    if (user?.session_token !== undefined) {
      const account = scenario.world.tables["ACCOUNT"]?.find((r) => r["username"] === user.username);
      assert.equal(account?.["session_token"], user.session_token, `${scenario.name}: ${user.username} starts logged in`);
      assert.deepEqual(scenario.world.tables["SESSION"], [{ username: user.username, session_token: user.session_token }], scenario.name);
    }
    for (const [table, rows] of Object.entries(scenario.world.tables)) {
      if (table === "SESSION" || table === "ACCOUNT") continue;
      const all = new Set((databases[table] ?? []).map((r) => JSON.stringify(r)));
      for (const row of rows)
        assert.ok(all.has(JSON.stringify(row)), `${scenario.name}: ${table} row ${JSON.stringify(row)} is not in the databases`);
    }
  }
});

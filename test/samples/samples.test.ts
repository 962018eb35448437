// The bundled sample scenarios are the suite users start from: every one must load without a
// single diagnostic, together they must cover every upstream category the samples promise, and
// each reference solution must play through to the user ending the conversation.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, readdirSync } from "node:fs";
import { basename, join } from "node:path";
import { loadScenarioFile } from "../../engine/scenario/load.js";
import { formatDiagnostic } from "../../engine/base/diagnostics.js";
import type { Category, Scenario } from "../../engine/scenario/model.js";
import { Episode } from "../../engine/episode/episode.js";
import { createScriptedRoles } from "../../engine/roles/scripted.js";
import { evaluate, type EvaluationResult } from "../../engine/evaluation/evaluate.js";
import type { JsonValue } from "../../engine/base/json.js";

const DIR = join(__dirname, "..", "..", "sample-scenarios");
const SUFFIX = ".scenario.yaml";
const files = readdirSync(DIR)
  .filter((f) => f.endsWith(SUFFIX))
  .sort()
  .map((f) => join(DIR, f));

let loaded: Scenario[] | undefined;
function loadAll(): Scenario[] {
  loaded ??= files.map((file) => {
    const { scenario } = loadScenarioFile(file);
    assert.ok(scenario, `${basename(file)} resolves`);
    return scenario;
  });
  return loaded;
}

test("there are at least 24 samples", () => {
  assert.ok(files.length >= 24, `found ${files.length}`);
});

test("every sample loads with no diagnostics and is named after its file", () => {
  for (const file of files) {
    const { scenario, diagnostics } = loadScenarioFile(file);
    assert.deepEqual(diagnostics.map(formatDiagnostic), [], basename(file));
    assert.equal(scenario?.name, basename(file, SUFFIX));
  }
});

test("every file starts with the schema modeline", () => {
  for (const file of files) {
    const first = readFileSync(file, "utf8").split("\n", 1)[0];
    assert.equal(first, "# yaml-language-server: $schema=../schemas/scenario.schema.json", basename(file));
  }
});

test("the samples cover every category used upstream", () => {
  const required: Category[] = [
    "SINGLE_TOOL_CALL",
    "MULTIPLE_TOOL_CALL",
    "SINGLE_USER_TURN",
    "MULTIPLE_USER_TURN",
    "STATE_DEPENDENCY",
    "CANONICALIZATION",
    "INSUFFICIENT_INFORMATION",
  ];
  const seen = new Set(loadAll().flatMap((s) => s.categories));
  for (const c of required) assert.ok(seen.has(c), `no sample is tagged ${c}`);
});

test("the samples run on clocks in several timezones", () => {
  const zones = new Set(loadAll().map((s) => s.clock.timezone));
  assert.ok(zones.size >= 5, `only ${[...zones].join(", ")}`);
});

test("category tags agree with what each sample does", () => {
  for (const s of loadAll()) {
    const has = (c: Category): boolean => s.categories.includes(c);
    const userSteps = s.reference.filter((step) => step.kind === "user_text").length;
    if (has("MULTIPLE_USER_TURN")) assert.ok(userSteps > 0, `${s.name}: a multi-turn sample whose user never answers`);
    if (has("SINGLE_USER_TURN")) assert.equal(userSteps, 0, `${s.name}: a single-turn sample with user answers`);
    const calls = s.reference.flatMap((step) => (step.kind === "agent_calls" ? step.calls : []));
    if (has("SINGLE_TOOL_CALL")) assert.equal(calls.length, 1, `${s.name}: SINGLE_TOOL_CALL with ${calls.length} calls`);
    if (has("MULTIPLE_TOOL_CALL")) assert.ok(calls.length > 1, `${s.name}: MULTIPLE_TOOL_CALL with ${calls.length} call`);
    if (has("INSUFFICIENT_INFORMATION")) {
      assert.ok(s.tools.deny.length > 0, `${s.name}: nothing is denied`);
      assert.ok(s.minefields.length + s.milestones.length > 0, `${s.name}: nothing is scored`);
    }
  }
});

test("a state-dependency sample starts with a service or low battery mode in the way", () => {
  for (const s of loadAll()) {
    if (!s.categories.includes("STATE_DEPENDENCY")) continue;
    const setting = s.world.tables.SETTING?.[0];
    assert.ok(setting, s.name);
    const blocked =
      setting.low_battery_mode === true || setting.wifi === false || setting.cellular === false || setting.location_service === false;
    assert.ok(blocked, `${s.name}: every service is already on`);
  }
});

test("a low-battery sample needs the full chain: low battery mode off, then wifi and location", () => {
  const lowBattery = loadAll().filter((s) => s.world.tables.SETTING?.[0]?.low_battery_mode === true);
  assert.ok(lowBattery.length >= 2, "at least two nested low-battery chains");
  for (const s of lowBattery) {
    const ids = s.milestones.map((m) => m.id);
    const lbm = s.milestones.find((m) =>
      m.constraints.some((c) => c.table === "SETTING" && c.target.some((r) => r.low_battery_mode === false)),
    );
    assert.ok(lbm, `${s.name}: no milestone for turning low battery mode off`);
    for (const column of ["wifi", "location_service"]) {
      const on = s.milestones.find((m) => m.constraints.some((c) => c.table === "SETTING" && c.target.some((r) => r[column] === true)));
      assert.ok(on, `${s.name}: no milestone for ${column}; milestones ${ids.join(", ")}`);
      assert.ok(on.after.includes(lbm.id), `${s.name}: ${on.id} is not ordered after ${lbm.id}`);
    }
  }
});

async function play(scenario: Scenario): Promise<{ episode: Episode; result: EvaluationResult }> {
  const { agent, user } = createScriptedRoles(scenario);
  const episode = new Episode({ scenario, agent, user, seed: 7 });
  await episode.run();
  const result = evaluate(scenario, episode.messages, (i) => episode.world.at(i), episode.firstUserIndex, {
    endReason: episode.ended?.reason ?? null,
  });
  return { episode, result };
}

test("every reference solution plays to the end of the conversation without a tool error", async () => {
  for (const s of loadAll()) {
    const { episode } = await play(s);
    assert.equal(episode.ended?.reason, "end_conversation", `${s.name}: ${episode.ended?.detail ?? ""}`);
    const failed = episode.messages.filter((m) => m.tool_call_exception !== null);
    assert.deepEqual(
      failed.map((m) => m.tool_call_exception),
      [],
      `${s.name}: tool errors in the reference run`,
    );
  }
});

test("every reference solution meets all of its milestones and steps on no minefield", async () => {
  for (const s of loadAll()) {
    const { result } = await play(s);
    const missed = result.milestones.filter((m) => m.similarity < 1).map((m) => `${m.id}=${m.similarity}`);
    assert.deepEqual(missed, [], `${s.name}: milestones below 1`);
    assert.equal(result.minefield_score, 0, `${s.name}: ${result.zero_reason ?? ""}`);
    assert.equal(result.score, 1, s.name);
  }
});

/** The move each insufficient-information sample forbids, made with plausible arguments. */
const FORBIDDEN_MOVES: Readonly<Record<string, { tool: string; arguments: Record<string, JsonValue> }>> = {
  find_current_city_insufficient_information: { tool: "search_lat_lon", arguments: { latitude: 37.3346, longitude: -122.0091 } },
  send_message_with_contact_content_cellular_off_insufficient_information: {
    tool: "send_message_with_phone_number",
    arguments: { phone_number: "+12025550143", content: "How's the new album coming along" },
  },
  find_days_till_holiday_insufficient_information: {
    tool: "timestamp_diff",
    arguments: { timestamp_0: 1796000000, timestamp_1: 1798128000 },
  },
  modify_reminder_with_recency_latest_insufficient_information: {
    tool: "modify_reminder",
    arguments: { reminder_id: "54f20be9-eac3-5e76-8e57-724e48d3d477", reminder_timestamp: 1790000000 },
  },
};

test("a run that makes the forbidden move steps on the sample's minefield and scores 0", async () => {
  const withMinefields = loadAll().filter((s) => s.minefields.length > 0);
  assert.deepEqual(withMinefields.map((s) => s.name).sort(), Object.keys(FORBIDDEN_MOVES).sort());
  for (const s of withMinefields) {
    const move = FORBIDDEN_MOVES[s.name]!;
    const guessing: Scenario = {
      ...s,
      reference: [
        { kind: "agent_calls", calls: [{ id: "guess", tool: move.tool, arguments: move.arguments }] },
        { kind: "agent_text", text: "Done." },
        { kind: "end_conversation" },
      ],
    };
    const { result } = await play(guessing);
    assert.ok(result.minefield_score > 0, `${s.name}: the minefield did not fire`);
    assert.equal(result.score, 0, s.name);
  }
});

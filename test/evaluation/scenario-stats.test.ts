import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { parse } from "yaml";
import { scenarioStats, type ScenarioStats, type Tally } from "../../engine/evaluation/scenario-stats.js";
import type { Category, Constraint, Milestone, ReferenceStep, Scenario } from "../../engine/scenario/model.js";
import { checkScenarioText } from "../../engine/scenario/load.js";
import { packById } from "../../engine/packs/registry.js";
import type { PackId } from "../../engine/packs/types.js";
import { TOOLS } from "../../engine/packs/toolsandbox/tools/catalog.js";
import { syntheticScenario } from "../trajectory/synthetic.js";

// ---- hand-built scenarios -------------------------------------------------------------------

interface Shape {
  readonly name: string;
  /** The world pack; ToolSandbox's when absent. */
  readonly pack?: PackId;
  readonly categories?: readonly Category[];
  readonly allow?: readonly string[] | null;
  readonly deny?: readonly string[];
  /** One entry per agent turn: the tools called in it. */
  readonly turns?: readonly (readonly string[])[];
  readonly milestones?: readonly Milestone[];
  readonly minefields?: readonly Milestone[];
}

function scenario(shape: Shape): Scenario {
  const reference: ReferenceStep[] = (shape.turns ?? []).map((tools, t) => ({
    kind: "agent_calls",
    calls: tools.map((tool, i) => ({ id: `call_${t}_${i}`, tool, arguments: {} })),
  }));
  const base = syntheticScenario();
  return {
    ...base,
    world: shape.pack === undefined ? base.world : { pack: shape.pack, tables: packById(shape.pack).emptyWorld(base.clock.now) },
    name: shape.name,
    categories: shape.categories ?? [],
    tools: { allow: shape.allow === undefined ? [] : shape.allow, deny: shape.deny ?? [] },
    milestones: shape.milestones ?? [],
    minefields: shape.minefields ?? [],
    reference: [...reference, { kind: "end_conversation" }],
  };
}

function node(id: string, constraints: readonly Constraint[], after: readonly string[] = []): Milestone {
  return { id, description: null, after, constraints, guardrails: { tables: null, exclude: [] } };
}

/** A SANDBOX constraint expecting a tool result message whose trace is one of `tools`. */
function traced(tools: readonly string[], extra: Partial<Record<string, string>> = {}): Constraint {
  return {
    kind: "snapshot",
    table: "SANDBOX",
    target: [
      {
        sender: "execution_environment",
        recipient: "agent",
        tool_trace: tools.map((tool_name) => ({ tool_name, arguments: {} })),
        ...extra,
      },
    ],
    measures: {},
    reference: null,
  };
}

const settingOn = (column: string): Constraint => ({
  kind: "snapshot",
  table: "SETTING",
  target: [{ [column]: true }],
  measures: {},
  reference: null,
});

const reply = (content: string, measures: Constraint["measures"] = {}): Constraint => ({
  kind: "snapshot",
  table: "SANDBOX",
  target: [{ sender: "agent", recipient: "user", content }],
  measures,
  reference: null,
});

function row<K extends string, R extends Record<K, string>>(rows: readonly R[], field: K, key: string): R {
  const found = rows.find((r) => r[field] === key);
  assert.ok(found, `no row ${key} in ${JSON.stringify(rows.map((r) => r[field]))}`);
  return found;
}

const tally = (t: Tally): Tally => ({
  scenarios: t.scenarios,
  milestones: t.milestones,
  minefields: t.minefields,
  constraints: t.constraints,
});

test("a scenario counts once in each of its categories; rows go from most to fewest", () => {
  const stats = scenarioStats([
    scenario({ name: "a", categories: ["STATE_DEPENDENCY", "MULTIPLE_TOOL_CALL", "STATE_DEPENDENCY"] }),
    scenario({ name: "b", categories: ["MULTIPLE_TOOL_CALL"] }),
    scenario({ name: "c", categories: ["SINGLE_TOOL_CALL"] }),
    scenario({ name: "d" }),
  ]);
  assert.equal(stats.scenarios, 4);
  assert.deepEqual(stats.categories, [
    { category: "MULTIPLE_TOOL_CALL", scenarios: 2 },
    // A tie keeps the order of the category list: SINGLE_TOOL_CALL is listed before STATE_DEPENDENCY.
    { category: "SINGLE_TOOL_CALL", scenarios: 1 },
    { category: "STATE_DEPENDENCY", scenarios: 1 },
  ]);
  assert.equal(stats.uncategorized, 1);
});

test("necessary tools are the ones the reference calls; allowed-but-unused are the rest of the agent's tools", () => {
  const stats = scenarioStats([
    scenario({
      name: "text",
      allow: ["search_contacts", "send_message_with_phone_number", "get_cellular_service_status"],
      turns: [["search_contacts"], ["send_message_with_phone_number"], ["search_contacts"]],
    }),
    scenario({ name: "lookup", allow: ["search_contacts", "get_cellular_service_status"], turns: [["search_contacts"]] }),
  ]);
  const search = row(stats.tools, "tool", "search_contacts");
  assert.deepEqual(
    {
      allowed: search.allowed,
      necessary: search.necessary,
      allowed_unused: search.allowed_unused,
      reference_calls: search.reference_calls,
    },
    { allowed: 2, necessary: 2, allowed_unused: 0, reference_calls: 3 },
  );
  const status = row(stats.tools, "tool", "get_cellular_service_status");
  assert.deepEqual([status.allowed, status.necessary, status.allowed_unused], [2, 0, 2]);
  assert.deepEqual(
    stats.tools.map((t) => t.tool),
    ["search_contacts", "send_message_with_phone_number", "get_cellular_service_status"],
    "most needed first",
  );
});

test("no allow list means every tool the agent may call, minus the deny list", () => {
  const stats = scenarioStats([scenario({ name: "open", allow: null, deny: ["remove_contact"] })]);
  const agentTools = TOOLS.filter((t) => t.visibleTo.includes("agent")).map((t) => t.name);
  assert.ok(!agentTools.includes("end_conversation"), "end_conversation is the user's");
  assert.deepEqual(new Set(stats.tools.map((t) => t.tool)), new Set(agentTools.filter((t) => t !== "remove_contact")));
  assert.ok(stats.tools.every((t) => t.allowed === 1 && t.allowed_unused === 1 && t.necessary === 0));
});

test("golden traces count per tool: every alternative, extract targets too, a node once", () => {
  const extract: Constraint = {
    kind: "tool_trace_extract",
    table: "SANDBOX",
    target: [{ sender: "execution_environment", recipient: "agent", tool_trace: [{ tool_name: "unit_conversion", arguments: {} }] }],
    measures: {},
    reference: { kind: "milestone", id: "searched" },
    extractor: null,
    extract: [],
    fill: "tool_trace",
  };
  const stats = scenarioStats([
    scenario({
      name: "weather",
      milestones: [
        // Two constraints naming the same tool: one milestone.
        node("searched", [traced(["search_weather_around_lat_lon"]), traced(["search_weather_around_lat_lon"])]),
        node("converted", [extract], ["searched"]),
        node("distance", [traced(["calculate_lat_lon_distance", "search_lat_lon"])], ["converted"]),
      ],
      minefields: [node("no_search", [traced(["search_weather_around_lat_lon"])])],
    }),
  ]);
  const milestonesOf = (tool: string): [number, number] => {
    const r = row(stats.tools, "tool", tool);
    return [r.milestones, r.minefields];
  };
  assert.deepEqual(milestonesOf("search_weather_around_lat_lon"), [1, 1]);
  assert.deepEqual(milestonesOf("unit_conversion"), [1, 0]);
  assert.deepEqual(milestonesOf("calculate_lat_lon_distance"), [1, 0]);
  assert.deepEqual(milestonesOf("search_lat_lon"), [1, 0]);
});

test("tables and columns: a node counts once, every constraint counts", () => {
  const stats = scenarioStats([
    scenario({
      name: "one",
      milestones: [node("radios", [settingOn("wifi"), settingOn("cellular")]), node("told", [reply("Done.")], ["radios"])],
      minefields: [node("no_location", [settingOn("location_service")])],
    }),
    scenario({ name: "two", milestones: [node("wifi", [settingOn("wifi")])] }),
  ]);
  assert.deepEqual(tally(row(stats.tables, "table", "SETTING")), { scenarios: 2, milestones: 2, minefields: 1, constraints: 4 });
  assert.deepEqual(tally(row(stats.tables, "table", "SANDBOX")), { scenarios: 1, milestones: 1, minefields: 0, constraints: 1 });
  const column = (table: string, name: string): Tally => {
    const found = stats.columns.find((c) => c.table === table && c.column === name);
    assert.ok(found, `no column ${table}.${name}`);
    return tally(found);
  };
  assert.deepEqual(column("SETTING", "wifi"), { scenarios: 2, milestones: 2, minefields: 0, constraints: 2 });
  assert.deepEqual(column("SETTING", "location_service"), { scenarios: 1, milestones: 0, minefields: 1, constraints: 1 });
  assert.deepEqual(column("SANDBOX", "content"), { scenarios: 1, milestones: 1, minefields: 0, constraints: 1 });
  assert.ok(!stats.columns.some((c) => c.table === "SETTING" && c.column === "low_battery_mode"), "only columns a target names");
  assert.deepEqual(
    stats.tables.map((t) => t.table),
    ["SETTING", "SANDBOX"],
    "most constraints first",
  );
});

test("column measures: the table default unless the constraint writes one", () => {
  const stats = scenarioStats([
    scenario({
      name: "answers",
      milestones: [
        node("said", [reply("The number is +1 555.")]),
        node("number", [reply("+1 555", { content: { kind: "contains" } })], ["said"]),
      ],
    }),
  ]);
  const measure = (name: string) => {
    const m = row(stats.measures, "measure", name);
    return { column_uses: m.column_uses, written: m.written, milestones: m.milestones };
  };
  // sender and recipient in both targets: exact by default.
  assert.deepEqual(measure("exact"), { column_uses: 4, written: 0, milestones: 2 });
  assert.deepEqual(measure("rouge_l"), { column_uses: 1, written: 0, milestones: 1 });
  assert.deepEqual(measure("contains"), { column_uses: 1, written: 1, milestones: 1 });
});

test("constraint kinds and what each constraint is compared with", () => {
  const added: Constraint = {
    kind: "addition",
    table: "CONTACT",
    target: [{ name: "Alex" }],
    measures: {},
    reference: { kind: "initial" },
  };
  const removed: Constraint = { ...added, kind: "removal", reference: { kind: "milestone", id: "added" } };
  const stats = scenarioStats([
    scenario({
      name: "contacts",
      milestones: [node("added", [added]), node("removed", [removed], ["added"]), node("told", [reply("Done.")], ["removed"])],
    }),
  ]);
  assert.deepEqual(
    stats.constraint_kinds.map((k) => [k.kind, k.constraints]),
    [
      ["addition", 1],
      ["removal", 1],
      ["snapshot", 1],
    ],
  );
  assert.deepEqual(
    stats.references.map((r) => [r.compared_with, r.constraints]),
    [
      ["initial", 1],
      ["milestone", 1],
      ["none", 1],
    ],
  );
});

test("DAG shape: milestones per scenario, edges, and which scenarios are not a written-order chain", () => {
  const stats = scenarioStats([
    scenario({ name: "chain", milestones: [node("a", [reply("1")]), node("b", [reply("2")], ["a"]), node("c", [reply("3")], ["b"])] }),
    scenario({ name: "two_roots", milestones: [node("a", [reply("1")]), node("b", [reply("2")]), node("c", [reply("3")], ["a", "b"])] }),
    scenario({
      name: "parallel",
      milestones: [node("a", [reply("1")])],
      minefields: [node("x", [reply("no")])],
      turns: [["search_contacts", "get_wifi_status"], ["search_contacts"]],
    }),
    scenario({ name: "empty" }),
  ]);
  assert.deepEqual(stats.shape, {
    milestones: { total: 7, min: 0, mean: 7 / 4, max: 3 },
    minefields: { total: 1, min: 0, mean: 1 / 4, max: 1 },
    scenarios_with_minefields: 1,
    milestone_edges: 4,
    branching_scenarios: 1,
    reference_tool_calls: 3,
    reference_parallel_turns: 1,
  });
});

test("no scenarios: empty rows and no per-scenario extremes; the result survives JSON", () => {
  const empty = scenarioStats([]);
  assert.deepEqual(empty.categories, []);
  assert.deepEqual(empty.tools, []);
  assert.deepEqual(empty.shape.milestones, { total: 0, min: null, mean: null, max: null });
  const some = scenarioStats([
    scenario({ name: "x", categories: ["CANONICALIZATION"], allow: ["search_stock"], milestones: [node("a", [traced(["search_stock"])])] }),
  ]);
  assert.deepEqual(JSON.parse(JSON.stringify(some)), some);
});

test("packs: same-named tables, columns and tools of two packs stay apart, each row naming its pack", () => {
  const reminderAdded = (target: Record<string, string>): Constraint => ({
    kind: "addition",
    table: "REMINDER",
    target: [target],
    measures: {},
    reference: { kind: "initial" },
  });
  // Both packs have a REMINDER table with a reminder_id column; they are different tables.
  const toolsandbox = scenario({
    name: "remind_sandbox",
    allow: ["add_reminder", "search_reminder"],
    turns: [["add_reminder"]],
    milestones: [node("added", [reminderAdded({ reminder_id: "r1", content: "Buy milk" })])],
  });
  const tooltalk = scenario({
    name: "remind_talk",
    pack: "tooltalk",
    allow: ["AddReminder", "GetReminders"],
    turns: [["GetReminders"], ["AddReminder"], ["AddReminder"]],
    milestones: [
      node("listed", [traced(["GetReminders"])]),
      node(
        "added",
        [reminderAdded({ reminder_id: "ab-cdef", task: "Buy milk" }), reminderAdded({ reminder_id: "12-3456", task: "Pay rent" })],
        ["listed"],
      ),
    ],
  });
  const mixed = scenarioStats([tooltalk, toolsandbox]);
  assert.deepEqual(mixed.packs, [
    { pack: "toolsandbox", scenarios: 1 },
    { pack: "tooltalk", scenarios: 1 },
  ]);
  const reminders = mixed.tables.filter((t) => t.table === "REMINDER");
  assert.deepEqual(reminders, [
    { pack: "toolsandbox", table: "REMINDER", scenarios: 1, milestones: 1, minefields: 0, constraints: 1 },
    { pack: "tooltalk", table: "REMINDER", scenarios: 1, milestones: 1, minefields: 0, constraints: 2 },
  ]);
  assert.deepEqual(
    mixed.columns.filter((c) => c.column === "reminder_id").map((c) => [c.pack, c.constraints]),
    [
      ["toolsandbox", 1],
      ["tooltalk", 2],
    ],
  );
  // Rows are grouped by pack, ToolSandbox's first: its unused search_reminder comes before
  // ToolTalk's necessary tools. Within a pack the usual order holds (traced GetReminders first).
  assert.deepEqual(
    mixed.tools.map((t) => [t.pack, t.tool]),
    [
      ["toolsandbox", "add_reminder"],
      ["toolsandbox", "search_reminder"],
      ["tooltalk", "GetReminders"],
      ["tooltalk", "AddReminder"],
    ],
  );
  // AddReminder's effect is checked on REMINDER, not by a trace: its MILESTONES count stays 0.
  assert.deepEqual([row(mixed.tools, "tool", "AddReminder").reference_calls, row(mixed.tools, "tool", "AddReminder").milestones], [2, 0]);
  assert.equal(row(mixed.tools, "tool", "GetReminders").milestones, 1);
  // What means the same in every pack is counted across them, without a pack.
  assert.deepEqual(row(mixed.constraint_kinds, "kind", "addition"), {
    kind: "addition",
    scenarios: 2,
    milestones: 2,
    minefields: 0,
    constraints: 3,
  });

  // Each pack's rows are exactly what that pack alone gives, plus the pack.
  for (const [pack, alone] of [
    ["toolsandbox", scenarioStats([toolsandbox])],
    ["tooltalk", scenarioStats([tooltalk])],
  ] as const) {
    assert.ok(!("packs" in alone), "one pack: no pack list");
    for (const rows of [alone.tools, alone.tables, alone.columns])
      assert.ok(
        rows.every((r) => !("pack" in r)),
        "one pack: rows name no pack",
      );
    const strip = <R extends { pack?: PackId }>(rows: readonly R[]) =>
      rows.filter((r) => r.pack === pack).map(({ pack: _pack, ...r }) => r);
    assert.deepEqual(strip(mixed.tables), alone.tables);
    assert.deepEqual(strip(mixed.columns), alone.columns);
    assert.deepEqual(strip(mixed.tools), alone.tools);
  }
});

// ---- the sample scenarios, against counts read straight from their YAML -----------------------

const SAMPLES = "sample-scenarios";

interface RawSample {
  readonly categories: readonly string[];
  readonly milestones?: readonly { constraints: readonly { kind: string; table: string }[] }[];
  readonly minefields?: readonly unknown[];
  readonly reference: readonly { calls?: readonly { tool: string }[] }[];
}

function loadSamples(): { raw: RawSample[]; stats: ScenarioStats } {
  const files = readdirSync(SAMPLES).filter((f) => f.endsWith(".scenario.yaml"));
  const raw: RawSample[] = [];
  const scenarios: Scenario[] = [];
  for (const f of files) {
    const text = readFileSync(join(SAMPLES, f), "utf8");
    raw.push(parse(text) as RawSample);
    const checked = checkScenarioText(text, f);
    assert.ok(checked.scenario, `${f} does not load`);
    scenarios.push(checked.scenario);
  }
  return { raw, stats: scenarioStats(scenarios) };
}

test("samples: one scenario per file, and each category count is the number of files carrying the tag", () => {
  const { raw, stats } = loadSamples();
  assert.equal(stats.scenarios, raw.length);
  assert.ok(raw.length >= 20);
  const tagged = (tag: string): number => raw.filter((s) => s.categories.includes(tag)).length;
  assert.ok(tagged("STATE_DEPENDENCY") > 0);
  assert.equal(row(stats.categories, "category", "STATE_DEPENDENCY").scenarios, tagged("STATE_DEPENDENCY"));
  for (const r of stats.categories) assert.equal(r.scenarios, tagged(r.category), r.category);
  const tags = new Set(raw.flatMap((s) => s.categories));
  assert.deepEqual(new Set(stats.categories.map((r) => r.category)), tags);
});

test("samples: necessary-tool counts, reference calls and node totals match the files", () => {
  const { raw, stats } = loadSamples();
  const callsOf = (s: RawSample): string[] => s.reference.flatMap((step) => (step.calls ?? []).map((c) => c.tool));
  const search = row(stats.tools, "tool", "search_contacts");
  assert.equal(search.necessary, raw.filter((s) => callsOf(s).includes("search_contacts")).length);
  assert.equal(
    stats.tools.reduce((n, t) => n + t.reference_calls, 0),
    raw.reduce((n, s) => n + callsOf(s).length, 0),
  );
  assert.equal(
    stats.shape.milestones.total,
    raw.reduce((n, s) => n + (s.milestones?.length ?? 0), 0),
  );
  assert.equal(
    stats.shape.minefields.total,
    raw.reduce((n, s) => n + (s.minefields?.length ?? 0), 0),
  );
  const settingConstraints = raw
    .flatMap((s) => (s.milestones ?? []).flatMap((m) => m.constraints))
    .filter((c) => c.table === "SETTING").length;
  assert.equal(row(stats.tables, "table", "SETTING").constraints, settingConstraints);
});

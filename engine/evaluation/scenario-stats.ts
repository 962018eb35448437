// What a set of scenarios covers, counted the way the ToolSandbox paper tabulates its suite
// (reference 1.8, 1.11, 7.1): scenarios per category, tools per scenario (allowed, and the ones
// the reference solution needs), and what the milestones and minefields check: which tools their
// golden traces name, which tables and columns their targets name, which constraint kinds and
// column measures they use, and what earlier state they compare with. Pure: resolved scenarios
// in, plain JSON-serialisable rows out, every list in a fixed order.
//
// Tools, tables and columns belong to a world pack, and two packs may use one name for different
// things (ToolSandbox's REMINDER and ToolTalk's): they are counted per pack, and when the
// scenarios span several packs each such row names its pack. Constraint kinds, measures and
// references mean the same in every pack and are counted across them.
import { toolsFor } from "../episode/tool-calls.js";
import { CATEGORIES, type Category, type Constraint, type GoldenTrace, type Milestone, type Scenario } from "../scenario/model.js";
import { packById } from "../packs/registry.js";
import { packTables } from "../packs/tables.js";
import { isPackId, PACK_IDS, type PackId } from "../packs/types.js";
import type { TableSchema } from "../world/types.js";
import { appStatsRows, type AppStatsRow } from "./app-stats.js";
import { effectiveMeasures, measureFor } from "./measures/default-measures.js";
import { alphabetical, least, most, ranked, TallyCounter, type Ranking, type Tally } from "./tally-counter.js";

export type { Tally } from "./tally-counter.js";

export interface CategoryRow {
  readonly category: Category;
  readonly scenarios: number;
}

export interface PackRow {
  readonly pack: PackId;
  readonly scenarios: number;
}

/**
 * A row of something a pack defines (a tool, a table, a column). `pack` is set only when the
 * scenarios span several packs, so output over one pack reads as before packs existed.
 */
export interface PackQualified {
  readonly pack?: PackId;
}

export interface ToolRow extends PackQualified {
  readonly tool: string;
  /** Scenarios whose agent may call the tool (allow list, or every tool, minus the deny list). */
  readonly allowed: number;
  /** Scenarios whose reference solution calls the tool: the tools the task needs. */
  readonly necessary: number;
  /** Scenarios that allow the tool but whose reference solution does not call it (distractions). */
  readonly allowed_unused: number;
  /** Calls of the tool across every reference solution. */
  readonly reference_calls: number;
  /**
   * Milestones and minefields that expect a call of the tool: a golden tool trace naming it in a
   * SANDBOX target. A node that checks the tool's effect on a world table does not name the tool
   * and is counted under that table only (ToolTalk's AddReminder and CreateEvent read 0 here).
   */
  readonly milestones: number;
  readonly minefields: number;
}

export interface TableRow extends Tally, PackQualified {
  readonly table: string;
}

export interface ColumnRow extends Tally, PackQualified {
  readonly table: string;
  readonly column: string;
}

export interface ConstraintKindRow extends Tally {
  readonly kind: Constraint["kind"];
}

export interface MeasureRow extends Tally {
  /** The measure a target column is compared with: the constraint's own, else the table default. */
  readonly measure: string;
  /** (constraint, column) pairs compared with this measure. */
  readonly column_uses: number;
  /** Of those, the pairs whose measure the scenario wrote (not the default). */
  readonly written: number;
}

export interface ReferenceRow extends Tally {
  /** What the constraint compares against: the initial world, a milestone's match, or nothing. */
  readonly compared_with: "initial" | "milestone" | "none";
}

/** A per-scenario count summarised over the scenarios; min, mean and max are null for none. */
export interface CountSummary {
  readonly total: number;
  readonly min: number | null;
  readonly mean: number | null;
  readonly max: number | null;
}

export interface ShapeStats {
  readonly milestones: CountSummary;
  readonly minefields: CountSummary;
  readonly scenarios_with_minefields: number;
  /** `after` edges between milestones, over all scenarios. */
  readonly milestone_edges: number;
  /**
   * Scenarios whose milestones are not one chain in written order: explicit `after` edges that
   * branch or join (upstream: a definition with an explicit edge list that is not a chain).
   */
  readonly branching_scenarios: number;
  readonly reference_tool_calls: number;
  /** Agent turns of the reference solutions with two or more calls at once. */
  readonly reference_parallel_turns: number;
}

export interface ScenarioStats {
  readonly scenarios: number;
  /** Scenarios per pack, in the packs' order; only when there are several (see PackQualified). */
  readonly packs?: readonly PackRow[];
  /** Rows with at least one scenario, most scenarios first, then in the category list's order. */
  readonly categories: readonly CategoryRow[];
  readonly uncategorized: number;
  readonly tools: readonly ToolRow[];
  /** Per app of the packs (packs/<pack>/apps.ts): scenarios allowing it, needing it, and reference calls. */
  readonly apps: readonly AppStatsRow[];
  readonly tables: readonly TableRow[];
  readonly columns: readonly ColumnRow[];
  readonly constraint_kinds: readonly ConstraintKindRow[];
  readonly measures: readonly MeasureRow[];
  readonly references: readonly ReferenceRow[];
  readonly shape: ShapeStats;
}

/** The columns a constraint's target rows name (a target only scores the columns it names). */
function targetColumns(c: Constraint): string[] {
  return [...new Set(c.target.flatMap((row) => Object.keys(row)))];
}

function isGoldenTrace(v: unknown): v is GoldenTrace {
  return typeof v === "object" && v !== null && typeof (v as { tool_name?: unknown }).tool_name === "string";
}

/** Tools named by the golden traces of a SANDBOX target (every alternative counts). */
function goldenTools(c: Constraint): string[] {
  if (c.table !== "SANDBOX") return [];
  return c.target.flatMap((row) => {
    const cell = row.tool_trace;
    const alternatives: readonly unknown[] = Array.isArray(cell) ? cell : [cell];
    return alternatives.filter(isGoldenTrace).map((t) => t.tool_name);
  });
}

/** What a dimension may know of the scenario a constraint belongs to. */
interface ScenarioContext {
  readonly pack: PackId;
  /** The pack's world tables, for the default measures of their columns. */
  readonly schemas: ReadonlyMap<string, TableSchema>;
}

const KEY_SEPARATOR = "\u0000";

/** The key of a row of something a pack defines: the pack, then the row's names. */
const packKey = (pack: PackId, ...names: string[]): string => [pack, ...names].join(KEY_SEPARATOR);

function splitPackKey(key: string): { pack: PackId; names: string[] } {
  const [pack, ...names] = key.split(KEY_SEPARATOR);
  if (!isPackId(pack)) throw new Error(`scenario stats: the key ${JSON.stringify(key)} names no pack`);
  return { pack, names };
}

const packRank = (pack: PackId): number => PACK_IDS.indexOf(pack);

/** Each dimension as the keys one constraint contributes. */
const DIMENSIONS = {
  tools: (c: Constraint, { pack }: ScenarioContext) => goldenTools(c).map((tool) => packKey(pack, tool)),
  tables: (c: Constraint, { pack }: ScenarioContext) => [packKey(pack, c.table)],
  columns: (c: Constraint, { pack }: ScenarioContext) => targetColumns(c).map((column) => packKey(pack, c.table, column)),
  kinds: (c: Constraint) => [c.kind],
  measures: (c: Constraint, { schemas }: ScenarioContext) => columnMeasures(c, schemas).map((m) => m.measure),
  references: (c: Constraint) => [c.reference?.kind ?? "none"],
} satisfies Record<string, (c: Constraint, context: ScenarioContext) => string[]>;

type Dimension = keyof typeof DIMENSIONS;

/** The measure each target column is compared with, and whether the scenario wrote it. */
function columnMeasures(c: Constraint, schemas: ScenarioContext["schemas"]): { measure: string; written: boolean }[] {
  const measures = effectiveMeasures(c.table, c.measures, schemas.get(c.table));
  return targetColumns(c).map((column) => ({
    measure: measureFor(measures, column).kind,
    written: Object.hasOwn(c.measures, column),
  }));
}

/** True when the milestones form one chain in written order (every node after the one before). */
function isWrittenChain(milestones: readonly Milestone[]): boolean {
  return milestones.every((m, i) => {
    const previous = milestones[i - 1];
    return previous === undefined ? m.after.length === 0 : m.after.length === 1 && m.after[0] === previous.id;
  });
}

function summarize(counts: readonly number[]): CountSummary {
  const total = counts.reduce((a, b) => a + b, 0);
  if (counts.length === 0) return { total, min: null, mean: null, max: null };
  return { total, min: Math.min(...counts), mean: total / counts.length, max: Math.max(...counts) };
}

/** Where a pack's tool comes in its catalog; a tool the pack lacks (an older trajectory) comes last. */
function catalogRank(pack: PackId, tool: string): number {
  const tools = packById(pack).tools;
  const i = tools.findIndex((t) => t.name === tool);
  return i === -1 ? tools.length : i;
}

export function scenarioStats(scenarios: readonly Scenario[]): ScenarioStats {
  const { counters, measureUses } = countConstraints(scenarios);
  const packs = packRows(scenarios);
  const several = packs.length > 1;
  /** The row's pack, when rows of several packs sit in one table. */
  const qualified = (pack: PackId): PackQualified => (several ? { pack } : {});
  const byConstraints = (counter: TallyCounter): Ranking<string> =>
    ranked(
      most((k) => counter.get(k).constraints),
      alphabetical((k) => k),
    );
  const rows = <R>(dimension: Dimension, build: (key: string, tally: Tally) => R): R[] => {
    const counter = counters[dimension];
    return counter
      .keys()
      .sort(byConstraints(counter))
      .map((k) => build(k, counter.get(k)));
  };
  /** Rows of something a pack defines: grouped by pack, in the packs' order. */
  const packRowsOf = <R>(dimension: Dimension, build: (pack: PackId, names: string[], tally: Tally) => R): R[] => {
    const counter = counters[dimension];
    const withinPack = byConstraints(counter);
    return counter
      .keys()
      .map((k) => ({ k, ...splitPackKey(k) }))
      .sort(
        ranked(
          least((r) => packRank(r.pack)),
          (a, b) => withinPack(a.k, b.k),
        ),
      )
      .map(({ k, pack, names }) => build(pack, names, counter.get(k)));
  };
  return {
    scenarios: scenarios.length,
    ...(several ? { packs } : {}),
    categories: categoryRows(scenarios),
    uncategorized: scenarios.filter((s) => s.categories.length === 0).length,
    tools: toolRows(scenarios, counters.tools, qualified),
    apps: appStatsRows(scenarios, several),
    tables: packRowsOf("tables", (pack, [table = ""], t): TableRow => ({ ...qualified(pack), table, ...t })),
    columns: packRowsOf("columns", (pack, [table = "", column = ""], t): ColumnRow => ({ ...qualified(pack), table, column, ...t })),
    constraint_kinds: rows("kinds", (kind, t) => ({ kind: kind as Constraint["kind"], ...t })),
    measures: rows("measures", (measure, t) => {
      const m = measureUses.get(measure) ?? { uses: 0, written: 0 };
      return { measure, column_uses: m.uses, written: m.written, ...t };
    }),
    references: rows("references", (kind, t) => ({ compared_with: kind as ReferenceRow["compared_with"], ...t })),
    shape: shapeStats(scenarios),
  };
}

/** Scenarios per pack, in the packs' order, leaving out packs no scenario uses. */
function packRows(scenarios: readonly Scenario[]): PackRow[] {
  return PACK_IDS.map((pack) => ({ pack, scenarios: scenarios.filter((s) => s.world.pack === pack).length })).filter(
    (r) => r.scenarios > 0,
  );
}

/** Every constraint of every milestone and minefield, tallied along each dimension. */
function countConstraints(scenarios: readonly Scenario[]): {
  counters: Record<Dimension, TallyCounter>;
  measureUses: Map<string, { uses: number; written: number }>;
} {
  const counters = Object.fromEntries(Object.keys(DIMENSIONS).map((d) => [d, new TallyCounter()])) as Record<Dimension, TallyCounter>;
  const measureUses = new Map<string, { uses: number; written: number }>();
  scenarios.forEach((scenario, index) => {
    const pack = scenario.world.pack;
    const context: ScenarioContext = { pack, schemas: packTables(pack).schemas };
    for (const section of ["milestones", "minefields"] as const) {
      for (const node of scenario[section]) {
        for (const [dimension, keysOf] of Object.entries(DIMENSIONS) as [
          Dimension,
          (c: Constraint, context: ScenarioContext) => string[],
        ][]) {
          counters[dimension].addNode(
            index,
            section,
            node.constraints.map((c) => keysOf(c, context)),
          );
        }
        for (const { measure, written } of node.constraints.flatMap((c) => columnMeasures(c, context.schemas))) {
          const m = measureUses.get(measure) ?? { uses: 0, written: 0 };
          measureUses.set(measure, { uses: m.uses + 1, written: m.written + (written ? 1 : 0) });
        }
      }
    }
  });
  return { counters, measureUses };
}

function categoryRows(scenarios: readonly Scenario[]): CategoryRow[] {
  const counts = new Map<Category, number>();
  for (const s of scenarios) for (const c of new Set(s.categories)) counts.set(c, (counts.get(c) ?? 0) + 1);
  return [...counts]
    .map(([category, n]) => ({ category, scenarios: n }))
    .sort(
      ranked(
        most((r) => r.scenarios),
        least((r) => CATEGORIES.indexOf(r.category)),
      ),
    );
}

const agentCalls = (scenario: Scenario) => scenario.reference.flatMap((step) => (step.kind === "agent_calls" ? step.calls : []));

/**
 * Tools from the reference solutions and the allow lists, plus the tools golden traces name, each
 * within its scenario's pack.
 */
function toolRows(scenarios: readonly Scenario[], traced: TallyCounter, qualified: (pack: PackId) => PackQualified): ToolRow[] {
  type Use = { allowed: number; necessary: number; allowed_unused: number; reference_calls: number };
  const unused = (): Use => ({ allowed: 0, necessary: 0, allowed_unused: 0, reference_calls: 0 });
  const uses = new Map<string, Use>();
  const useOf = (key: string): Use => {
    const use = uses.get(key) ?? unused();
    uses.set(key, use);
    return use;
  };
  for (const scenario of scenarios) {
    const key = (tool: string): string => packKey(scenario.world.pack, tool);
    const calls = agentCalls(scenario);
    for (const call of calls) useOf(key(call.tool)).reference_calls += 1;
    const necessary = new Set(calls.map((call) => call.tool));
    for (const tool of necessary) useOf(key(tool)).necessary += 1;
    for (const { name } of toolsFor(scenario, "agent")) {
      const use = useOf(key(name));
      use.allowed += 1;
      if (!necessary.has(name)) use.allowed_unused += 1;
    }
  }
  return [...new Set([...uses.keys(), ...traced.keys()])]
    .map((key) => {
      const { pack, names } = splitPackKey(key);
      const { milestones, minefields } = traced.get(key);
      const row: ToolRow = { ...qualified(pack), tool: names[0] ?? "", ...(uses.get(key) ?? unused()), milestones, minefields };
      return { pack, row };
    })
    .sort(
      ranked(
        least(({ pack }) => packRank(pack)),
        most(({ row }) => row.necessary),
        most(({ row }) => row.milestones + row.minefields),
        most(({ row }) => row.allowed),
        least(({ pack, row }) => catalogRank(pack, row.tool)),
        alphabetical(({ row }) => row.tool),
      ),
    )
    .map(({ row }) => row);
}

function shapeStats(scenarios: readonly Scenario[]): ShapeStats {
  const calls = scenarios.flatMap(agentCalls);
  const turns = scenarios.flatMap((s) => s.reference);
  return {
    milestones: summarize(scenarios.map((s) => s.milestones.length)),
    minefields: summarize(scenarios.map((s) => s.minefields.length)),
    scenarios_with_minefields: scenarios.filter((s) => s.minefields.length > 0).length,
    milestone_edges: scenarios.reduce((n, s) => n + s.milestones.reduce((e, m) => e + m.after.length, 0), 0),
    branching_scenarios: scenarios.filter((s) => !isWrittenChain(s.milestones)).length,
    reference_tool_calls: calls.length,
    reference_parallel_turns: turns.filter((step) => step.kind === "agent_calls" && step.calls.length > 1).length,
  };
}

// What a set of scenarios covers, counted the way the ToolSandbox paper tabulates its suite
// (reference 1.8, 1.11, 7.1): scenarios per category, tools per scenario (allowed, and the ones
// the reference solution needs), and what the milestones and minefields check: which tools their
// golden traces name, which tables and columns their targets name, which constraint kinds and
// column measures they use, and what earlier state they compare with. Pure: resolved scenarios
// in, plain JSON-serialisable rows out, every list in a fixed order.
import { toolsFor } from "../episode/tool-calls.js";
import { CATEGORIES, type Category, type Constraint, type GoldenTrace, type Milestone, type Scenario } from "../scenario/model.js";
import { PACKS } from "../packs/registry.js";
import { packTables } from "../packs/tables.js";
import type { TableSchema } from "../world/types.js";
import { effectiveMeasures, measureFor } from "./measures/default-measures.js";

/**
 * How often one thing (a table, a column, a measure...) is checked. A milestone or minefield
 * counts once however many of its constraints involve the thing; `constraints` counts every
 * constraint that does, in milestones and minefields alike (upstream's per-namespace and
 * per-function totals are constraint counts).
 */
export interface Tally {
  readonly scenarios: number;
  readonly milestones: number;
  readonly minefields: number;
  readonly constraints: number;
}

export interface CategoryRow {
  readonly category: Category;
  readonly scenarios: number;
}

export interface ToolRow {
  readonly tool: string;
  /** Scenarios whose agent may call the tool (allow list, or every tool, minus the deny list). */
  readonly allowed: number;
  /** Scenarios whose reference solution calls the tool: the tools the task needs. */
  readonly necessary: number;
  /** Scenarios that allow the tool but whose reference solution does not call it (distractions). */
  readonly allowed_unused: number;
  /** Calls of the tool across every reference solution. */
  readonly reference_calls: number;
  /** Milestones and minefields with a golden tool trace naming the tool (SANDBOX targets). */
  readonly milestones: number;
  readonly minefields: number;
}

export interface TableRow extends Tally {
  readonly table: string;
}

export interface ColumnRow extends Tally {
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
  /** Rows with at least one scenario, most scenarios first, then in the category list's order. */
  readonly categories: readonly CategoryRow[];
  readonly uncategorized: number;
  readonly tools: readonly ToolRow[];
  readonly tables: readonly TableRow[];
  readonly columns: readonly ColumnRow[];
  readonly constraint_kinds: readonly ConstraintKindRow[];
  readonly measures: readonly MeasureRow[];
  readonly references: readonly ReferenceRow[];
  readonly shape: ShapeStats;
}

type Section = "milestones" | "minefields";

interface MutableTally {
  readonly scenarios: Set<number>;
  milestones: number;
  minefields: number;
  constraints: number;
}

/** Tallies keyed by a string; every add names the scenario and section it comes from. */
class TallyCounter {
  private readonly tallies = new Map<string, MutableTally>();

  /** One node (milestone or minefield): each key once for the node, once per constraint naming it. */
  addNode(scenario: number, section: Section, keysPerConstraint: readonly (readonly string[])[]): void {
    for (const keys of keysPerConstraint) for (const key of new Set(keys)) this.tally(key).constraints += 1;
    for (const key of new Set(keysPerConstraint.flat())) {
      const t = this.tally(key);
      t[section] += 1;
      t.scenarios.add(scenario);
    }
  }

  get(key: string): Tally {
    const t = this.tallies.get(key);
    return t ? { scenarios: t.scenarios.size, milestones: t.milestones, minefields: t.minefields, constraints: t.constraints } : ZERO;
  }

  keys(): string[] {
    return [...this.tallies.keys()];
  }

  private tally(key: string): MutableTally {
    let t = this.tallies.get(key);
    if (!t) {
      t = { scenarios: new Set(), milestones: 0, minefields: 0, constraints: 0 };
      this.tallies.set(key, t);
    }
    return t;
  }
}

const ZERO: Tally = { scenarios: 0, milestones: 0, minefields: 0, constraints: 0 };

const byCodeUnit = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

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

const COLUMN_SEPARATOR = "\u0000";

/** The scenario's world tables, for the default measures of their columns. */
type Schemas = ReadonlyMap<string, TableSchema>;

/** Each dimension as the keys one constraint contributes. */
const DIMENSIONS = {
  tools: goldenTools,
  tables: (c: Constraint) => [c.table],
  columns: (c: Constraint) => targetColumns(c).map((column) => `${c.table}${COLUMN_SEPARATOR}${column}`),
  kinds: (c: Constraint) => [c.kind],
  measures: (c: Constraint, schemas: Schemas) => columnMeasures(c, schemas).map((m) => m.measure),
  references: (c: Constraint) => [c.reference?.kind ?? "none"],
} satisfies Record<string, (c: Constraint, schemas: Schemas) => string[]>;

type Dimension = keyof typeof DIMENSIONS;

/** The measure each target column is compared with, and whether the scenario wrote it. */
function columnMeasures(c: Constraint, schemas: Schemas): { measure: string; written: boolean }[] {
  const measures = effectiveMeasures(c.table, c.measures, schemas.get(c.table));
  return targetColumns(c).map((column) => ({
    measure: measureFor(measures, column).kind,
    written: Object.prototype.hasOwnProperty.call(c.measures, column),
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

type Ranking<T> = (a: T, b: T) => number;
const most = <T>(count: (row: T) => number): Ranking<T> => (a, b) => count(b) - count(a);
const least = <T>(rank: (row: T) => number): Ranking<T> => (a, b) => rank(a) - rank(b);
const alphabetical = <T>(key: (row: T) => string): Ranking<T> => (a, b) => byCodeUnit(key(a), key(b));

/** The first ranking that tells two rows apart decides. */
function ranked<T>(...rankings: readonly Ranking<T>[]): Ranking<T> {
  return (a, b) => {
    for (const ranking of rankings) {
      const d = ranking(a, b);
      if (d !== 0) return d;
    }
    return 0;
  };
}

/** Every pack's tools in order, ToolSandbox's first. */
let toolOrder: readonly string[] | null = null;

/** The packs' order; a tool no pack knows (an older trajectory) comes after them. */
const catalogRank = (tool: string): number => {
  toolOrder ??= PACKS.flatMap((pack) => pack.tools.map((t) => t.name));
  const i = toolOrder.indexOf(tool);
  return i === -1 ? toolOrder.length : i;
};

export function scenarioStats(scenarios: readonly Scenario[]): ScenarioStats {
  const { counters, measureUses } = countConstraints(scenarios);
  const rows = <R>(dimension: Dimension, build: (key: string, tally: Tally) => R): R[] => {
    const counter = counters[dimension];
    return counter
      .keys()
      .sort(ranked(most((k) => counter.get(k).constraints), alphabetical((k) => k)))
      .map((k) => build(k, counter.get(k)));
  };
  return {
    scenarios: scenarios.length,
    categories: categoryRows(scenarios),
    uncategorized: scenarios.filter((s) => s.categories.length === 0).length,
    tools: toolRows(scenarios, counters.tools),
    tables: rows("tables", (table, t) => ({ table, ...t })),
    columns: rows("columns", (key, t) => {
      const [table = "", column = ""] = key.split(COLUMN_SEPARATOR);
      return { table, column, ...t };
    }),
    constraint_kinds: rows("kinds", (kind, t) => ({ kind: kind as Constraint["kind"], ...t })),
    measures: rows("measures", (measure, t) => {
      const m = measureUses.get(measure) ?? { uses: 0, written: 0 };
      return { measure, column_uses: m.uses, written: m.written, ...t };
    }),
    references: rows("references", (kind, t) => ({ compared_with: kind as ReferenceRow["compared_with"], ...t })),
    shape: shapeStats(scenarios),
  };
}

/** Every constraint of every milestone and minefield, tallied along each dimension. */
function countConstraints(scenarios: readonly Scenario[]): {
  counters: Record<Dimension, TallyCounter>;
  measureUses: Map<string, { uses: number; written: number }>;
} {
  const counters = Object.fromEntries(Object.keys(DIMENSIONS).map((d) => [d, new TallyCounter()])) as Record<Dimension, TallyCounter>;
  const measureUses = new Map<string, { uses: number; written: number }>();
  scenarios.forEach((scenario, index) => {
    const { schemas } = packTables(scenario.world.pack);
    for (const section of ["milestones", "minefields"] as const) {
      for (const node of scenario[section]) {
        for (const [dimension, keysOf] of Object.entries(DIMENSIONS) as [Dimension, (c: Constraint, schemas: Schemas) => string[]][]) {
          counters[dimension].addNode(index, section, node.constraints.map((c) => keysOf(c, schemas)));
        }
        for (const { measure, written } of node.constraints.flatMap((c) => columnMeasures(c, schemas))) {
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
    .sort(ranked(most((r) => r.scenarios), least((r) => CATEGORIES.indexOf(r.category))));
}

const agentCalls = (scenario: Scenario) => scenario.reference.flatMap((step) => (step.kind === "agent_calls" ? step.calls : []));

/** Tools from the reference solutions and the allow lists, plus the tools golden traces name. */
function toolRows(scenarios: readonly Scenario[], traced: TallyCounter): ToolRow[] {
  type Use = { allowed: number; necessary: number; allowed_unused: number; reference_calls: number };
  const uses = new Map<string, Use>();
  const useOf = (tool: string): Use => {
    const use = uses.get(tool) ?? { allowed: 0, necessary: 0, allowed_unused: 0, reference_calls: 0 };
    uses.set(tool, use);
    return use;
  };
  for (const scenario of scenarios) {
    const calls = agentCalls(scenario);
    for (const call of calls) useOf(call.tool).reference_calls += 1;
    const necessary = new Set(calls.map((call) => call.tool));
    for (const tool of necessary) useOf(tool).necessary += 1;
    for (const { name } of toolsFor(scenario, "agent")) {
      const use = useOf(name);
      use.allowed += 1;
      if (!necessary.has(name)) use.allowed_unused += 1;
    }
  }
  return [...new Set([...uses.keys(), ...traced.keys()])]
    .map((tool): ToolRow => {
      const { milestones, minefields } = traced.get(tool);
      return { tool, ...(uses.get(tool) ?? { allowed: 0, necessary: 0, allowed_unused: 0, reference_calls: 0 }), milestones, minefields };
    })
    .sort(
      ranked(
        most((r) => r.necessary),
        most((r) => r.milestones + r.minefields),
        most((r) => r.allowed),
        least((r) => catalogRank(r.tool)),
        alphabetical((r) => r.tool),
      ),
    );
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

// Milestones inferred from what a run did (docs/drafting.md):
// - one per world change (addition, removal or update on its table; an update names the row's key
//   and only the columns that changed), each column measured by what its value is: exact for ids,
//   numbers, booleans and enums, close within the clock's tolerance for timestamps, contains or
//   ROUGE-L for free text;
// - one per agent message that stated a value a tool had returned: `contains` on that value;
// - one per read whose result the run went on to use (a value passed on to a call that mattered,
//   or told to the user), on the tool alone: a read nothing used, a detour, gets none;
// - `after` edges only where the run shows a dependency: a call whose arguments use a value an
//   earlier call returned (data flow, followed through reads to the changes behind them), a call
//   that failed until some state changed (state dependency), and a change compared with the state
//   an earlier change of the same table left (the measures compare whole tables). Never mere order.
// Each milestone carries the sentence its YAML comment shows: what it was inferred from.
import type { JsonObject, JsonValue } from "../base/json.js";
import type { ToolDefinition } from "../tools/types.js";
import { changedColumns } from "../world/changes.js";
import { sameCell, sameRow } from "../world/cells.js";
import type { ColumnSchema, Row, RowChange, TableSchema } from "../world/types.js";
import type { RunCall, RunFacts } from "./run-facts.js";
import { saidBy, statedAs, type Telling, tellingLeaves } from "./values.js";
import { cellsText } from "./world-diff.js";

/** How far a timestamp may be from the run's and still match: the clock is frozen to the second, and agents compute times to the minute. */
const TIMESTAMP_TOLERANCE_SECONDS = 60;

/** At most this many values per message milestone: the most specific ones. */
const MAX_VALUES_PER_MESSAGE = 3;

export interface DraftMilestone {
  readonly id: string;
  readonly after: readonly string[];
  readonly constraints: readonly JsonObject[];
  /** World tables this node constrains (none for a message). */
  readonly tables: readonly string[];
  /** Tables the run changed that neither this node nor its predecessors constrain: left out of its guardrails. */
  exclude: readonly string[];
  /** The YAML comment: what it was inferred from. */
  readonly comment: string;
}

interface MilestoneContext {
  readonly facts: RunFacts;
  readonly schemas: ReadonlyMap<string, TableSchema>;
  readonly toolByName: (name: string) => ToolDefinition | undefined;
  readonly now: number;
  /** The 1-based reference step each kept call and agent text ended up in. */
  readonly stepOfCall: ReadonlyMap<RunCall, number>;
  readonly stepOfText: ReadonlyMap<number, number>;
}

interface Dependency {
  readonly ids: ReadonlySet<string>;
  readonly why: readonly string[];
}

export function inferMilestones(ctx: MilestoneContext): DraftMilestone[] {
  const { facts } = ctx;
  const milestones: DraftMilestone[] = [];
  const used = new Set<string>();
  const uniqueId = (base: string): string => {
    let id = base;
    for (let n = 2; used.has(id); n++) id = `${base}_${n}`;
    used.add(id);
    return id;
  };
  /** Milestones of each call's world changes. */
  const writes = new Map<RunCall, string[]>();
  /** The milestones a call's outcome depends on (through data flow and state). */
  const upstream = new Map<RunCall, Dependency>();
  const lastOnTable = new Map<string, string>();
  /** Keys the run's tools generated for rows they added: another seed draws others, so no milestone names them. */
  const generated = generatedKeys(facts, ctx.schemas);
  const stepText = (c: RunCall): string => {
    const step = ctx.stepOfCall.get(c);
    if (step === undefined) return `${c.tool} (${c.id})`;
    // Parallel calls' changes land together on the first answer: name every call of the step.
    const beside = [...ctx.stepOfCall]
      .filter(([other, s]) => s === step && ctx.toolByName(other.tool)?.action === true)
      .map(([other]) => other.tool);
    return beside.length > 1 && c.changes.length > 0
      ? `the parallel calls ${beside.join(", ")} (reference step ${step})`
      : `${c.tool} (reference step ${step})`;
  };
  /** What `c` leads back to: its own change milestones, or else what it depends on. */
  const behind = (c: RunCall): ReadonlySet<string> => {
    const own = writes.get(c) ?? [];
    return own.length > 0 ? new Set(own) : (upstream.get(c)?.ids ?? new Set());
  };

  const findings = messageFindings(facts, generated);
  const usedBy = readsUsed(facts, findings, stepText, ctx);

  for (const call of facts.calls) {
    const dependency = dependencyOf(call, facts, behind, stepText, ctx);
    upstream.set(call, dependency);
    const ids: string[] = [];
    for (const group of changeGroups(call.changes)) {
      const schema = ctx.schemas.get(group.table);
      if (!schema) continue;
      const previous = lastOnTable.get(group.table) ?? null;
      const id = uniqueId(`${VERB[group.op]}_${group.table.toLowerCase()}`);
      const after = new Set(dependency.ids);
      const why = [...dependency.why];
      if (previous !== null) {
        after.add(previous);
        why.push(`compared with the ${group.table} that ${previous} left, since both change that table`);
      }
      milestones.push(changeMilestone(id, group, schema, call, previous, [...after].sort(), why, stepText(call), generated, ctx));
      lastOnTable.set(group.table, id);
      ids.push(id);
    }
    const users = usedBy.get(call);
    if (ids.length === 0 && users !== undefined && ctx.stepOfCall.has(call)) {
      const id = uniqueId(`called_${call.tool}`);
      milestones.push({
        id,
        after: [...dependency.ids].sort(),
        constraints: [readConstraint(call.tool)],
        tables: [],
        exclude: [],
        comment: `${stepText(call)} returned what later steps used: ${[...users].join("; ")}. The tool is matched, not its arguments (what it returned decides the rest).${dependency.ids.size > 0 ? ` After ${[...dependency.ids].sort().join(", ")}: ${dependency.why.join("; ")}.` : ""}`,
      });
      ids.push(id);
    }
    writes.set(call, ids);
  }

  for (const { turn, chosen } of findings) {
    const after = new Set<string>();
    for (const f of chosen) for (const id of behind(f.from)) after.add(id);
    const step = ctx.stepOfText.get(turn.index);
    const sources = chosen.map((f) => `${JSON.stringify(f.value)} from ${stepText(f.from)}`).join(", ");
    milestones.push({
      id: uniqueId("told_user"),
      after: [...after].sort(),
      constraints: chosen.map((f) => messageConstraint(f.value, "contains")),
      tables: [],
      exclude: [],
      comment: `The agent's message${step === undefined ? "" : ` (reference step ${step})`} states what a tool returned: ${sources}; contains on each.${after.size > 0 ? ` After ${[...after].sort().join(", ")}: the values came from there.` : ""}`,
    });
  }

  if (milestones.length === 0) {
    const last = [...facts.turns].reverse().find((t) => t.kind === "agent_text" && t.text.trim().length > 0);
    if (last && last.kind === "agent_text") {
      const step = ctx.stepOfText.get(last.index);
      milestones.push({
        id: uniqueId("answered"),
        after: [],
        constraints: [messageConstraint(last.text, "rouge_l")],
        tables: [],
        exclude: [],
        comment: `The run changed nothing and stated no value a tool returned, so its last message${step === undefined ? "" : ` (reference step ${step})`} stands in, by ROUGE-L: say what a right answer must hold.`,
      });
    }
  }
  setGuardrails(milestones, facts);
  return milestones;
}

const VERB: Readonly<Record<RowChange["op"], string>> = { insert: "added", delete: "removed", update: "updated" };

interface MessageFinding {
  readonly turn: Extract<RunFacts["turns"][number], { kind: "agent_text" }>;
  /** The values it states, each with the call that returned it. */
  readonly chosen: readonly { readonly value: string; readonly from: RunCall }[];
}

/** Per agent message, the values it states that a tool returned (each value counted at its first statement). */
function messageFindings(facts: RunFacts, generated: ReadonlySet<Telling>): MessageFinding[] {
  const out: MessageFinding[] = [];
  const stated = new Set<Telling>();
  for (const turn of facts.turns) {
    if (turn.kind !== "agent_text") continue;
    const found: { value: string; from: RunCall }[] = [];
    for (const call of facts.calls) {
      if (call.responseIndex === null || call.responseIndex > turn.index || call.exception !== null) continue;
      for (const value of tellingLeaves(call.result)) {
        if (stated.has(value) || generated.has(value) || saidBy(facts.userTexts, value)) continue;
        const form = statedAs(turn.text, value);
        if (form !== null && !found.some((f) => f.value === form)) found.push({ value: form, from: call });
      }
    }
    // The most specific values: longest first; one inside another says nothing more.
    const chosen = found
      .sort((a, b) => b.value.length - a.value.length)
      .filter((f, i, all) => !all.slice(0, i).some((g) => g.value.includes(f.value)))
      .slice(0, MAX_VALUES_PER_MESSAGE);
    if (chosen.length === 0) continue;
    for (const f of chosen) stated.add(f.value);
    out.push({ turn, chosen });
  }
  return out;
}

/** The earlier successful calls whose results hold a value `call` passes (one the user did not say), with the argument. */
function flowSources(call: RunCall, facts: RunFacts): { readonly source: RunCall; readonly argument: string }[] {
  const earlier = facts.calls.filter((p) => p.exception === null && p.responseIndex !== null && p.responseIndex < call.requestIndex);
  const out: { source: RunCall; argument: string }[] = [];
  for (const [name, value] of Object.entries(call.arguments ?? {})) {
    for (const leaf of tellingLeaves(value)) {
      if (saidBy(facts.userTexts, leaf)) continue;
      const source = earlier.find((p) => tellingLeaves(p.result).some((r) => r === leaf));
      if (source && !out.some((o) => o.source === source && o.argument === name)) out.push({ source, argument: name });
    }
  }
  return out;
}

/**
 * The reads whose results the run went on to use, each with what used it: a value passed to a
 * call that changed the world or was itself used, or stated to the user. A read nothing used (a
 * detour) is not here, so no milestone asks for it.
 */
function readsUsed(
  facts: RunFacts,
  findings: readonly MessageFinding[],
  stepText: (c: RunCall) => string,
  ctx: MilestoneContext,
): Map<RunCall, Set<string>> {
  const usedBy = new Map<RunCall, Set<string>>();
  const note = (read: RunCall, why: string): void => {
    if (read.changes.length > 0 || ctx.toolByName(read.tool)?.action === true) return;
    usedBy.set(read, (usedBy.get(read) ?? new Set()).add(why));
  };
  for (const { turn, chosen } of findings) {
    const step = ctx.stepOfText.get(turn.index);
    for (const f of chosen)
      note(f.from, `${JSON.stringify(f.value)}, told to the user${step === undefined ? "" : ` (reference step ${step})`}`);
  }
  for (const call of [...facts.calls].reverse()) {
    if (call.exception !== null || (call.changes.length === 0 && !usedBy.has(call))) continue;
    for (const { source, argument } of flowSources(call, facts)) note(source, `the ${argument} of ${stepText(call)}`);
  }
  return usedBy;
}

function readConstraint(tool: string): JsonObject {
  return {
    kind: "snapshot",
    table: "SANDBOX",
    target: [{ sender: "execution_environment", recipient: "agent", tool_trace: { tool_name: tool, arguments: {} } }],
  };
}

/** Data flow (arguments that an earlier result returned) and state (a call that failed until the world changed). */
function dependencyOf(
  call: RunCall,
  facts: RunFacts,
  behind: (c: RunCall) => ReadonlySet<string>,
  stepText: (c: RunCall) => string,
  ctx: MilestoneContext,
): Dependency {
  const ids = new Set<string>();
  const why: string[] = [];
  for (const { source, argument } of flowSources(call, facts)) {
    const back = behind(source);
    for (const id of back) ids.add(id);
    if (back.size > 0) why.push(`its ${argument} came from what ${stepText(source)} returned`);
  }
  if (call.exception === null && call.responseIndex !== null) {
    // The last failure before this success: what changed after it is what made the call work.
    const failed = facts.calls
      .filter((p) => p.tool === call.tool && p.exception !== null && p.responseIndex !== null && p.responseIndex < call.requestIndex)
      .at(-1);
    if (failed) {
      const tables = new Set((ctx.toolByName(call.tool)?.stateDependencies ?? []).map((d) => d.table));
      for (const p of facts.calls) {
        if (p.responseIndex === null || p.responseIndex <= failed.responseIndex! || p.responseIndex >= call.requestIndex) continue;
        if (!p.changes.some((c) => tables.size === 0 || tables.has(c.table))) continue;
        const back = behind(p);
        for (const id of back) ids.add(id);
        if (back.size > 0) why.push(`${call.tool} failed until ${stepText(p)} changed the world`);
      }
    }
  }
  return { ids, why: [...new Set(why)] };
}

/**
 * The changes one answer carried, by table and kind: the measures compare a table's whole change
 * since the reference state, so changes that land together are one milestone (several target
 * rows), and two updates of one row (parallel setters on SETTING) are one row from first to last.
 */
interface ChangeGroup {
  readonly table: string;
  readonly op: RowChange["op"];
  readonly changes: RowChange[];
}

function changeGroups(changes: readonly RowChange[]): ChangeGroup[] {
  const groups: ChangeGroup[] = [];
  for (const change of changes) {
    let group = groups.find((g) => g.table === change.table && g.op === change.op);
    if (!group) {
      group = { table: change.table, op: change.op, changes: [] };
      groups.push(group);
    }
    const same = change.op === "update" ? group.changes.findIndex((c) => c.op === "update" && sameRow(c.new, change.old)) : -1;
    if (same >= 0) {
      const first = group.changes[same] as Extract<RowChange, { op: "update" }>;
      group.changes[same] = { ...first, new: (change as Extract<RowChange, { op: "update" }>).new };
    } else group.changes.push(change);
  }
  return groups;
}

function changeMilestone(
  id: string,
  group: ChangeGroup,
  schema: TableSchema,
  call: RunCall,
  previous: string | null,
  after: string[],
  why: readonly string[],
  step: string,
  generated: ReadonlySet<Telling>,
  ctx: MilestoneContext,
): DraftMilestone {
  const key = schema.key;
  const named = tellingLeaves(call.arguments as JsonValue);
  const rows: Row[] = [];
  const whats: string[] = [];
  for (const change of group.changes) {
    if (change.op === "insert") {
      // A key the call never named was generated by the tool: any value is right.
      const keyNamed = named.some((v) => sameCell(v, change.row[key]));
      rows.push(Object.fromEntries(Object.entries(change.row).filter(([c]) => c !== key || keyNamed)));
      whats.push(`added a ${schema.name} row${keyNamed ? "" : ` (its ${key} is generated, so it is left out)`}`);
    } else if (change.op === "delete") {
      // A row the run added is named by its columns, its generated key being no one's choice.
      const id = change.row[key] ?? null;
      rows.push(isGenerated(id, generated) ? Object.fromEntries(Object.entries(change.row).filter(([c]) => c !== key)) : { [key]: id });
      whats.push(`removed the ${schema.name} row ${String(change.row[key])}`);
    } else {
      const changed = changedColumns(change.old, change.new).filter((c) => c !== key);
      const id = change.new[key] ?? null;
      const cells = Object.fromEntries(changed.map((c) => [c, change.new[c] ?? null]));
      rows.push(isGenerated(id, generated) ? cells : { [key]: id, ...cells });
      whats.push(`changed ${changed.join(", ")} of the ${schema.name} row ${String(change.new[key])}`);
    }
  }
  const measures: Record<string, JsonValue> = {};
  const byKind = new Map<string, string[]>();
  for (const column of schema.columns) {
    const values = rows.filter((r) => column.name in r).map((r) => r[column.name] ?? null);
    if (values.length === 0) continue;
    const measure = measureOf(column, values);
    // Written when it is not what the table compares the column with anyway.
    if (measure.kind !== (column.freeText ? "rouge_l" : "exact")) measures[column.name] = measure;
    byKind.set(measureName(measure), [...(byKind.get(measureName(measure)) ?? []), column.name]);
  }
  const constraint: Record<string, JsonValue> = { kind: KIND[group.op], table: schema.name };
  if (previous !== null) constraint.reference = previous;
  constraint.target = rows.map((r) => cellsText(schema, r, ctx.now));
  if (Object.keys(measures).length > 0) constraint.measures = measures;
  const measured = [...byKind].map(([kind, columns]) => `${kind} on ${columns.join(", ")}`).join("; ");
  const because = why.length > 0 ? ` After ${after.join(", ")}: ${why.join("; ")}.` : "";
  return {
    id,
    after,
    constraints: [constraint],
    tables: [schema.name],
    exclude: [],
    comment: `${step} ${whats.join("; ")}. ${measured[0]?.toUpperCase()}${measured.slice(1)}.${because}`,
  };
}

const isGenerated = (value: unknown, generated: ReadonlySet<Telling>): boolean =>
  (typeof value === "string" || typeof value === "number") && generated.has(value);

function generatedKeys(facts: RunFacts, schemas: ReadonlyMap<string, TableSchema>): Set<Telling> {
  const out = new Set<Telling>();
  for (const call of facts.calls) {
    const named = tellingLeaves(call.arguments as JsonValue);
    for (const change of call.changes) {
      const key = schemas.get(change.table)?.key;
      if (change.op !== "insert" || key === undefined) continue;
      const id = change.row[key];
      if ((typeof id === "string" || typeof id === "number") && !named.some((v) => sameCell(v, id))) out.add(id);
    }
  }
  return out;
}

const KIND: Readonly<Record<RowChange["op"], string>> = { insert: "addition", delete: "removal", update: "update" };

/** A measure chosen by what the column's values are (one per target row). */
function measureOf(column: ColumnSchema, values: readonly unknown[]): JsonObject {
  if (column.timestamp && values.every((v) => typeof v === "number")) return { kind: "close", atol: TIMESTAMP_TOLERANCE_SECONDS };
  if (column.freeText && values.every((v) => typeof v === "string" && v.trim().length > 0))
    return values.every((v) => (v as string).trim().split(/\s+/).length <= 2) ? { kind: "contains" } : { kind: "rouge_l" };
  return { kind: "exact" };
}

function measureName(m: JsonObject): string {
  if (m.kind === "close") return `close (within ${String(m.atol)} s)`;
  if (m.kind === "rouge_l") return "ROUGE-L";
  return String(m.kind);
}

function messageConstraint(content: string, measure: "contains" | "rouge_l"): JsonObject {
  return {
    kind: "snapshot",
    table: "SANDBOX",
    target: [{ sender: "agent", recipient: "user", content }],
    measures: { content: { kind: measure } },
  };
}

/**
 * Guardrails watch the world tables a node and its predecessors leave unconstrained. The tables
 * this run changed elsewhere are another milestone's business, so each node leaves them out; any
 * table the run never touched stays watched (a wrong agent that writes there fails).
 */
function setGuardrails(milestones: DraftMilestone[], facts: RunFacts): void {
  const changed = new Set(facts.calls.flatMap((c) => c.changes.map((ch) => ch.table)));
  const byId = new Map(milestones.map((m) => [m.id, m]));
  for (const m of milestones) {
    const covered = new Set([...m.tables, ...m.after.flatMap((id) => byId.get(id)?.tables ?? [])]);
    m.exclude = [...changed].filter((t) => !covered.has(t)).sort();
  }
}

// How each column is compared when a constraint does not say (reference 5.4): exact match,
// except free text (ROUGE-L; a world column marked `freeText` in its pack's schema), the bus's
// call ids, function name and exception (ignored: the agent-facing name may be scrambled and ids
// are random) and tool traces (golden-trace match).
import type { ColumnMeasure, TableName } from "../../scenario/model.js";
import type { TableSchema } from "../../world/types.js";

const EXACT: ColumnMeasure = { kind: "exact" };
const ROUGE_L: ColumnMeasure = { kind: "rouge_l" };
const ANY: ColumnMeasure = { kind: "any" };
const TOOL_TRACE: ColumnMeasure = { kind: "tool_trace" };

type MeasureMap = Readonly<Record<string, ColumnMeasure>>;

function exactAll(columns: readonly string[], overrides: MeasureMap = {}): MeasureMap {
  return { ...Object.fromEntries(columns.map((c) => [c, EXACT])), ...overrides };
}

const SANDBOX_MEASURES: MeasureMap = exactAll(["sandbox_message_index", "sender", "recipient", "conversation_active", "visible_to"], {
  content: ROUGE_L,
  openai_tool_call_id: ANY,
  openai_function_name: ANY,
  tool_call_exception: ANY,
  tool_trace: TOOL_TRACE,
});

const bySchema = new WeakMap<TableSchema, MeasureMap>();
const NO_MEASURES: MeasureMap = {};

/** A table's default measures: SANDBOX's, or from the world table's schema (free text ROUGE-L, the rest exact). */
export function defaultMeasures(table: TableName, schema?: TableSchema): MeasureMap {
  if (!schema) return table === "SANDBOX" ? SANDBOX_MEASURES : NO_MEASURES;
  let measures = bySchema.get(schema);
  if (!measures) {
    const columns = schema.columns.map((c) => c.name);
    const free = schema.columns.filter((c) => c.freeText === true).map((c): [string, ColumnMeasure] => [c.name, ROUGE_L]);
    measures = exactAll(["sandbox_message_index", ...columns], Object.fromEntries(free));
    bySchema.set(schema, measures);
  }
  return measures;
}

/** Merged maps by the constraint's own measures, then by the defaults: a constraint is scored at hundreds of messages. */
const merged = new WeakMap<MeasureMap, WeakMap<MeasureMap, MeasureMap>>();

/** The table's defaults with the constraint's own measures merged over them (the same object for the same inputs; never modified). */
export function effectiveMeasures(table: TableName, own: MeasureMap, schema?: TableSchema): MeasureMap {
  const defaults = defaultMeasures(table, schema);
  if (typeof own !== "object" || own === null) return { ...defaults };
  let byDefaults = merged.get(own);
  if (!byDefaults) merged.set(own, (byDefaults = new WeakMap()));
  let measures = byDefaults.get(defaults);
  if (!measures) byDefaults.set(defaults, (measures = { ...defaults, ...own }));
  return measures;
}

/**
 * The measure for one column. Upstream fails on a column with no measure; here such a column
 * (only possible for a table outside the scenario's pack) is compared exactly.
 */
export function measureFor(measures: MeasureMap, column: string): ColumnMeasure {
  return measures[column] ?? EXACT;
}

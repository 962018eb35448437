// How each column is compared when a constraint does not say (reference 5.4): exact match,
// except free text (ROUGE-L), the bus's call ids, function name and exception (ignored: the
// agent-facing name may be scrambled and ids are random) and tool traces (golden-trace match).
import type { ColumnMeasure, TableName } from "../../scenario/model.js";

const EXACT: ColumnMeasure = { kind: "exact" };
const ROUGE_L: ColumnMeasure = { kind: "rouge_l" };
const ANY: ColumnMeasure = { kind: "any" };
const TOOL_TRACE: ColumnMeasure = { kind: "tool_trace" };

type MeasureMap = Readonly<Record<string, ColumnMeasure>>;

function exactAll(columns: readonly string[], overrides: MeasureMap = {}): MeasureMap {
  return { ...Object.fromEntries(columns.map((c) => [c, EXACT])), ...overrides };
}

export const DEFAULT_MEASURES: Readonly<Record<TableName, MeasureMap>> = {
  SANDBOX: exactAll(["sandbox_message_index", "sender", "recipient", "conversation_active", "visible_to"], {
    content: ROUGE_L,
    openai_tool_call_id: ANY,
    openai_function_name: ANY,
    tool_call_exception: ANY,
    tool_trace: TOOL_TRACE,
  }),
  SETTING: exactAll(["sandbox_message_index", "device_id", "cellular", "wifi", "location_service", "low_battery_mode", "latitude", "longitude"]),
  CONTACT: exactAll(["sandbox_message_index", "person_id", "name", "phone_number", "is_self"], { relationship: ROUGE_L }),
  MESSAGING: exactAll(
    ["sandbox_message_index", "message_id", "sender_person_id", "sender_phone_number", "recipient_person_id", "recipient_phone_number", "creation_timestamp"],
    { content: ROUGE_L },
  ),
  REMINDER: exactAll(["sandbox_message_index", "reminder_id", "creation_timestamp", "reminder_timestamp", "latitude", "longitude"], { content: ROUGE_L }),
};

/** The table's defaults with the constraint's own measures merged over them. */
export function effectiveMeasures(table: TableName, own: MeasureMap): MeasureMap {
  return { ...(DEFAULT_MEASURES[table] ?? {}), ...own };
}

/**
 * The measure for one column. Upstream fails on a column with no measure; here such a column
 * (only possible for tables outside the ToolSandbox pack) is compared exactly.
 */
export function measureFor(measures: MeasureMap, column: string): ColumnMeasure {
  return measures[column] ?? EXACT;
}

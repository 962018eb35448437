// The pieces of an imported scenario in the shape the YAML file has (docs/scenario-format.md),
// before they are written out: plain data, so each builder can be tested on its own.
import type { JsonObject, JsonValue } from "../../../base/json.js";
import type { Row } from "../../../world/types.js";

export interface ConstraintPart {
  readonly kind: "snapshot" | "addition" | "removal" | "update";
  readonly table: string;
  /** A milestone id or "initial"; left out for snapshots. */
  readonly reference?: string;
  readonly target: readonly JsonObject[];
  readonly measures?: Readonly<Record<string, JsonObject>>;
}

export interface NodePart {
  readonly id: string;
  readonly description: string;
  readonly after: readonly string[];
  /** World tables left out of the automatic guardrails. */
  readonly exclude?: readonly string[];
  readonly constraints: readonly ConstraintPart[];
}

/** A world row as a JSON object (list cells become arrays). */
export function rowJson(row: Row): JsonObject {
  const out: JsonObject = {};
  for (const [column, value] of Object.entries(row))
    out[column] = Array.isArray(value) ? [...(value as readonly string[])] : (value as JsonValue);
  return out;
}

/** A SANDBOX target row for the execution environment's answer carrying these golden traces. */
export function traceRow(alternatives: readonly { tool_name: string; arguments: JsonObject }[]): JsonObject {
  const traces = alternatives.map((a) => ({ tool_name: a.tool_name, arguments: a.arguments }));
  return {
    sender: "execution_environment",
    recipient: "agent",
    tool_trace: traces.length === 1 ? (traces[0] as JsonObject) : traces,
  };
}

// What the model reads after a ToolTalk call: `json.dumps({"response": ..., "exception": ...})` with
// Python's defaults (", " and ": " separators, every non-ASCII character escaped). JSON has one
// number type where Python has two; the tool's return schema says which numbers are floats
// (HistoricWeather's avg_rainfall 3.0 must print as 3.0), and anything else integral prints as an int.
import type { JsonObject, JsonValue } from "../../../base/json.js";
import { isJsonObject } from "../../../base/json.js";
import { pyFloatRepr, pyIntRepr } from "../../../python/repr.js";

function numberText(n: number, schema: JsonObject | undefined): string {
  if (Number.isNaN(n)) return "NaN";
  if (!Number.isFinite(n)) return n > 0 ? "Infinity" : "-Infinity";
  const types = schema?.type;
  const isFloat = types === "number" || (Array.isArray(types) && types.includes("number"));
  return isFloat || !Number.isInteger(n) ? pyFloatRepr(n) : pyIntRepr(n);
}

function asciiString(text: string): string {
  return JSON.stringify(text).replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

function subSchema(schema: JsonObject | undefined, key: "items" | string, inObject: boolean): JsonObject | undefined {
  if (!schema) return undefined;
  const holder = inObject ? schema.properties : schema;
  const child = isJsonObject(holder) ? holder[key] : undefined;
  return isJsonObject(child) ? child : undefined;
}

/** Python's `json.dumps(value)`, numbers typed by `schema` where it says. */
function pythonJsonDumps(value: JsonValue, schema?: JsonObject): string {
  if (value === null) return "null";
  if (typeof value === "boolean") return value ? "true" : "false";
  if (typeof value === "number") return numberText(value, schema);
  if (typeof value === "string") return asciiString(value);
  if (Array.isArray(value)) return `[${value.map((item) => pythonJsonDumps(item, subSchema(schema, "items", false))).join(", ")}]`;
  return `{${Object.entries(value)
    .map(([k, v]) => `${asciiString(k)}: ${pythonJsonDumps(v, subSchema(schema, k, true))}`)
    .join(", ")}}`;
}

/** The text of one call's outcome as ToolTalk's predictor shows it to the model. */
export function outcomeJson(response: JsonValue, exception: string | null, responseSchema: JsonObject): string {
  return `{"response": ${pythonJsonDumps(response, responseSchema)}, "exception": ${exception === null ? "null" : asciiString(exception)}}`;
}

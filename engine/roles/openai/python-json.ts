// JSON text as Python's json.dumps writes it with default arguments: ", " and ": " separators and
// every non-ASCII character escaped (ensure_ascii). Upstream re-serialises the agent's earlier
// tool-call arguments this way when it shows the agent its own history (reference 4.4).
import type { JsonValue } from "../../base/json.js";

export function pythonJsonDumps(value: JsonValue): string {
  if (value === null) return "null";
  if (typeof value === "boolean") return value ? "true" : "false";
  if (typeof value === "number") return numberText(value);
  if (typeof value === "string") return asciiString(value);
  if (Array.isArray(value)) return `[${value.map(pythonJsonDumps).join(", ")}]`;
  return `{${Object.entries(value)
    .map(([k, v]) => `${asciiString(k)}: ${pythonJsonDumps(v)}`)
    .join(", ")}}`;
}

/**
 * Python prints NaN and Infinity as bare words; JSON has no such numbers, and JavaScript's parser
 * never produces them, so they only arrive from code and are written the Python way.
 */
function numberText(n: number): string {
  if (Number.isNaN(n)) return "NaN";
  if (!Number.isFinite(n)) return n > 0 ? "Infinity" : "-Infinity";
  return JSON.stringify(n);
}

function asciiString(text: string): string {
  return JSON.stringify(text).replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

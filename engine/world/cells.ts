// Equality of world cells and rows. A cell may be a list (ToolTalk's attendees), which `===`
// would compare by identity; these compare lists element by element.
import type { JsonValue } from "../base/json.js";
import type { CellValue, Row } from "./types.js";

export function sameCell(a: CellValue | undefined, b: CellValue | undefined): boolean {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  return a.length === b.length && a.every((item, i) => item === b[i]);
}

/** Same columns (own keys only: rows come from files) with equal cells. */
export function sameRow(a: Row, b: Row): boolean {
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((k) => Object.hasOwn(b, k) && sameCell(a[k], b[k]));
}

/** A cell as a JSON value (a tool result): a list cell becomes a fresh mutable array. */
export function cellJson(value: CellValue | undefined): JsonValue {
  if (value === undefined) return null;
  return typeof value === "object" && value !== null ? [...value] : value;
}

// What a position in a scenario means beyond its JSON Schema: this mapping's keys are the columns
// of CONTACT, this value is a tool name, this one a milestone id that must be an ancestor. The
// schema only says "a string" or "any key"; completion and hover ask here first. Tables, columns
// and tools are those of the document's world pack.
import { isScalar } from "yaml";
import type { PathSegment } from "../../engine/scenario/yaml-source.js";
import type { ToolDefinition, ToolParameter } from "../../engine/tools/types.js";
import type { ScenarioDocument } from "./document.js";
import type { IdSection } from "./id-table.js";
import { pathKey } from "./line-structure.js";

export type ToolPurpose = "allow" | "deny" | "call" | "trace";
type ColumnPurpose = "row" | "where" | "set" | "target" | "measures";

/** What the keys of a mapping are. */
type KeySlot =
  /** The world section: `pack`, `base` and the pack's tables. */
  | { readonly kind: "world" }
  | { readonly kind: "column"; readonly table: string; readonly purpose: ColumnPurpose }
  | { readonly kind: "argument"; readonly tool: ToolDefinition; readonly purpose: "call" | "trace" };

/** What a scalar value is. */
type ValueSlot =
  | { readonly kind: "tool"; readonly purpose: ToolPurpose }
  /** A table name: a constraint's (SANDBOX allowed where the kind compares a message) or a guardrail list's. */
  | { readonly kind: "table"; readonly sandbox: boolean }
  | { readonly kind: "pack" }
  | { readonly kind: "column-value"; readonly table: string; readonly column: string; readonly purpose: ColumnPurpose }
  | { readonly kind: "argument-value"; readonly tool: ToolDefinition; readonly parameter: ToolParameter }
  | { readonly kind: "measure"; readonly table: string; readonly column: string }
  | { readonly kind: "after"; readonly section: IdSection; readonly node: number }
  | { readonly kind: "reference"; readonly section: IdSection; readonly node: number }
  | { readonly kind: "node-id"; readonly section: IdSection; readonly node: number }
  | { readonly kind: "constraint-kind" }
  | { readonly kind: "demonstration" }
  | { readonly kind: "extractor" }
  | { readonly kind: "timezone" }
  /** DialogTool's dialogue action of a reference `agent:` step. */
  | { readonly kind: "dialog-action" };

type P = readonly PathSegment[];

const isSection = (s: PathSegment | undefined): s is IdSection => s === "milestones" || s === "minefields";
const isIndex = (s: PathSegment | undefined): s is number => typeof s === "number";

export function keySlot(doc: ScenarioDocument, path: P): KeySlot | null {
  const [a, b, c, d, e] = path;
  if (a === "world" && path.length === 1) return { kind: "world" };
  if (a === "world" && typeof b === "string" && doc.pack.schemas.has(b)) {
    if (doc.pack.schemas.get(b)?.singleton && path.length === 2) return { kind: "column", table: b, purpose: "set" };
    if ((c === "add" || c === "replace") && isIndex(d) && path.length === 4) return { kind: "column", table: b, purpose: "row" };
    if ((c === "remove" || c === "update") && isIndex(d) && (e === "where" || e === "set") && path.length === 5)
      return { kind: "column", table: b, purpose: e };
    return null;
  }
  if (a === "reference" && isIndex(b) && c === "calls" && isIndex(d) && e === "arguments" && path.length === 5) {
    const tool = doc.pack.toolByName(writtenScalar(doc, [a, b, c, d, "tool"]) ?? "");
    return tool ? { kind: "argument", tool, purpose: "call" } : null;
  }
  const constraint = constraintPath(path);
  if (constraint === null) return null;
  const rest = path.slice(constraint.length);
  const table = constraintTable(doc, constraint);
  if (rest[0] === "target" && isIndex(rest[1]) && rest.length === 2) return table ? { kind: "column", table, purpose: "target" } : null;
  if (rest[0] === "measures" && rest.length === 1) return table ? { kind: "column", table, purpose: "measures" } : null;
  const trace = traceArgumentsPath(rest);
  if (trace !== null) {
    const tool = doc.pack.toolByName(writtenScalar(doc, [...constraint, ...trace, "tool_name"]) ?? "");
    return tool ? { kind: "argument", tool, purpose: "trace" } : null;
  }
  return null;
}

export function valueSlot(doc: ScenarioDocument, path: P): ValueSlot | null {
  const [a, b, c, d, e, f] = path;
  if (a === "tools" && (b === "allow" || b === "deny") && isIndex(c) && path.length === 3) return { kind: "tool", purpose: b };
  if (a === "clock" && b === "timezone" && path.length === 2) return { kind: "timezone" };
  if (a === "reference" && isIndex(b) && c === "action" && path.length === 3) return { kind: "dialog-action" };
  if (a === "world" && b === "pack" && path.length === 2) return { kind: "pack" };
  if (a === "user" && b === "demonstrations" && isIndex(c) && path.length === 3) return { kind: "demonstration" };
  if (a === "reference" && isIndex(b) && c === "calls" && isIndex(d)) {
    if (e === "tool" && path.length === 5) return { kind: "tool", purpose: "call" };
    if (e === "arguments" && typeof f === "string" && path.length === 6) return argumentValue(doc, [a, b, c, d, "tool"], f);
    // An item of an array argument (a list of strings) takes the values the argument would.
    if (e === "arguments" && typeof f === "string" && isIndex(path[6]) && path.length === 7) {
      const slot = argumentValue(doc, [a, b, c, d, "tool"], f);
      return slot?.kind === "argument-value" && slot.parameter.type === "array" ? slot : null;
    }
    return null;
  }
  if (isSection(a) && isIndex(b)) {
    if (c === "id" && path.length === 3) return { kind: "node-id", section: a, node: b };
    if (c === "after" && isIndex(d) && path.length === 4) return { kind: "after", section: a, node: b };
    if (c === "guardrails" && (d === "tables" || d === "exclude") && isIndex(e) && path.length === 5)
      return { kind: "table", sandbox: false };
  }
  // A value in a mapping whose keys are columns is that column's value.
  const parent = path.slice(0, -1);
  const last = path[path.length - 1];
  if (typeof last === "string") {
    const keys = keySlot(doc, parent);
    if (keys?.kind === "column" && keys.purpose !== "measures")
      return { kind: "column-value", table: keys.table, column: last, purpose: keys.purpose };
  }
  // An item of a list column (ToolTalk's attendees) takes the values the column's items would.
  const owner = path[path.length - 2];
  if (isIndex(last) && typeof owner === "string") {
    const keys = keySlot(doc, path.slice(0, -2));
    if (
      keys?.kind === "column" &&
      keys.purpose !== "measures" &&
      doc.pack.schemas.get(keys.table)?.columns.some((c) => c.name === owner && c.type === "string_list")
    ) {
      return { kind: "column-value", table: keys.table, column: owner, purpose: keys.purpose };
    }
  }
  const constraint = constraintPath(path);
  if (constraint === null || !isSection(a) || !isIndex(b)) return null;
  const rest = path.slice(constraint.length);
  if (rest.length === 1 && rest[0] === "reference") return { kind: "reference", section: a, node: b };
  if (rest.length === 1 && rest[0] === "kind") return { kind: "constraint-kind" };
  if (rest.length === 1 && rest[0] === "table") {
    // Only snapshot (and tool_trace_extract) constraints compare a message; a kind not written yet may be either.
    const kind = writtenScalar(doc, [...constraint, "kind"]);
    return { kind: "table", sandbox: kind !== "addition" && kind !== "removal" && kind !== "update" };
  }
  if (rest.length === 1 && rest[0] === "extractor") return { kind: "extractor" };
  if (rest.length === 3 && rest[0] === "measures" && typeof rest[1] === "string" && rest[2] === "kind") {
    const table = constraintTable(doc, constraint);
    return table ? { kind: "measure", table, column: rest[1] } : null;
  }
  if (rest.length === 4 && rest[0] === "target" && isIndex(rest[1]) && rest[2] === "visible_to" && isIndex(rest[3])) {
    return { kind: "column-value", table: "SANDBOX", column: "visible_to", purpose: "target" };
  }
  if (rest[0] === "target" && isIndex(rest[1]) && rest[2] === "tool_trace") {
    const trace = rest.slice(2);
    const name = trace[trace.length - 1];
    const depth = trace.length;
    if (name === "tool_name" && (depth === 2 || (depth === 3 && isIndex(trace[1])))) return { kind: "tool", purpose: "trace" };
    const args = traceArgumentsPath(rest.slice(0, -1));
    if (args !== null && typeof name === "string") return argumentValue(doc, [...constraint, ...args, "tool_name"], name);
    // An item of an array argument (SendEmail's `to`), as in a reference call.
    const owner = trace[trace.length - 2];
    const listArgs = traceArgumentsPath(rest.slice(0, -2));
    if (listArgs !== null && isIndex(name) && typeof owner === "string") {
      const slot = argumentValue(doc, [...constraint, ...listArgs, "tool_name"], owner);
      return slot?.kind === "argument-value" && slot.parameter.type === "array" ? slot : null;
    }
  }
  return null;
}

function argumentValue(doc: ScenarioDocument, toolPath: P, name: string): ValueSlot | null {
  const tool = doc.pack.toolByName(writtenScalar(doc, toolPath) ?? "");
  const parameter = tool?.parameters.find((p) => p.name === name);
  return tool && parameter ? { kind: "argument-value", tool, parameter } : null;
}

/** [section, i, "constraints", k] when the path runs through a constraint, else null. */
function constraintPath(path: P): P | null {
  const [a, b, c, d] = path;
  return isSection(a) && isIndex(b) && c === "constraints" && isIndex(d) ? path.slice(0, 4) : null;
}

/** The table a constraint's target rows describe (tool_trace_extract: always a SANDBOX message). */
function constraintTable(doc: ScenarioDocument, constraint: P): string | null {
  if (writtenScalar(doc, [...constraint, "kind"]) === "tool_trace_extract") return "SANDBOX";
  const table = writtenScalar(doc, [...constraint, "table"]);
  return table !== null && (doc.pack.schemas.has(table) || table === "SANDBOX") ? table : null;
}

/** ["target", r, "tool_trace", ("arguments" | n, "arguments")] → the trace's path without "arguments". */
function traceArgumentsPath(rest: P): P | null {
  const [t, r, tt, x, y] = rest;
  if (t !== "target" || !isIndex(r) || tt !== "tool_trace") return null;
  if (x === "arguments" && rest.length === 4) return rest.slice(0, 3);
  if (isIndex(x) && y === "arguments" && rest.length === 5) return rest.slice(0, 4);
  return null;
}

/**
 * The scalar written at a path: from the parsed tree, or when the tree is broken around the
 * cursor, from the text of the line that holds the key.
 */
export function writtenScalar(doc: ScenarioDocument, path: P): string | null {
  try {
    const found = doc.source.locate(path);
    if (found.complete && isScalar(found.node) && found.node.value !== null && found.node.value !== undefined) {
      return String(found.node.value);
    }
  } catch {
    // fall through to the text
  }
  const key = path[path.length - 1];
  if (typeof key !== "string") return null;
  const occurrences = doc.lines.keysByPath.get(pathKey(path.slice(0, -1))) ?? [];
  const written = occurrences.find((o) => o.name === key)?.value ?? "";
  return written.length > 0 && !/^[[{|>]/.test(written) ? written : null;
}

// Completion in the Debug Console (DAP `completions`): the word before the cursor, completed from
// what the console takes at the paused message. A bare word offers the names (message, index,
// turn, milestones, world, end, the world's tables) and the tools of the world, which the console
// calls on a copy of the world; after a dot, the fields of the value before it, or the columns of
// a table's rows. Nothing is run: the value before the dot is read as a Watch expression reads it.
import { packById } from "../packs/registry.js";
import { ColumnValues, parseExpression, type ExprValue } from "./expressions.js";
import type { DebugSession } from "./debug-session.js";

interface ConsoleCompletion {
  readonly label: string;
  readonly type: "variable" | "function" | "field" | "keyword";
  /** Where the replaced word starts in the line (0-based) and how long it is. */
  readonly start: number;
  readonly length: number;
}

/** The candidates for the word ending at `column` (0-based) of `text`. */
export function consoleCompletions(session: DebugSession, text: string, column: number): ConsoleCompletion[] {
  const before = text.slice(0, Math.max(0, Math.min(column, text.length)));
  // `PATH.word` (a path such as `SETTING` or `message.tool_trace[0]`, a dot, the word typed) or a bare word.
  const m = /(?:([A-Za-z_][A-Za-z0-9_]*(?:\[\d+\])*(?:\.[A-Za-z_][A-Za-z0-9_]*(?:\[\d+\])*)*)\.)?([A-Za-z_][A-Za-z0-9_]*)?$/.exec(before);
  const path = m?.[1];
  const word = m?.[2] ?? "";
  const start = before.length - word.length;
  const candidates = path !== undefined ? fieldNames(session, path) : rootNames(session);
  const prefix = word.toLowerCase();
  return candidates
    .filter((c) => c.label.toLowerCase().startsWith(prefix) && c.label !== word)
    .map((c) => ({ ...c, start, length: word.length }));
}

type Candidate = Pick<ConsoleCompletion, "label" | "type">;

/** The names a line may start with at the current message (the resolver's, the tables, the tools). */
export function consoleNames(session: DebugSession): string[] {
  return rootNames(session).map((c) => c.label);
}

function rootNames(session: DebugSession): Candidate[] {
  const names: Candidate[] = ["message", "index", "turn", "milestones", "world", "end"].map((label) => ({ label, type: "variable" }));
  for (const table of Object.keys(session.worldAt(session.messageIndex))) names.push({ label: table, type: "variable" });
  const tools = [...packById(session.timeline.scenario.world.pack).tools.map((t) => t.name), "end_conversation"];
  for (const tool of tools) names.push({ label: tool, type: "function" });
  return names;
}

function fieldNames(session: DebugSession, path: string): Candidate[] {
  let value: ExprValue;
  try {
    value = parseExpression(path).evaluate(session.resolver(session.messageIndex));
  } catch {
    return [];
  }
  return fieldsOf(value).map((label) => ({ label, type: "field" }));
}

/** What may follow `value.`: a record's keys, the columns of a table's rows, a list's `length`. */
function fieldsOf(value: ExprValue): string[] {
  if (value instanceof ColumnValues) return [...new Set(value.values.flatMap((v) => fieldsOf(v)))];
  if (Array.isArray(value)) {
    const columns = new Set<string>();
    for (const row of value as readonly ExprValue[]) {
      if (row !== null && typeof row === "object" && !Array.isArray(row) && !(row instanceof ColumnValues)) {
        for (const key of Object.keys(row)) columns.add(key);
      }
    }
    return [...columns, "length"];
  }
  if (value !== null && typeof value === "object") return Object.keys(value);
  if (typeof value === "string") return ["length"];
  return [];
}

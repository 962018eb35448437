// Completion of a tool-call line as it is typed (`toolsandbox play --as agent`, node:readline's
// completer): the tool names at the start, then the names of the tool's arguments not given yet,
// then after `name=` the values the world holds in columns of that name (and True/False for a
// boolean). Every candidate begins with the text it completes, as readline inserts only the rest.
import type { CellValue, Tables } from "../world/types.js";
import type { ToolParameter } from "./types.js";

/** A tool as the person calls it: the name they type (scrambled or not) and its parameters. */
export interface CompletableTool {
  readonly name: string;
  readonly parameters: readonly ToolParameter[];
}

interface LineCompletion {
  /** Candidates that begin with `fragment`, sorted. */
  readonly candidates: readonly string[];
  /** The end of the line they complete. */
  readonly fragment: string;
}

/** At most this many values of one argument are offered: a long table should not flood the terminal. */
const MAX_VALUES = 50;

/** The completions of `line` (the text left of the cursor) among `tools` and the values of `world`. */
export function completeCallLine(
  line: string,
  tools: readonly CompletableTool[],
  world: Tables,
  commands: readonly string[] = [],
): LineCompletion {
  const open = line.indexOf("(");
  if (open === -1) {
    const fragment = line.trimStart();
    const names = fragment.startsWith("/") ? commands : tools.map((t) => `${t.name}(`);
    return { candidates: names.filter((n) => n.startsWith(fragment)).sort(), fragment };
  }
  const tool = tools.find((t) => t.name === line.slice(0, open).trim());
  if (tool === undefined) return { candidates: [], fragment: "" };
  const segments = topLevelSegments(line.slice(open + 1));
  if (segments === null) return { candidates: [], fragment: "" };
  const current = segments[segments.length - 1]!;
  const equals = current.indexOf("=");
  if (equals === -1) {
    const fragment = current.trimStart();
    const given = new Set(segments.slice(0, -1).map((s) => s.slice(0, s.indexOf("=")).trim()));
    const names = tool.parameters.filter((p) => !given.has(p.name)).map((p) => `${p.name}=`);
    return { candidates: names.filter((n) => n.startsWith(fragment)).sort(), fragment };
  }
  const parameter = tool.parameters.find((p) => p.name === current.slice(0, equals).trim());
  const fragment = current.slice(equals + 1).trimStart();
  if (parameter === undefined) return { candidates: [], fragment };
  const values = parameter.type === "boolean" ? ["True", "False"] : worldValues(parameter, world);
  return { candidates: values.filter((v) => v.startsWith(fragment)), fragment };
}

/**
 * The argument text split at its top-level commas (none inside a string, list or object); the
 * last segment is the one being typed. Null once the call's closing parenthesis has been typed.
 */
function topLevelSegments(text: string): string[] | null {
  const segments: string[] = [];
  let depth = 0;
  let quote: string | null = null;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quote !== null) {
      if (c === "\\") i++;
      else if (c === quote) quote = null;
    } else if (c === '"' || c === "'") quote = c;
    else if (c === "[" || c === "{") depth++;
    else if (c === "]" || c === "}") depth--;
    else if (c === ")" && depth === 0) return null;
    else if (c === "," && depth === 0) {
      segments.push(text.slice(start, i));
      start = i + 1;
    }
  }
  segments.push(text.slice(start));
  return segments;
}

/**
 * The values the world holds for an argument, as literals: the cells of every column named like
 * it (`phone_number` also finds `recipient_phone_number`), strings quoted, distinct and sorted.
 */
function worldValues(parameter: ToolParameter, world: Tables): string[] {
  return worldCellTexts(parameter, world, (cell) => cellLiteral(cell, parameter));
}

/**
 * The same values as a form field takes them (the panel's play form, engine/panel/play-form.ts):
 * strings as they are, numbers and lists as JSON text.
 */
export function worldValueTexts(parameter: ToolParameter, world: Tables): string[] {
  return worldCellTexts(parameter, world, (cell) => {
    const literal = cellLiteral(cell, parameter);
    return literal !== null && typeof cell === "string" ? cell : literal;
  });
}

function worldCellTexts(parameter: ToolParameter, world: Tables, text: (cell: CellValue) => string | null): string[] {
  const found = new Set<string>();
  for (const rows of Object.values(world)) {
    for (const row of rows) {
      for (const [column, cell] of Object.entries(row)) {
        if (column !== parameter.name && !column.endsWith(`_${parameter.name}`)) continue;
        const shown = text(cell);
        if (shown !== null) found.add(shown);
      }
    }
  }
  return [...found].sort().slice(0, MAX_VALUES);
}

function cellLiteral(cell: CellValue, parameter: ToolParameter): string | null {
  if (cell === null) return null;
  if (typeof cell === "string") return parameter.type === "string" ? JSON.stringify(cell) : null;
  if (typeof cell === "number") return parameter.type === "number" || parameter.type === "integer" ? String(cell) : null;
  if (typeof cell === "boolean") return null;
  return parameter.type === "array" ? JSON.stringify(cell) : null;
}

// Markdown about the things a scenario names: tools and tables (from the document's world pack),
// table columns, column measures and constraint kinds. Completion documentation and hover share
// these texts.
import { defaultMeasures } from "../../engine/evaluation/measures/default-measures.js";
import type { PackTables } from "../../engine/packs/types.js";
import type { ColumnMeasure } from "../../engine/scenario/model.js";
import { parseDocstring } from "../../engine/tools/openai-schema.js";
import type { ToolDefinition, ToolParameter } from "../../engine/tools/types.js";
import type { ColumnSchema, TableSchema } from "../../engine/world/types.js";

/** `name(a: string, b?: number = null) -> string`: how a tool is called. */
export function toolSignature(tool: ToolDefinition): string {
  const params = tool.parameters.map(parameterSignature).join(", ");
  const returns = typeof tool.returns.schema.type === "string" ? tool.returns.schema.type : "value";
  return `${tool.name}(${params}) -> ${returns}`;
}

/** A parameter's type as the docs show it: "array" is always a list of strings. */
export function parameterType(p: ToolParameter): string {
  return `${p.type === "array" ? "string[]" : p.type}${p.nullable ? " | null" : ""}`;
}

function parameterSignature(p: ToolParameter): string {
  const type = parameterType(p);
  const optional = p.required ? "" : "?";
  const fallback = p.default !== undefined ? ` = ${JSON.stringify(p.default)}` : "";
  return `${p.name}${optional}: ${type}${fallback}`;
}

function toolDescription(tool: ToolDefinition): string {
  return parseDocstring(tool.docstring).description;
}

/**
 * Signature, description, who may call it, the state it needs and the errors it can raise.
 * `transactional`: the pack asks for the user's confirmation before it is called (DialogTool).
 */
export function toolMarkdown(tool: ToolDefinition, transactional = false): string {
  const parts = [codeBlock(toolSignature(tool)), toolDescription(tool)];
  const facts = [`${tool.domain} tool`, tool.action ? "changes the world" : "reads only"];
  if (transactional) facts.push("transactional: confirm with the user before calling it");
  if (!tool.visibleTo.includes("agent")) facts.push("user only");
  if (tool.webBacked) facts.push("answers from the offline web data");
  parts.push(`*${facts.join(" · ")}*`);
  if (tool.parameters.length > 0) {
    parts.push(
      [
        "**Arguments**",
        ...tool.parameters.map(
          (p) => `- \`${parameterSignature(p)}\`${p.timestamp ? " (time expressions allowed)" : ""}: ${p.description}`,
        ),
      ].join("\n"),
    );
  }
  if (tool.stateDependencies.length > 0) {
    const lines = tool.stateDependencies.map((d) => {
      const when = d.when === undefined ? "" : ` (${d.when})`;
      return `- \`${d.table}.${d.column}\` must be \`${String(d.value)}\`${when}; otherwise \`${d.error}\``;
    });
    parts.push(["**State dependencies**", ...lines].join("\n"));
  }
  if (tool.errors.length > 0) parts.push(["**Errors it can raise**", ...tool.errors.map((e) => `- \`${e}\``)].join("\n"));
  return parts.filter((p) => p.length > 0).join("\n\n");
}

export function parameterMarkdown(tool: ToolDefinition, p: ToolParameter): string {
  const notes = [p.required ? "required" : "optional"];
  if (p.timestamp) notes.push("POSIX seconds; time expressions such as `tomorrow 17:00` or `next friday 17:00` are allowed");
  return [codeBlock(parameterSignature(p)), p.description, `*Argument of \`${tool.name}\` · ${notes.join(" · ")}*`].join("\n\n");
}

/** The message bus (SANDBOX) columns a target may name, described in our words. */
const SANDBOX_COLUMN_DOCS: Readonly<Record<string, { type: string; description: string }>> = {
  sandbox_message_index: { type: "int", description: "Position of the message in the conversation, from 0." },
  sender: { type: "role", description: "Who sent the message: system, user, agent or execution_environment." },
  recipient: { type: "role", description: "Who the message is addressed to." },
  content: { type: "string", description: "Text of the message (for a tool result: the result as the agent reads it)." },
  openai_tool_call_id: { type: "string | null", description: "Id the model gave the tool call this message carries or answers." },
  openai_function_name: { type: "string | null", description: "Function name as the model saw it (possibly scrambled)." },
  conversation_active: { type: "bool", description: "False once the conversation has ended." },
  tool_call_exception: { type: "string | null", description: "The error a tool raised, as the agent saw it." },
  tool_trace: {
    type: "tool traces",
    description: "The tool calls the message holds; a target gives a golden trace or a list of alternatives.",
  },
  visible_to: { type: "list of roles", description: "The roles that see the message." },
};

/** Columns of a table (of `pack`, or SANDBOX) a target, `where`, `set` or new row may name, with type and description. */
export function tableColumns(
  pack: PackTables,
  table: string,
): Array<{ name: string; type: string; description: string; column?: ColumnSchema }> {
  if (table === "SANDBOX") return Object.entries(SANDBOX_COLUMN_DOCS).map(([name, d]) => ({ name, ...d }));
  const schema = pack.schemas.get(table);
  if (!schema) return [];
  return schema.columns.map((c) => ({ name: c.name, type: columnType(c), description: c.description, column: c }));
}

function columnType(c: ColumnSchema): string {
  const base = c.timestamp ? "float (POSIX seconds)" : c.type === "string_list" ? "list of strings" : c.type;
  return c.nullable ? `${base} | null` : base;
}

/** A world table: what it holds, its key, its columns; or the message bus. */
export function tableMarkdown(pack: PackTables, table: string): string | null {
  if (table === "SANDBOX")
    return "**SANDBOX** (the message bus)\n\nEvery message of the conversation as a row; a target describes the one message at the matched index.";
  const schema: TableSchema | undefined = pack.schemas.get(table);
  if (!schema) return null;
  const shape = schema.singleton ? "always exactly one row" : `key \`${schema.key}\``;
  const columns = schema.columns.map((c) => `- \`${c.name}\`: ${columnType(c)}`);
  return [`**${schema.name}** (${pack.id} table · ${shape})`, schema.description, ["**Columns**", ...columns].join("\n")].join("\n\n");
}

export function columnMarkdown(pack: PackTables, table: string, name: string): string | null {
  const column = tableColumns(pack, table).find((c) => c.name === name);
  if (!column) return null;
  const measure = defaultMeasures(table, pack.schemas.get(table))[name]?.kind;
  const notes = [`Column of ${table}`];
  if (column.column?.timestamp) notes.push("time expressions such as `now - 1h` are allowed");
  if (measure !== undefined) notes.push(`compared with \`${measure}\` unless \`measures\` says otherwise`);
  return [codeBlock(`${table}.${name}: ${column.type}`), column.description, `*${notes.join(" · ")}*`].join("\n\n");
}

/** What each column measure does, in one paragraph. */
export const MEASURE_DOCS: Readonly<Record<ColumnMeasure["kind"], string>> = {
  exact:
    "Scores 1 when the cell equals the expected value and 0 otherwise. Expecting null asks for an empty cell. " +
    "An empty cell compared with a non-null expectation is left out of the row's score altogether (neither helps nor hurts), as upstream's table comparison does.",
  close:
    "For numbers: scores 1 when the cell is within `atol` of the expected value (|cell − expected| ≤ atol), else 0. " +
    "Use it for coordinates, temperatures and other values a tool may round differently.",
  contains:
    "For text: scores 1 when the cell contains the expected text as a literal, case-sensitive substring, else 0. " +
    "Handy when only a key phrase of a message matters. For a list of strings: scores 1 when the cell's list holds every expected item.",
  rouge_l:
    "For free text: the ROUGE-L F-measure between the expected text and the cell, a score in [0, 1] that grows with the longest run of words the two share in order. " +
    "This is the default for free-text columns such as message content, so wording may differ and still score well. It does not fit a list of strings.",
  any: "Ignores the column: it always scores 1. Use it for values that are random or irrelevant, such as call ids.",
  tool_trace:
    "For a message's tool calls: scores 1 when some call in the message matches one of the golden traces (same tool, and every argument the golden trace lists equal to the call's), else 0. " +
    "Arguments the golden trace leaves out are not checked; `atol` gives a numeric tolerance per argument.",
};

/** Which measures make sense for a column, by what it holds. */
export function measuresFor(pack: PackTables, table: string, column: string): ColumnMeasure["kind"][] {
  const doc = tableColumns(pack, table).find((c) => c.name === column);
  if (!doc) return ["exact", "close", "contains", "rouge_l", "any", "tool_trace"];
  if (column === "tool_trace") return ["tool_trace", "any"];
  const type = doc.column?.type ?? doc.type;
  if (type === "float" || type === "int") return ["exact", "close", "any"];
  if (type === "string_list") return ["exact", "contains", "any"];
  if (type.startsWith("string")) return ["exact", "contains", "rouge_l", "any"];
  return ["exact", "any"];
}

export const CONSTRAINT_KIND_DOCS: Readonly<Record<string, string>> = {
  snapshot: "The table at the matched message looks like the target (on SANDBOX: the one message at that index).",
  addition: "Compared with the reference state (default `initial`), exactly the target rows were added.",
  removal: "Compared with the reference state (default `initial`), exactly the target rows were removed.",
  update: "Compared with the reference state (default `initial`), exactly the target rows were changed.",
  tool_trace_extract:
    "Values are read from the tool traces of the message the `reference` milestone matched, filled into the target, then compared.",
};

function codeBlock(text: string): string {
  return ["```", text, "```"].join("\n");
}

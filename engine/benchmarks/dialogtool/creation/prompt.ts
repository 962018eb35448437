// What the model is given to write a tool (DialogTool's input: the full description, the
// arguments, the returns, one demonstration), in our words, and how its code is read back from
// the reply. The first line of the system message is the marker mock-llm recognises.
import type { ChatCompletionMessageParam } from "openai/resources/chat/completions";
import type { ToolDefinition } from "../../../tools/types.js";
import type { TableSchema } from "../../../world/types.js";
import type { ToolCase } from "./cases.js";
import { exceptionClass } from "./cases.js";

export const TOOL_CREATION_MARKER = "Task: tool creation.";

const SYSTEM = `${TOOL_CREATION_MARKER}
You write one Python function that implements a tool of a simulated phone, from the tool's
documentation. Answer with the function in a single \`\`\`python code block.

The contract the function follows:
- It is named after the tool and takes \`world\` first, then the tool's arguments as keyword
  parameters with the defaults the documentation gives: \`def <tool name>(world, <arguments>)\`.
- \`world\` is a dict. Each table the tool reads or writes is a key holding a list of rows, each
  row a dict from column name to value. \`world["now"]\` is the current time in POSIX seconds, and
  the time zone is UTC. A new row takes its id from \`world["new_ids"].pop(0)\`.
- It returns what the tool returns, as JSON values (None, bool, int, float, str, list, dict), and
  changes \`world\` in place as the tool does.
- Where the tool fails, it raises an exception of the class the documentation names (define a
  class of that name when Python has none).
- Only Python's standard library is there; files, the network and processes are not.`;

function argumentLines(tool: ToolDefinition): string[] {
  if (tool.parameters.length === 0) return ["(none)"];
  return tool.parameters.map((p) => {
    const optional = p.required
      ? "required"
      : p.default !== undefined
        ? `optional, default ${JSON.stringify(p.default)}`
        : "optional, may be left out";
    return `- ${p.name} (${p.type}${p.nullable ? " or null" : ""}, ${optional}): ${p.description}`;
  });
}

function tableLines(names: readonly string[], schemas: ReadonlyMap<string, TableSchema>): string[] {
  if (names.length === 0) return ["(none: world holds only now and new_ids)"];
  return names.map((name) => {
    const schema = schemas.get(name);
    const columns = schema?.columns.map((c) => `${c.name} (${c.type}${c.nullable ? ", may be null" : ""})`).join(", ") ?? "";
    return `- ${name}: ${schema?.description ?? ""} Columns: ${columns}.`;
  });
}

/** DialogTool's demonstration: one valid case, shown as a call and what it did. */
function demonstration(tool: ToolDefinition, example: ToolCase): string[] {
  const lines = [`world = ${JSON.stringify(example.world)}`, `${tool.name}(world, **${JSON.stringify(example.arguments)})`];
  if (example.expected.kind === "returned") {
    lines.push(`returns ${JSON.stringify(example.expected.result)}`);
    const changed = JSON.stringify(example.expected.world) !== JSON.stringify(example.world);
    lines.push(changed ? `and world is then ${JSON.stringify(example.expected.world)}` : "and world is unchanged");
  }
  return lines;
}

interface CreationPromptInput {
  readonly tool: ToolDefinition;
  readonly tables: readonly string[];
  readonly schemas: ReadonlyMap<string, TableSchema>;
  readonly example: ToolCase;
  /** The pack's own rules, after the common contract (ToolTalk's login session). */
  readonly rules?: string;
  /** Lines about the tool the pack adds after its name ("Needs a login: yes"). */
  readonly notes?: readonly string[];
}

export function creationMessages(input: CreationPromptInput): ChatCompletionMessageParam[] {
  const { tool } = input;
  const errors = tool.errors.map((e) => {
    const colon = e.indexOf(": ");
    return colon < 0 ? `- ${e}` : `- ${exceptionClass(e.slice(0, colon))}: ${e.slice(colon + 2)}`;
  });
  const user = [
    `Tool name: ${tool.name}`,
    ...(input.notes ?? []),
    "",
    "Documentation:",
    tool.docstring,
    "",
    "Arguments:",
    ...argumentLines(tool),
    "",
    `Returns: ${tool.returns.description} (JSON Schema ${JSON.stringify(tool.returns.schema)})`,
    "",
    "Errors it raises (class: message, where … stands for a variable part):",
    ...(errors.length > 0 ? errors : ["(none)"]),
    "",
    "Tables in world:",
    ...tableLines(input.tables, input.schemas),
    "",
    "An example call:",
    ...demonstration(tool, input.example),
  ].join("\n");
  return [
    { role: "system", content: input.rules === undefined ? SYSTEM : `${SYSTEM}\n\n${input.rules}` },
    { role: "user", content: user },
  ];
}

/** The code of a reply: its first ```python block, else its first ``` block; null when it has neither. */
export function codeOfReply(reply: string): string | null {
  const blocks = [...reply.matchAll(/```([A-Za-z0-9_+-]*)[^\n]*\n([\s\S]*?)```/g)];
  const python = blocks.find((b) => (b[1] ?? "").toLowerCase() === "python" || (b[1] ?? "").toLowerCase() === "py");
  const block = python ?? blocks[0];
  return block ? (block[2] ?? "") : null;
}

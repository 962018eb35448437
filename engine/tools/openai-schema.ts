// OpenAI function-calling schemas of tools, derived the way upstream's tool_conversion.py derives
// them (reference 3.7) from a Google-style docstring and the parameter list:
// - description: the docstring's blank-line-separated blocks before the first "Args:",
//   "Returns:" or "Example:" block, joined by one space (line breaks inside a block are kept);
// - argument descriptions: from the "Args:" block, one `name: text` line per argument, a line
//   without a colon continuing the previous argument after a space;
// - types: string / integer / number / boolean / array (of strings, with `items` saying so), or
//   no type key when the type is unknown (the arg-type scrambling augmentation passes
//   `type: null`); a property is emitted when it has a type or a description;
// - required: the parameters without a default. No additionalProperties, no strict flag.
// It is a pure function of the docstring and the parameters, so the augmentations (scrambled tool
// names, descriptions, argument descriptions and types) can feed it modified inputs.
import type { ParamType, ToolDefinition } from "./types.js";

/** A property as upstream writes it; an array parameter (a list of strings) also gets `items`. */
export type OpenAiProperty = { type?: ParamType; items?: { type: "string" }; description?: string };

export type OpenAiToolSchema = {
  type: "function";
  function: {
    name: string;
    description: string;
    parameters: { type: "object"; properties: Record<string, OpenAiProperty>; required: string[] };
  };
};

interface SchemaParameter {
  readonly name: string;
  /** null: no type key (upstream's NoneType annotation after arg-type scrambling). */
  readonly type: ParamType | null;
  readonly required: boolean;
}

interface SchemaSource {
  /** The name the model sees (possibly scrambled). */
  readonly name: string;
  readonly docstring: string;
  readonly parameters: readonly SchemaParameter[];
}

interface ParsedDocstring {
  readonly description: string;
  /** Argument name -> description, in the order of the Args: block. */
  readonly args: ReadonlyMap<string, string>;
}

export function parseDocstring(docstring: string): ParsedDocstring {
  const descriptors: string[] = [];
  let argsBlock: string | undefined;
  let pastDescription = false;
  for (const block of docstring.split("\n\n")) {
    if (block.startsWith("Args:")) {
      argsBlock = block;
      break;
    }
    // Upstream keeps looking for Args: after Returns:/Example:, but stops collecting description.
    if (block.startsWith("Returns:") || block.startsWith("Example:")) pastDescription = true;
    else if (!pastDescription) descriptors.push(block);
  }
  const args = new Map<string, string>();
  if (argsBlock !== undefined) {
    let current: string | undefined;
    for (const line of argsBlock.split("\n").slice(1)) {
      const colon = line.indexOf(":");
      if (colon >= 0) {
        current = line.slice(0, colon).trim();
        args.set(current, line.slice(colon + 1).trim());
      } else if (current) {
        args.set(current, `${args.get(current) ?? ""} ${line.trim()}`);
      }
    }
  }
  return { description: descriptors.join(" "), args };
}

export function openAiToolSchemaFrom(source: SchemaSource): OpenAiToolSchema {
  const { description, args } = parseDocstring(source.docstring);
  const properties: Record<string, OpenAiProperty> = {};
  for (const p of source.parameters) {
    const property: OpenAiProperty = {};
    if (p.type !== null) property.type = p.type;
    if (p.type === "array") property.items = { type: "string" };
    const text = args.get(p.name);
    if (text !== undefined) property.description = text;
    if (property.type !== undefined || property.description !== undefined) properties[p.name] = property;
  }
  return {
    type: "function",
    function: {
      name: source.name,
      description,
      parameters: { type: "object", properties, required: source.parameters.filter((p) => p.required).map((p) => p.name) },
    },
  };
}

/** The schema of a catalog tool as the agent sees it without augmentations. */
export function openAiToolSchema(def: ToolDefinition): OpenAiToolSchema {
  return openAiToolSchemaFrom({ name: def.name, docstring: def.docstring, parameters: def.parameters });
}

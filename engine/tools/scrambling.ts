// Schema-level tool augmentations (reference 1.10): what the agent sees of its tools when a
// scenario scrambles their names, descriptions, argument descriptions or argument types. Only
// the schemas change; the tools, their traces and the executed code keep the real names.
import type { ToolAugmentation } from "../scenario/model.js";
import { TOOLS } from "./catalog.js";
import { openAiToolSchemaFrom, type OpenAiToolSchema } from "./openai-schema.js";
import type { ToolDefinition } from "./types.js";

/**
 * Real name -> scrambled name for every tool in the catalog: `<module>_<k>`, the tools sorted by
 * `module.function` and k counting from 0 within each module. The numbering covers the whole
 * catalog, so a tool has the same scrambled name in every scenario.
 */
export const SCRAMBLED_TOOL_NAMES: ReadonlyMap<string, string> = (() => {
  const key = (t: ToolDefinition): string => `${t.module}.${t.name}`;
  // Code-unit order, as Python sorts strings.
  const sorted = [...TOOLS].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
  const perModule = new Map<string, number>();
  const names = new Map<string, string>();
  for (const tool of sorted) {
    const k = perModule.get(tool.module) ?? 0;
    perModule.set(tool.module, k + 1);
    names.set(tool.name, `${tool.module}_${k}`);
  }
  return names;
})();

/** The name the agent calls a tool by under these augmentations. */
export function agentFacingName(toolName: string, augmentations: readonly ToolAugmentation[] = []): string {
  if (!augmentations.includes("tool_name_scrambled")) return toolName;
  return SCRAMBLED_TOOL_NAMES.get(toolName) ?? toolName;
}

/** Upstream's regex: everything before the last "Args:" goes; a docstring without one is kept. */
export function scrambleToolDescription(docstring: string): string {
  const at = docstring.lastIndexOf("Args:");
  return at < 0 ? docstring : docstring.slice(at);
}

/** Upstream's regex: the text between "Args:\n" and "\nReturns" goes; without both it is kept. */
export function scrambleArgDescriptions(docstring: string): string {
  const start = docstring.indexOf("Args:\n");
  if (start < 0) return docstring;
  const from = start + "Args:\n".length;
  const end = docstring.indexOf("\nReturns", from);
  if (end < 0) return docstring;
  return docstring.slice(0, from) + docstring.slice(end);
}

/** One tool's schema as the agent sees it under the augmentations (applied in the order listed). */
export function agentToolSchema(tool: ToolDefinition, augmentations: readonly ToolAugmentation[] = []): OpenAiToolSchema {
  let docstring = tool.docstring;
  for (const augmentation of augmentations) {
    if (augmentation === "tool_description_scrambled") docstring = scrambleToolDescription(docstring);
    if (augmentation === "arg_description_scrambled") docstring = scrambleArgDescriptions(docstring);
  }
  const untyped = augmentations.includes("arg_type_scrambled");
  return openAiToolSchemaFrom({
    name: agentFacingName(tool.name, augmentations),
    docstring,
    parameters: tool.parameters.map((p) => ({ name: p.name, type: untyped ? null : p.type, required: p.required })),
  });
}

/** The schemas of the agent's tools, in the order given (the catalog order, reference 1.5). */
export function agentToolSchemas(tools: readonly ToolDefinition[], augmentations: readonly ToolAugmentation[] = []): OpenAiToolSchema[] {
  return tools.map((tool) => agentToolSchema(tool, augmentations));
}

// Schema-level tool augmentations (reference 1.10): what the agent sees of its tools when a
// scenario scrambles their names, descriptions, argument descriptions or argument types. Only
// the schemas change; the tools, their traces and the executed code keep the real names.
import type { ToolAugmentation } from "../model.js";
import { openAiToolSchemaFrom, type OpenAiToolSchema } from "../../tools/openai-schema.js";
import type { ToolDefinition } from "../../tools/types.js";

const scrambledByPack = new WeakMap<readonly ToolDefinition[], ReadonlyMap<string, string>>();

/**
 * Real name -> scrambled name for every tool of a pack: `<module>_<k>`, the tools sorted by
 * `module.function` and k counting from 0 within each module. The numbering covers the whole
 * pack, so a tool has the same scrambled name in every scenario.
 */
export function scrambledToolNames(tools: readonly ToolDefinition[]): ReadonlyMap<string, string> {
  const known = scrambledByPack.get(tools);
  if (known) return known;
  const key = (t: ToolDefinition): string => `${t.module}.${t.name}`;
  // Code-unit order, as Python sorts strings.
  const sorted = [...tools].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
  const perModule = new Map<string, number>();
  const names = new Map<string, string>();
  for (const tool of sorted) {
    const k = perModule.get(tool.module) ?? 0;
    perModule.set(tool.module, k + 1);
    names.set(tool.name, `${tool.module}_${k}`);
  }
  scrambledByPack.set(tools, names);
  return names;
}

/** The name the agent calls a tool of `tools` (its pack's tools) by under these augmentations. */
export function agentFacingName(toolName: string, augmentations: readonly ToolAugmentation[], tools: readonly ToolDefinition[]): string {
  if (!augmentations.includes("tool_name_scrambled")) return toolName;
  return scrambledToolNames(tools).get(toolName) ?? toolName;
}

/** Upstream's regex: everything before the last "Args:" goes; a docstring without one is kept. */
function scrambleToolDescription(docstring: string): string {
  const at = docstring.lastIndexOf("Args:");
  return at < 0 ? docstring : docstring.slice(at);
}

/** Upstream's regex: the text between "Args:\n" and "\nReturns" goes; without both it is kept. */
function scrambleArgDescriptions(docstring: string): string {
  const start = docstring.indexOf("Args:\n");
  if (start < 0) return docstring;
  const from = start + "Args:\n".length;
  const end = docstring.indexOf("\nReturns", from);
  if (end < 0) return docstring;
  return docstring.slice(0, from) + docstring.slice(end);
}

/**
 * One tool of `tools` (its pack's tools) as the agent sees it under the augmentations (applied in
 * the order listed). `docstrings`: a prompt set's texts, used in place of the tool's own.
 */
export function agentToolSchema(
  tool: ToolDefinition,
  augmentations: readonly ToolAugmentation[],
  tools: readonly ToolDefinition[],
  docstrings?: Readonly<Record<string, string>>,
): OpenAiToolSchema {
  let docstring = docstrings?.[tool.name] ?? tool.docstring;
  for (const augmentation of augmentations) {
    if (augmentation === "tool_description_scrambled") docstring = scrambleToolDescription(docstring);
    if (augmentation === "arg_description_scrambled") docstring = scrambleArgDescriptions(docstring);
  }
  const untyped = augmentations.includes("arg_type_scrambled");
  return openAiToolSchemaFrom({
    name: agentFacingName(tool.name, augmentations, tools),
    docstring,
    parameters: tool.parameters.map((p) => ({ name: p.name, type: untyped ? null : p.type, required: p.required })),
  });
}

/** The schemas of the agent's tools, in the order given (the pack's order, reference 1.5); `packTools` are all of its pack's tools. */
export function agentToolSchemas(
  agentTools: readonly ToolDefinition[],
  augmentations: readonly ToolAugmentation[],
  packTools: readonly ToolDefinition[],
  docstrings?: Readonly<Record<string, string>>,
): OpenAiToolSchema[] {
  return agentTools.map((tool) => agentToolSchema(tool, augmentations, packTools, docstrings));
}

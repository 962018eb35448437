// A tool as plain JSON data (no functions), for `toolsandbox tools --json`, other programs and
// the language server. The same shape for every pack's tools.
import type { JsonObject, JsonValue } from "../base/json.js";
import { parseDocstring } from "./openai-schema.js";
import type { ToolDefinition, ToolParameter } from "./types.js";

/** One parameter's JSON Schema: an array parameter is a list of strings. */
function parameterSchema(p: ToolParameter): JsonObject {
  const property: JsonObject = { type: p.nullable ? [p.type, "null"] : p.type };
  if (p.type === "array") property.items = { type: "string" };
  if (p.enum !== undefined) property.enum = [...p.enum];
  property.description = p.description;
  if (p.default !== undefined) property.default = p.default;
  // POSIX-seconds parameters, where scenario files may write a time expression instead.
  if (p.timestamp) property["x-timestamp"] = true;
  return property;
}

/** The parameters as a JSON Schema object: what a call's arguments may be. */
function parametersSchema(def: ToolDefinition): JsonObject {
  const properties: JsonObject = {};
  for (const p of def.parameters) properties[p.name] = parameterSchema(p);
  return {
    type: "object",
    properties,
    required: def.parameters.filter((p) => p.required).map((p) => p.name),
    additionalProperties: false,
  };
}

/** `app`: the app the pack groups the tool into (null for a tool in none, such as end_conversation). */
export function catalogEntry(def: ToolDefinition, app: string | null = null): JsonObject {
  const stateDependencies: JsonValue[] = def.stateDependencies.map((d) => ({
    table: d.table,
    column: d.column,
    value: d.value,
    ...(d.when !== undefined ? { when: d.when } : {}),
    error: d.error,
  }));
  return {
    name: def.name,
    module: def.module,
    domain: def.domain,
    app,
    description: parseDocstring(def.docstring).description,
    docstring: def.docstring,
    parameters: parametersSchema(def),
    returns: { description: def.returns.description, schema: def.returns.schema },
    action: def.action,
    state_dependencies: stateDependencies,
    errors: [...def.errors],
    visible_to: [...def.visibleTo],
    web_backed: def.webBacked,
  };
}

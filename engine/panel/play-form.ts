// "Play Scenario as Agent…" in the panel: the form a person plays the agent with, one entry per
// tool the agent may call, each field built from the JSON Schema the agent is shown for that tool
// (the same schema a model gets, augmentations applied), with the values the world holds for it
// offered beside. The host builds the form here and sends it; the panel draws it and sends back a
// call or a message (play-protocol.ts), which the host checks before it reaches the run.
import type { JsonValue } from "../base/json.js";
import type { PlayField, PlayFieldKind, PlayTool } from "./play-protocol.js";
import { toolsFor } from "../episode/tool-calls.js";
import { packById } from "../packs/registry.js";
import { agentToolSchemas } from "../scenario/augmentations/scrambling.js";
import type { Scenario } from "../scenario/model.js";
import { worldValueTexts } from "../tools/call-completion.js";
import type { Tables } from "../world/types.js";

/** A property of a tool's parameter schema, read without trusting its shape. */
type SchemaProperty = Readonly<Record<string, unknown>>;

/** The field for one property of a tool's JSON Schema. */
export function fieldFromSchema(name: string, property: SchemaProperty, required: boolean, suggestions: readonly string[]): PlayField {
  const description = typeof property.description === "string" ? property.description : "";
  const values = property.enum;
  if (Array.isArray(values) && values.length > 0) {
    return { name, description, required, kind: "enum", options: values.map((v) => JSON.stringify(v as JsonValue)), suggestions: [] };
  }
  const kind = fieldKind(property.type);
  // A JSON field is offered no world values: a cell's text is not the JSON the field wants.
  return { name, description, required, kind, options: [], suggestions: kind === "json" ? [] : suggestions };
}

/** `type` as a field types it; `["string", "null"]` (a nullable string) is still a string. */
function fieldKind(type: unknown): PlayFieldKind {
  const types = Array.isArray(type) ? type.filter((t) => t !== "null") : [type];
  if (types.length !== 1) return "json";
  const [only] = types;
  return only === "string" || only === "integer" || only === "number" || only === "boolean" ? only : "json";
}

/** The form of the tools the scenario's agent may call, in the order it is shown them, with the values `world` offers. */
export function playTools(scenario: Scenario, world: Tables): PlayTool[] {
  const tools = toolsFor(scenario, "agent");
  const schemas = agentToolSchemas(
    tools,
    scenario.options.augmentations ?? [],
    packById(scenario.world.pack).tools,
    scenario.tools.descriptions,
  );
  return schemas.map((schema, i) => {
    const parameters = tools[i]?.parameters ?? [];
    const { properties, required } = schema.function.parameters;
    return {
      name: schema.function.name,
      description: schema.function.description,
      // Every parameter gets a field, in the tool's order, even one the schema leaves out (no type and no description).
      fields: parameters.map((p) =>
        fieldFromSchema(p.name, properties[p.name] ?? {}, required.includes(p.name), worldValueTexts(p, world)),
      ),
    };
  });
}

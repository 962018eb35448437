// "Play Scenario as Agent…" in the panel: the form a person plays the agent with, one entry per
// tool the agent may call, each field built from the JSON Schema the agent is shown for that tool
// (the same schema a model gets, augmentations applied), with the values the world holds for it
// offered beside. The host builds the form here and sends it; the panel draws it and sends back a
// call or a message (PlayRequest), which the host checks before it reaches the run.
import type { JsonValue } from "../base/json.js";
import { toolsFor } from "../episode/tool-calls.js";
import { packById } from "../packs/registry.js";
import { agentToolSchemas } from "../scenario/augmentations/scrambling.js";
import type { Scenario } from "../scenario/model.js";
import { worldValueTexts } from "../tools/call-completion.js";
import type { Tables } from "../world/types.js";

/**
 * How a field is typed in: a text, a whole or any number, true/false, one of the schema's `enum`
 * values, or (arrays, objects, and a schema with no single type) a JSON text.
 */
export type PlayFieldKind = "string" | "integer" | "number" | "boolean" | "enum" | "json";
export const PLAY_FIELD_KINDS: readonly PlayFieldKind[] = ["string", "integer", "number", "boolean", "enum", "json"];

export interface PlayField {
  readonly name: string;
  readonly description: string;
  readonly required: boolean;
  readonly kind: PlayFieldKind;
  /** An enum's values, each as JSON text (the value sent is the parsed text); empty for other kinds. */
  readonly options: readonly string[];
  /** Values the world holds in columns named like the argument, as the field takes them. */
  readonly suggestions: readonly string[];
}

export interface PlayTool {
  /** The name the agent calls it by (scrambled when the scenario scrambles tool names). */
  readonly name: string;
  readonly description: string;
  readonly fields: readonly PlayField[];
}

/** Host → panel: the form, sent when a played run starts, at each of the person's turns, and at the end. */
export interface PlayFormMessage {
  readonly type: "play";
  readonly tools: readonly PlayTool[];
  /** The run waits for the person: a call or a message is taken now. */
  readonly yourTurn: boolean;
  /** Why the last call or message was refused (nothing went into the run), in one line. */
  readonly problem: string | null;
  /** The episode is over: the form stays for reading but takes nothing. */
  readonly ended: boolean;
}

/** Panel → host. */
export type PlayRequest =
  /** Call a tool with these arguments (those left empty in the form are not given). */
  | { readonly type: "play-call"; readonly tool: string; readonly arguments: Readonly<Record<string, JsonValue>> }
  /** Say this to the user; it ends the person's turn. */
  | { readonly type: "play-say"; readonly text: string }
  /** End the episode, as `/quit` does in the terminal. */
  | { readonly type: "play-quit" };

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

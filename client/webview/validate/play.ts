// Both directions of a played run's form (engine/panel/play-form.ts): the panel checks the form the
// host sends, and the host checks each call or message the panel sends before it reaches the run.
// The page shows tool results written by the world and a user model, so neither side trusts the other.
import {
  PLAY_FIELD_KINDS,
  type PlayField,
  type PlayFormMessage,
  type PlayRequest,
  type PlayTool,
} from "../../../engine/panel/play-protocol.js";
import type { JsonValue } from "../../../engine/base/json.js";
import { bool, json, list, nullable, oneOf, prop, record, str, WireError } from "./check.js";

/** The longest message a person may say in one turn, in characters. */
export const MAX_SAID_LENGTH = 20_000;
/** More arguments than any tool takes: a call naming more is refused whole. */
const MAX_ARGUMENTS = 64;
const NAME = /^[A-Za-z_][A-Za-z0-9_]{0,199}$/;

function name(value: unknown, path: string): string {
  const text = str(value, path);
  if (!NAME.test(text)) throw new WireError(path, "must be a name of letters, digits and _");
  return text;
}

function field(value: unknown, path: string): PlayField {
  const o = record(value, path);
  return {
    name: name(prop(o, "name"), `${path}/name`),
    description: str(prop(o, "description"), `${path}/description`),
    required: bool(prop(o, "required"), `${path}/required`),
    kind: oneOf(PLAY_FIELD_KINDS)(prop(o, "kind"), `${path}/kind`),
    options: list(str)(prop(o, "options"), `${path}/options`),
    suggestions: list(str)(prop(o, "suggestions"), `${path}/suggestions`),
  };
}

function tool(value: unknown, path: string): PlayTool {
  const o = record(value, path);
  return {
    name: name(prop(o, "name"), `${path}/name`),
    description: str(prop(o, "description"), `${path}/description`),
    fields: list(field)(prop(o, "fields"), `${path}/fields`),
  };
}

/** The host's form, as the panel reads it. */
export function playFormMessage(o: Readonly<Record<string, unknown>>): PlayFormMessage {
  return {
    type: "play",
    tools: list(tool)(prop(o, "tools"), "/tools"),
    yourTurn: bool(prop(o, "yourTurn"), "/yourTurn"),
    problem: nullable(str)(prop(o, "problem"), "/problem"),
    ended: bool(prop(o, "ended"), "/ended"),
  };
}

/** A request of the form, as the host reads it: a call's tool and argument names are names, its values JSON. */
export function playRequest(o: Readonly<Record<string, unknown>>, type: PlayRequest["type"]): PlayRequest {
  switch (type) {
    case "play-call": {
      const raw = record(prop(o, "arguments"), "/arguments");
      const keys = Object.keys(raw);
      if (keys.length > MAX_ARGUMENTS) throw new WireError("/arguments", `must have at most ${MAX_ARGUMENTS} arguments`);
      const args: Record<string, JsonValue> = {};
      for (const key of keys) args[name(key, `/arguments/${key}`)] = json(raw[key], `/arguments/${key}`);
      return { type, tool: name(prop(o, "tool"), "/tool"), arguments: args };
    }
    case "play-say": {
      const text = str(prop(o, "text"), "/text");
      if (text.trim() === "") throw new WireError("/text", "must not be empty");
      if (text.length > MAX_SAID_LENGTH) throw new WireError("/text", `must be at most ${MAX_SAID_LENGTH} characters`);
      return { type, text };
    }
    case "play-quit":
      return { type };
  }
}

// The 78 ToolTalk conversations (the user's copy of ToolTalk's data) (easy + tooltalk), read and checked for the fields the
// ground-truth tests use.
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { isJsonObject, type JsonObject, type JsonValue } from "../../../../../engine/base/json.js";
import type { ConversationUser } from "../../../../../engine/packs/tooltalk/index.js";
import { toolTalkDataRoot } from "../../published-data.js";

export interface GroundTruthCall {
  readonly api_name: string;
  readonly parameters: JsonObject;
  readonly response: JsonObject | null;
  readonly exception: string | null;
}

export interface Conversation {
  /** e.g. "easy/AddAlarm-easy.json" */
  readonly file: string;
  readonly timestamp: string;
  readonly user: ConversationUser;
  /** Ground-truth calls of each assistant turn, turns in array order. */
  readonly turns: readonly (readonly GroundTruthCall[])[];
}

const ROOT = toolTalkDataRoot();

function field(o: JsonObject, key: string, file: string): JsonValue {
  if (!(key in o)) throw new Error(`${file}: missing ${key}`);
  return o[key] as JsonValue;
}

function parse(file: string, json: unknown): Conversation {
  if (!isJsonObject(json)) throw new Error(`${file}: not an object`);
  const metadata = field(json, "metadata", file);
  const user = field(json, "user", file);
  const turns = field(json, "conversation", file);
  if (!isJsonObject(metadata) || typeof metadata.timestamp !== "string") throw new Error(`${file}: metadata.timestamp`);
  if (!isJsonObject(user) || typeof user.username !== "string") throw new Error(`${file}: user.username`);
  if (!Array.isArray(turns)) throw new Error(`${file}: conversation is not a list`);
  const optional = (v: JsonValue | undefined) => (typeof v === "string" ? v : undefined);
  const session = optional(user.session_token);
  const code = optional(user.verification_code);
  return {
    file,
    timestamp: metadata.timestamp,
    user: { username: user.username, ...(session ? { session_token: session } : {}), ...(code ? { verification_code: code } : {}) },
    turns: turns.flatMap((turn) => {
      if (!isJsonObject(turn) || turn.role !== "assistant") return [];
      const apis = Array.isArray(turn.apis) ? turn.apis : [];
      return [
        apis.map((api) => {
          if (!isJsonObject(api) || !isJsonObject(api.request)) throw new Error(`${file}: malformed api record`);
          const { api_name, parameters } = api.request;
          if (typeof api_name !== "string" || !isJsonObject(parameters)) throw new Error(`${file}: malformed request`);
          const response = api.response ?? null;
          if (response !== null && !isJsonObject(response)) throw new Error(`${file}: response is not an object`);
          return { api_name, parameters, response, exception: typeof api.exception === "string" ? api.exception : null };
        }),
      ];
    }),
  };
}

export function loadConversations(): Conversation[] {
  return ["easy", "tooltalk"].flatMap((dir) =>
    readdirSync(join(ROOT, dir))
      .filter((name) => name.endsWith(".json"))
      .sort()
      .map((name) => parse(`${dir}/${name}`, JSON.parse(readFileSync(join(ROOT, dir, name), "utf8")))),
  );
}

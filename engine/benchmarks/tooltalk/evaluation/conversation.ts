// Reads one ToolTalk conversation (peers.md A.2) from untrusted JSON into a typed
// `ToolTalkConversation`, and normalises the quirks of the published data so nothing downstream
// has to know them. Every normalisation is recorded on the result:
//
// - index-order: turns are taken in array order; the `index` fields are informative only
//   (golden_conversation_1 numbers its turns ..., 6, 8, 7, 8).
// - missing-index: some turns have no `index` at all (Alarm-Messages-Reminder-GetReminder-2).
// - trailing-user-turns: a conversation may end with user turns nobody answers; ToolTalk's loop
//   only appends them to a history no one reads, so they are set apart.
// - response-key: an AddReminder response stored as `{alarm_id}` is read as `{reminder_id}`
//   (Alarm-Reminder-Weather-AddReminder-1). AddReminder's match rule ignores the response, so
//   scores do not change; the history shown to the predictor does.
// - missing-scenario: golden files 1-3 have no `scenario`; it reads as null.
import type { JsonObject, JsonValue } from "../../../base/json.js";
import { JsonCursor, formatJsonPath, parseJsonText, type JsonSource } from "../../../base/json-reader.js";
import type {
  ToolTalkAssistantTurn,
  ToolTalkCall,
  ToolTalkConversation,
  ToolTalkMetadata,
  ToolTalkNormalisation,
  ToolTalkTurn,
  ToolTalkUser,
  ToolTalkUserTurn,
} from "./types.js";

/** `%Y-%m-%d %H:%M:%S` with two-digit fields, as every ToolTalk timestamp is written. */
const TIMESTAMP = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;

function readUser(cursor: JsonCursor): ToolTalkUser {
  const user: { -readonly [K in keyof ToolTalkUser]: ToolTalkUser[K] } = {
    username: cursor.field("username").string(),
    email: cursor.field("email").string(),
    phone: cursor.field("phone").string(),
    name: cursor.field("name").string(),
    password: cursor.field("password").string(),
  };
  const token = cursor.field("session_token").optionalString();
  if (token !== undefined) user.session_token = token;
  const code = cursor.field("verification_code").optionalString();
  if (code !== undefined) user.verification_code = code;
  return user;
}

function readMetadata(cursor: JsonCursor): ToolTalkMetadata {
  const timestampCursor: JsonCursor = cursor.field("timestamp");
  const timestamp = timestampCursor.string();
  if (!TIMESTAMP.test(timestamp)) timestampCursor.fail(`expected a time as YYYY-MM-DD HH:MM:SS, found ${JSON.stringify(timestamp)}`);
  const metadata: { -readonly [K in keyof ToolTalkMetadata]: ToolTalkMetadata[K] } = {
    location: cursor.field("location").string(),
    timestamp,
  };
  const token = cursor.field("session_token").optionalString();
  if (token !== undefined) metadata.session_token = token;
  const username = cursor.field("username").optionalString();
  if (username !== undefined) metadata.username = username;
  return metadata;
}

function readResponse(call: JsonCursor, apiName: string, notes: ToolTalkNormalisation[]): JsonValue {
  const cursor = call.field("response");
  const response = cursor.json();
  const keys = response !== null && typeof response === "object" && !Array.isArray(response) ? Object.keys(response) : [];
  if (apiName === "AddReminder" && keys.length === 1 && keys[0] === "alarm_id") {
    notes.push({
      kind: "response-key",
      path: formatJsonPath(cursor.path),
      detail: "AddReminder response key alarm_id read as reminder_id",
    });
    return { reminder_id: (response as JsonObject)["alarm_id"] ?? null };
  }
  return response;
}

function readCall(cursor: JsonCursor, notes: ToolTalkNormalisation[]): ToolTalkCall {
  const request = cursor.field("request");
  const api_name = request.field("api_name").string();
  const parameters = request.field("parameters").object();
  const exceptionCursor = cursor.field("exception");
  const exception = exceptionCursor.json() === null ? null : exceptionCursor.string();
  return { request: { api_name, parameters }, response: readResponse(cursor, api_name, notes), exception };
}

function readTurn(cursor: JsonCursor, position: number, notes: ToolTalkNormalisation[]): ToolTalkTurn {
  // Explicit types let TypeScript see that `fail` (which returns never) ends the path.
  const roleCursor: JsonCursor = cursor.field("role");
  const role = roleCursor.string();
  const text = cursor.field("text").string();
  const indexCursor: JsonCursor = cursor.field("index");
  let source_index: number | null = null;
  if (!indexCursor.exists) {
    notes.push({ kind: "missing-index", path: formatJsonPath(cursor.path), detail: `turn has no index; position ${position} is used` });
  } else {
    const index = indexCursor.json();
    if (typeof index !== "number" || !Number.isInteger(index)) indexCursor.fail(`expected an integer, found ${JSON.stringify(index)}`);
    source_index = index;
    if (index !== position) {
      notes.push({
        kind: "index-order",
        path: formatJsonPath(indexCursor.path),
        detail: `index ${index} at position ${position}; array order is used`,
      });
    }
  }
  if (role === "user") {
    if (cursor.field("apis").exists) cursor.field("apis").fail("a user turn cannot carry API calls");
    return { role, text, position, source_index };
  }
  if (role !== "assistant") roleCursor.fail(`expected "user" or "assistant", found ${JSON.stringify(role)}`);
  const apisCursor = cursor.field("apis");
  const apis = apisCursor.exists ? apisCursor.items().map((item) => readCall(item, notes)) : [];
  return { role, text, apis, position, source_index };
}

/** Validates a parsed conversation. `source` is used for error positions only. */
function readConversation(value: JsonValue, source: JsonSource): ToolTalkConversation {
  const root = new JsonCursor(source, value);
  root.object();
  const notes: ToolTalkNormalisation[] = [];
  const scenarioCursor = root.field("scenario");
  let scenario: string | null = null;
  if (scenarioCursor.exists) scenario = scenarioCursor.string();
  else notes.push({ kind: "missing-scenario", path: "$.scenario", detail: "no scenario text; read as null" });

  const all = root
    .field("conversation")
    .items()
    .map((turn, position) => readTurn(turn, position, notes));
  let end = all.length;
  while (end > 0 && all[end - 1]?.role === "user") end--;
  const turns = all.slice(0, end);
  const trailing_user_turns = all.slice(end).filter((turn): turn is ToolTalkUserTurn => turn.role === "user");
  if (trailing_user_turns.length > 0) {
    notes.push({
      kind: "trailing-user-turns",
      path: `$.conversation[${end}]`,
      detail: `${trailing_user_turns.length} user turn(s) after the last assistant turn are not evaluated`,
    });
  }
  if (!turns.some((turn): turn is ToolTalkAssistantTurn => turn.role === "assistant")) {
    root.field("conversation").fail("the conversation has no assistant turn, so there is nothing to evaluate");
  }

  return {
    file: source.file,
    name: root.field("name").string(),
    conversation_id: root.field("conversation_id").string(),
    suites_used: root.field("suites_used").strings(),
    apis_used: root.field("apis_used").strings(),
    scenario,
    user: readUser(root.field("user")),
    metadata: readMetadata(root.field("metadata")),
    turns,
    trailing_user_turns,
    normalisations: notes,
  };
}

/** Parses and validates the text of a conversation file. */
export function parseConversation(text: string, file: string): ToolTalkConversation {
  const source = { file, text };
  return readConversation(parseJsonText(source), source);
}

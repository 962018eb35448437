// The starting world an imported scenario carries in its own text, so it runs, checks and is
// scored without ToolTalk's data folder: the rows of ToolTalk's databases the conversation can
// reach, with the user's session and verification code as the file starts (ToolTalk's
// init_conversation_state). A conversation reaches:
// - every row of each user it involves: its own user, and any account whose username, e-mail
//   address or phone number appears in a ground-truth request, response or exception (a message's
//   receiver, an address looked up, a username already taken);
// - the weather of every place named in them (ToolTalk looks places up lower-cased and trimmed).
// Other users' rows and other places are left out: nothing in the conversation touches them.
import type { JsonObject, JsonValue } from "../../../base/json.js";
import type { CellValue, Row, Tables } from "../../../world/types.js";
import type { ToolTalkConversation } from "../evaluation/types.js";
import { NO_SESSION, withConversationUser } from "../../../packs/tooltalk/databases.js";
import { ACCOUNT, HISTORIC_WEATHER, SESSION, TOOLTALK_TABLE_LIST, WEATHER } from "../../../packs/tooltalk/tables.js";
import { ImportProblem } from "./problem.js";

function collectStrings(value: JsonValue | undefined, into: Set<string>): void {
  if (typeof value === "string") into.add(value);
  else if (Array.isArray(value)) for (const item of value) collectStrings(item, into);
  else if (value !== null && typeof value === "object") for (const item of Object.values(value)) collectStrings(item, into);
}

/** Every string of the conversation's user block, metadata and ground-truth calls. */
function conversationStrings(conversation: ToolTalkConversation): Set<string> {
  const found = new Set<string>();
  collectStrings({ ...conversation.user }, found);
  collectStrings({ ...conversation.metadata }, found);
  for (const turn of conversation.turns) {
    if (turn.role !== "assistant") continue;
    for (const call of turn.apis) {
      collectStrings(call.request.parameters, found);
      collectStrings(call.response, found);
      if (call.exception !== null) found.add(call.exception);
    }
  }
  return found;
}

const isString = (value: CellValue | undefined): value is string => typeof value === "string";

/** The rows of `databases` the conversation reaches, in the databases' order, with its user's starting state. */
export function conversationWorld(conversation: ToolTalkConversation, databases: Tables): Tables {
  const strings = conversationStrings(conversation);
  const accounts = databases[ACCOUNT.name] ?? [];
  const involved = new Set<string>([conversation.user.username]);
  for (const account of accounts) {
    if (
      [account["username"], account["email"], account["phone"]].some((v) => isString(v) && strings.has(v)) &&
      isString(account["username"])
    )
      involved.add(account["username"]);
  }
  const places = new Set([...strings].map((s) => s.trim().toLowerCase()));
  const reached = (table: string, row: Row): boolean => {
    if (table === WEATHER.name || table === HISTORIC_WEATHER.name) return isString(row["location"]) && places.has(row["location"]);
    return isString(row["username"]) && involved.has(row["username"]);
  };
  const tables: Record<string, readonly Row[]> = {};
  for (const schema of TOOLTALK_TABLE_LIST) {
    tables[schema.name] =
      schema.name === SESSION.name ? [NO_SESSION] : (databases[schema.name] ?? []).filter((row) => reached(schema.name, row));
  }
  const { user, file } = conversation;
  if (
    (user.session_token !== undefined || user.verification_code !== undefined) &&
    !tables[ACCOUNT.name]?.some((r) => r["username"] === user.username)
  ) {
    const key = user.session_token !== undefined ? "session_token" : "verification_code";
    throw new ImportProblem(
      file,
      `$.user.${key}`,
      `${user.username} has no account in ToolTalk's databases, so the conversation cannot start with a ${key.replace("_", " ")}`,
    );
  }
  return withConversationUser(tables, user);
}

/** A row as the scenario writes it: null cells left out (a nullable column the row omits is null). */
function rowObject(row: Row): JsonObject {
  return Object.fromEntries(Object.entries(row).filter(([, value]) => value !== null)) as JsonObject;
}

/** The `world` entries of the scenario over `base: empty`: each table's rows added, the session if someone is logged in. */
export function worldEntries(tables: Tables): JsonObject {
  const entries: JsonObject = {};
  for (const schema of TOOLTALK_TABLE_LIST) {
    const rows = tables[schema.name] ?? [];
    if (schema.name === SESSION.name) {
      const session = rows[0];
      if (session !== undefined && session["username"] !== null) entries[schema.name] = rowObject(session);
    } else if (rows.length > 0) {
      entries[schema.name] = { add: rows.map(rowObject) };
    }
  }
  return entries;
}

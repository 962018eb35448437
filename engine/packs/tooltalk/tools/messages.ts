// ToolTalk's Messages suite: search the messages the logged-in user received, send a message (not
// stored anywhere; any receiver is accepted).
import type { JsonObject } from "../../../base/json.js";
import type { PythonRandom } from "../../../python/random.js";
import { googleDocstring } from "../../../tools/docstring.js";
import { AUTH_ERRORS, STRPTIME_ERRORS, apiException, arg, definition, hex, stringParam, type ToolTalkApi } from "./api.js";
import { cellJson, ownedRows } from "./collections.js";
import { SEARCH_ERRORS, keywordSearch } from "./keyword-search.js";
import { pyEquals } from "./python-semantics.js";
import { accountByToken } from "./login-session.js";
import { DATETIME_FORMAT } from "./strptime.js";
import { MESSAGE } from "../tables.js";

/** The id of a new item, drawn from the tool's generator. */
function messageIdOf(random: PythonRandom): string {
  return `${hex(random.randint(0, 0xffffffff), 8)}-${hex(random.randint(0, 0xffffffff), 8)}`;
}

const SUITE = { module: "Messages", domain: "Messages" } as const;
const MESSAGE_FIELDS = ["message_id", "timestamp", "sender", "message"] as const;
const MESSAGE_SCHEMA: JsonObject = {
  type: "object",
  properties: { message_id: { type: "string" }, timestamp: { type: "string" }, sender: { type: "string" }, message: { type: "string" } },
};

const SEARCH_PARAMETERS = [
  stringParam("query", "Keywords to look for in the text.", false),
  stringParam("match_type", "'any' (the default) finds messages with at least one keyword, 'all' those with every keyword.", false),
  stringParam("sender", "Only messages from this username.", false),
  stringParam("start_date", "Only messages from this time on, %Y-%m-%d %H:%M:%S.", false),
  stringParam("end_date", "Only messages up to this time, %Y-%m-%d %H:%M:%S.", false),
].map((p) => (p.name === "match_type" ? { ...p, default: "any" } : p));

const searchMessages: ToolTalkApi = {
  definition: definition({
    name: "SearchMessages",
    ...SUITE,
    docstring: googleDocstring(
      ["Search the messages the user received, with at least one filter. Only the five most recent matches come back."],
      SEARCH_PARAMETERS,
      "messages: the matching messages, newest first.",
    ),
    parameters: SEARCH_PARAMETERS,
    returns: {
      description: "messages: the matching messages, newest first.",
      schema: { type: "object", properties: { messages: { type: "array", items: MESSAGE_SCHEMA } } },
    },
    action: false,
    errors: [...AUTH_ERRORS, ...SEARCH_ERRORS, ...STRPTIME_ERRORS(DATETIME_FORMAT)],
  }),
  requiresAuth: true,
  call(args, { world, now, collections }) {
    const username = accountByToken(world, arg(args, "session_token")).row.username ?? null;
    // Unlike SearchInbox, an existing but empty message list still has its arguments checked.
    if (!collections.exists(world, MESSAGE.name, username)) return { messages: [] };
    const found = keywordSearch(ownedRows(world, MESSAGE.name, username), args, now, {
      date: "timestamp",
      sender: "sender",
      text: ["message"],
    });
    return { messages: found.map((row) => Object.fromEntries(MESSAGE_FIELDS.map((f) => [f, cellJson(row[f])]))) };
  },
};

const SEND_PARAMETERS = [
  stringParam("receiver", "Username of the person to write to.", true),
  stringParam("message", "Text of the message.", true),
];

const sendMessage: ToolTalkApi = {
  definition: definition({
    name: "SendMessage",
    ...SUITE,
    docstring: googleDocstring(["Send a text message to another user."], SEND_PARAMETERS, "message_id: id of the sent message."),
    parameters: SEND_PARAMETERS,
    returns: {
      description: "message_id: id of the sent message.",
      schema: { type: "object", properties: { message_id: { type: "string" } } },
    },
    action: true,
    errors: [...AUTH_ERRORS, "Message cannot be empty."],
  }),
  requiresAuth: true,
  newId: messageIdOf,
  call(args, { world, random }) {
    accountByToken(world, arg(args, "session_token"));
    if (pyEquals(arg(args, "message"), "")) throw apiException("Message cannot be empty.");
    const messageId = messageIdOf(random);
    return { message_id: messageId };
  },
};

export const MESSAGES_APIS: readonly ToolTalkApi[] = [searchMessages, sendMessage];

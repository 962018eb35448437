// ToolTalk's Email suite: search the logged-in user's inbox, send e-mail (not stored anywhere).
import type { JsonObject } from "../../../base/json.js";
import type { PythonRandom } from "../../../python/random.js";
import { googleDocstring } from "../../../tools/docstring.js";
import { AUTH_ERRORS, STRPTIME_ERRORS, apiException, arg, definition, hex, listParam, stringParam, type ToolTalkApi } from "./api.js";
import { EMAIL_PATTERN } from "./account.js";
import { cellJson, ownedRows } from "./collections.js";
import { SEARCH_ERRORS, keywordSearch } from "./keyword-search.js";
import { pyIterate, pyReMatches } from "./python-semantics.js";
import { accountByToken } from "./login-session.js";
import { DATETIME_FORMAT } from "./strptime.js";
import { EMAIL } from "../tables.js";

/** The id of a new item, drawn from the tool's generator. */
function emailIdOf(random: PythonRandom): string {
  return `${hex(random.randint(0, 0xff), 2)}-${hex(random.randint(0, 0xffff), 4)}-${hex(random.randint(0, 0xffffffff), 8)}`;
}

const SUITE = { module: "Email", domain: "Email" } as const;
const EMAIL_FIELDS = ["email_id", "date", "sender", "receivers", "subject", "body"] as const;
const EMAIL_SCHEMA: JsonObject = {
  type: "object",
  properties: {
    email_id: { type: "string" },
    date: { type: "string" },
    sender: { type: "string" },
    receivers: { type: "array", items: { type: "string" } },
    subject: { type: "string" },
    body: { type: "string" },
  },
};

const SEARCH_PARAMETERS = [
  stringParam("query", "Keywords to look for in the subject and body.", false),
  stringParam("match_type", "'any' (the default) finds e-mails with at least one keyword, 'all' those with every keyword.", false),
  stringParam("sender", "Only e-mails from this address.", false),
  stringParam("start_date", "Only e-mails from this time on, %Y-%m-%d %H:%M:%S.", false),
  stringParam("end_date", "Only e-mails up to this time, %Y-%m-%d %H:%M:%S.", false),
].map((p) => (p.name === "match_type" ? { ...p, default: "any" } : p));

const searchInbox: ToolTalkApi = {
  definition: definition({
    name: "SearchInbox",
    ...SUITE,
    docstring: googleDocstring(
      ["Search the user's inbox with at least one filter. Only the five most recent matches come back."],
      SEARCH_PARAMETERS,
      "emails: the matching e-mails, newest first.",
    ),
    parameters: SEARCH_PARAMETERS,
    returns: {
      description: "emails: the matching e-mails, newest first.",
      schema: { type: "object", properties: { emails: { type: "array", items: EMAIL_SCHEMA } } },
    },
    action: false,
    errors: [...AUTH_ERRORS, ...SEARCH_ERRORS, ...STRPTIME_ERRORS(DATETIME_FORMAT)],
  }),
  requiresAuth: true,
  call(args, { world, now }) {
    const username = accountByToken(world, arg(args, "session_token")).row.username ?? null;
    // No inbox and an empty inbox both answer before any argument is checked.
    const inbox = ownedRows(world, EMAIL.name, username);
    if (inbox.length === 0) return { emails: [] };
    const found = keywordSearch(inbox, args, now, { date: "date", sender: "sender", text: ["body", "subject"] });
    return { emails: found.map((row) => Object.fromEntries(EMAIL_FIELDS.map((f) => [f, cellJson(row[f])]))) };
  },
};

const SEND_PARAMETERS = [
  listParam("to", "Addresses to send the e-mail to.", true),
  stringParam("subject", "Subject line.", true),
  stringParam("body", "Text of the e-mail.", true),
];

const sendEmail: ToolTalkApi = {
  definition: definition({
    name: "SendEmail",
    ...SUITE,
    docstring: googleDocstring(["Send an e-mail from the logged-in user."], SEND_PARAMETERS, "email_id: id of the sent e-mail."),
    parameters: SEND_PARAMETERS,
    returns: { description: "email_id: id of the sent e-mail.", schema: { type: "object", properties: { email_id: { type: "string" } } } },
    action: true,
    errors: [...AUTH_ERRORS, "… is not a valid email address."],
  }),
  requiresAuth: true,
  newId: emailIdOf,
  call(args, { world, random }) {
    accountByToken(world, arg(args, "session_token"));
    for (const address of pyIterate(arg(args, "to"))) {
      if (!pyReMatches(EMAIL_PATTERN, address)) throw apiException(`${String(address)} is not a valid email address.`);
    }
    const emailId = emailIdOf(random);
    return { email_id: emailId };
  },
};

export const EMAIL_APIS: readonly ToolTalkApi[] = [searchInbox, sendEmail];

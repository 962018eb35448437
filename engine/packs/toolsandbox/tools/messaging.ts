// The text-messaging tools (upstream module `messaging`): send a message, search messages.
import type { JsonObject } from "../../../base/json.js";
import { CONTACT, MESSAGING, SETTING } from "../table-schemas.js";
import { stringArg } from "../../../tools/binding.js";
import { AT_LEAST, AT_MOST, EXACT, filterRows, fuzzyAtLeast, rowsAsResult, searchCriterion } from "./search.js";
import { getBooleanSetting } from "./setting.js";
import type { ToolDefinition } from "../../../tools/types.js";
import { ToolError } from "../../../tools/types.js";
import { NUMBER_PARSE_EXCEPTION, POLARS_DUPLICATE_ERROR, validatePhoneNumber, validateTimestamp } from "../../../tools/validators.js";

const STR = "<class 'str'>";

const TYPE_ERROR = "TypeError: Parameter '…' is of type '…', but expected '…'.";
const PHONE_ERROR = `${NUMBER_PARSE_EXCEPTION}: (…) …`;
const CELLULAR_OFF = "Cellular service is not enabled";

const MESSAGE_SCHEMA: JsonObject = {
  type: "object",
  properties: {
    message_id: { type: "string" },
    sender_person_id: { type: ["string", "null"] },
    sender_phone_number: { type: "string" },
    recipient_person_id: { type: ["string", "null"] },
    recipient_phone_number: { type: "string" },
    content: { type: "string" },
    creation_timestamp: { type: "number" },
  },
};

const sendMessageWithPhoneNumber: ToolDefinition = {
  name: "send_message_with_phone_number",
  module: "messaging",
  domain: "Messaging",
  docstring: `Send a text message to a phone number.

Args:
    phone_number: Phone number to send the message to.
    content: Text of the message.

Returns:
    The message_id of the sent message, a unique string that other tools take to refer to this message.`,
  parameters: [
    { name: "phone_number", type: "string", description: "Phone number to send the message to.", required: true, annotation: STR },
    { name: "content", type: "string", description: "Text of the message.", required: true, annotation: STR },
  ],
  returns: { description: "The message_id of the sent message.", schema: { type: "string" } },
  action: true,
  stateDependencies: [{ table: SETTING.name, column: "cellular", value: true, error: `ConnectionError: ${CELLULAR_OFF}` }],
  errors: [
    TYPE_ERROR,
    PHONE_ERROR,
    `ConnectionError: ${CELLULAR_OFF}`,
    `${POLARS_DUPLICATE_ERROR}: 1 and only 1 self entry should exist in contacts database, instead found …`,
  ],
  visibleTo: ["agent"],
  webBacked: false,
  typechecked: true,
  run(args, ctx) {
    const phoneNumber = stringArg(args, "phone_number");
    validatePhoneNumber(phoneNumber);
    if (!getBooleanSetting(ctx.world, "cellular")) throw new ToolError("ConnectionError", CELLULAR_OFF);
    // Drawn before the self-entry check, as upstream does.
    const messageId = ctx.uuid4();
    const contacts = ctx.world.rows(CONTACT.name);
    const selves = filterRows(contacts, [{ column: "is_self", value: true, filter: EXACT }]);
    const [self] = selves;
    if (!self || selves.length !== 1) {
      throw new ToolError(
        POLARS_DUPLICATE_ERROR,
        `1 and only 1 self entry should exist in contacts database, instead found ${selves.length}`,
      );
    }
    const [recipient] = filterRows(contacts, [{ column: "phone_number", value: phoneNumber, filter: EXACT }]);
    ctx.world.insert(MESSAGING.name, {
      message_id: messageId,
      sender_person_id: self.person_id ?? null,
      sender_phone_number: self.phone_number ?? null,
      recipient_person_id: recipient?.person_id ?? null,
      recipient_phone_number: phoneNumber,
      content: stringArg(args, "content"),
      creation_timestamp: ctx.clock.now,
    });
    return messageId;
  },
};

/** An optional search criterion; omitted means NOT_GIVEN. Every float criterion is a timestamp. */

const searchMessages: ToolDefinition = {
  name: "search_messages",
  module: "messaging",
  domain: "Messaging",
  docstring: `Find the messages that satisfy every criterion given.

Each criterion is compared in one of three ways, as stated for each argument: exactly, approximately
(a fuzzy text match that must reach a fixed similarity), or as a bound on a timestamp.

Args:
    message_id: Unique identifier of the message, compared exactly.
    sender_person_id: Unique identifier of the sender, compared exactly.
    sender_phone_number: Phone number of the sender, compared exactly.
    recipient_person_id: Unique identifier of the recipient, compared exactly.
    recipient_phone_number: Phone number of the recipient, compared exactly.
    content: Text of the message, compared approximately.
    creation_timestamp_lowerbound: Earliest POSIX timestamp at which the message was created.
    creation_timestamp_upperbound: Latest POSIX timestamp at which the message was created.

Returns:
    A list of the matching messages; an empty list when none matches.`,
  parameters: [
    searchCriterion("message_id", "string", "Unique identifier of the message, compared exactly."),
    searchCriterion("sender_person_id", "string", "Unique identifier of the sender, compared exactly."),
    searchCriterion("sender_phone_number", "string", "Phone number of the sender, compared exactly."),
    searchCriterion("recipient_person_id", "string", "Unique identifier of the recipient, compared exactly."),
    searchCriterion("recipient_phone_number", "string", "Phone number of the recipient, compared exactly."),
    searchCriterion("content", "string", "Text of the message, compared approximately."),
    searchCriterion("creation_timestamp_lowerbound", "number", "Earliest POSIX timestamp at which the message was created.", true),
    searchCriterion("creation_timestamp_upperbound", "number", "Latest POSIX timestamp at which the message was created.", true),
  ],
  returns: { description: "The matching messages.", schema: { type: "array", items: MESSAGE_SCHEMA } },
  action: false,
  stateDependencies: [],
  errors: [
    TYPE_ERROR,
    "ValueError: No search criteria are given. At least one search criteria should be provided among ('message_id', 'sender_person_id', 'sender_phone_number', 'recipient_person_id', 'recipient_phone_number', 'content', 'creation_timestamp', 'creation_timestamp')",
    PHONE_ERROR,
    "ValueError: Parameter '…' is smaller than its valid range minimum of 315529200.0.",
    "ValueError: Parameter '…' is larger than its valid range maximum of 2524604400.0.",
  ],
  visibleTo: ["agent"],
  webBacked: false,
  typechecked: true,
  run(args, ctx) {
    validatePhoneNumber(args.sender_phone_number);
    validatePhoneNumber(args.recipient_phone_number);
    validateTimestamp(args.creation_timestamp_lowerbound, "creation_timestamp_lowerbound");
    validateTimestamp(args.creation_timestamp_upperbound, "creation_timestamp_upperbound");
    const rows = filterRows(ctx.world.rows(MESSAGING.name), [
      { column: "message_id", value: args.message_id, filter: EXACT },
      { column: "sender_person_id", value: args.sender_person_id, filter: EXACT },
      { column: "sender_phone_number", value: args.sender_phone_number, filter: EXACT },
      { column: "recipient_person_id", value: args.recipient_person_id, filter: EXACT },
      { column: "recipient_phone_number", value: args.recipient_phone_number, filter: EXACT },
      { column: "content", value: args.content, filter: fuzzyAtLeast(50) },
      { column: "creation_timestamp", value: args.creation_timestamp_lowerbound, filter: AT_LEAST },
      { column: "creation_timestamp", value: args.creation_timestamp_upperbound, filter: AT_MOST },
    ]);
    return rowsAsResult(rows, MESSAGING);
  },
};

/** The messaging tools, alphabetically. */
export const MESSAGING_TOOLS: readonly ToolDefinition[] = [searchMessages, sendMessageWithPhoneNumber];

// The address-book tools (upstream module `contact`): add, modify, remove and search contacts.
import type { JsonObject } from "../../../base/json.js";
import { CONTACT } from "../table-schemas.js";
import type { CellValue, Row } from "../../../world/types.js";
import { scalarArg, stringArg } from "../../../tools/binding.js";
import { EXACT, deleteWhere, filterRows, fuzzyAtLeast, replaceUniqueRow, rowsAsResult, NOT_GIVEN_ANNOTATION } from "./search.js";
import type { ToolContext, ToolDefinition } from "../../../tools/types.js";
import { ToolError } from "../../../tools/types.js";
import { NUMBER_PARSE_EXCEPTION, POLARS_DUPLICATE_ERROR, POLARS_NO_DATA_ERROR, validatePhoneNumber } from "../../../tools/validators.js";

const STR = "<class 'str'>";
const NOT_GIVEN_STR = NOT_GIVEN_ANNOTATION.str;
const NOT_GIVEN_BOOL = NOT_GIVEN_ANNOTATION.bool;

const TYPE_ERROR = "TypeError: Parameter '…' is of type '…', but expected '…'.";
const PHONE_ERROR = `${NUMBER_PARSE_EXCEPTION}: (…) …`;
const SELF_EXISTS = "Self entry already exists. Cannot add another one.";

const CONTACT_SCHEMA: JsonObject = {
  type: "object",
  properties: {
    person_id: { type: "string" },
    name: { type: "string" },
    phone_number: { type: "string" },
    relationship: { type: ["string", "null"] },
    is_self: { type: "boolean" },
  },
};

/** The user's own entries (upstream: search_contacts(is_self=True)). */
function selfEntries(ctx: ToolContext): Row[] {
  return filterRows(ctx.world.rows(CONTACT.name), [{ column: "is_self", value: true, filter: EXACT }]);
}

const addContact: ToolDefinition = {
  name: "add_contact",
  module: "contact",
  domain: "Contact",
  docstring: `Create a new entry in the address book. Entries may repeat the same details; each one still
gets a person_id of its own.

Args:
    name: Name of the person.
    phone_number: Phone number of the person.
    relationship: Optional. How the user is related to the person.
    is_self: Optional, False by default. Set it to True when the entry is the user themself.

Returns:
    The person_id of the new entry, a unique string that other tools take to refer to this person.`,
  parameters: [
    { name: "name", type: "string", description: "Name of the person.", required: true, annotation: STR },
    { name: "phone_number", type: "string", description: "Phone number of the person.", required: true, annotation: STR },
    {
      name: "relationship",
      type: "string",
      description: "Optional. How the user is related to the person.",
      required: false,
      default: null,
      nullable: true,
      annotation: "typing.Optional[str]",
    },
    {
      name: "is_self",
      type: "boolean",
      description: "Optional, False by default. Set it to True when the entry is the user themself.",
      required: false,
      default: false,
      annotation: "<class 'bool'>",
    },
  ],
  returns: { description: "The person_id of the new entry.", schema: { type: "string" } },
  action: true,
  stateDependencies: [],
  errors: [TYPE_ERROR, PHONE_ERROR, `${POLARS_DUPLICATE_ERROR}: ${SELF_EXISTS}`],
  visibleTo: ["agent"],
  webBacked: false,
  typechecked: true,
  run(args, ctx) {
    validatePhoneNumber(args.phone_number);
    // Upstream draws the id before the duplicate check, so a refused call still uses one up.
    const personId = ctx.uuid4();
    if (args.is_self === true && selfEntries(ctx).length > 0) throw new ToolError(POLARS_DUPLICATE_ERROR, SELF_EXISTS);
    ctx.world.insert(CONTACT.name, {
      person_id: personId,
      name: stringArg(args, "name"),
      phone_number: stringArg(args, "phone_number"),
      relationship: scalarArg(args, "relationship") ?? null,
      is_self: args.is_self === true,
    });
    return personId;
  },
};

const MODIFIABLE_CONTACT_FIELDS = ["name", "phone_number", "relationship", "is_self"] as const;

const modifyContact: ToolDefinition = {
  name: "modify_contact",
  module: "contact",
  domain: "Contact",
  docstring: `Change an existing contact using the new values given.

Args:
    person_id: Unique identifier of the contact to change.
    name: The new name.
    phone_number: The new phone number.
    relationship: The new relationship to the user.
    is_self: The new value of the flag that marks the user's own entry.

Returns:
    None.`,
  parameters: [
    { name: "person_id", type: "string", description: "Unique identifier of the contact to change.", required: true, annotation: STR },
    { name: "name", type: "string", description: "The new name.", required: false, annotation: NOT_GIVEN_STR },
    { name: "phone_number", type: "string", description: "The new phone number.", required: false, annotation: NOT_GIVEN_STR },
    { name: "relationship", type: "string", description: "The new relationship to the user.", required: false, annotation: NOT_GIVEN_STR },
    {
      name: "is_self",
      type: "boolean",
      description: "The new value of the flag that marks the user's own entry.",
      required: false,
      annotation: NOT_GIVEN_BOOL,
    },
  ],
  returns: { description: "None.", schema: { type: "null" } },
  action: true,
  stateDependencies: [],
  errors: [
    TYPE_ERROR,
    "ValueError: No update information given. At least one new field should be provided among [name, phone_number, relationship, is_self] in order to modify contact",
    PHONE_ERROR,
    `${POLARS_DUPLICATE_ERROR}: ${SELF_EXISTS}`,
    `${POLARS_NO_DATA_ERROR}: No db entry matching person_id='…' found`,
    `${POLARS_DUPLICATE_ERROR}: More than 1 entry with person_id='…' found`,
  ],
  visibleTo: ["agent"],
  webBacked: false,
  typechecked: true,
  run(args, ctx) {
    const personId = stringArg(args, "person_id");
    if (MODIFIABLE_CONTACT_FIELDS.every((f) => args[f] === undefined)) {
      throw new ToolError(
        "ValueError",
        "No update information given. At least one new field should be provided among [name, phone_number, relationship, is_self] in order to modify contact",
      );
    }
    validatePhoneNumber(args.phone_number);
    const [currentSelf] = selfEntries(ctx);
    if (currentSelf && args.is_self === true && currentSelf.person_id !== personId) {
      throw new ToolError(POLARS_DUPLICATE_ERROR, SELF_EXISTS);
    }
    const patch: Record<string, CellValue> = {};
    for (const field of MODIFIABLE_CONTACT_FIELDS) {
      const value = scalarArg(args, field);
      if (value !== undefined) patch[field] = value;
    }
    replaceUniqueRow(ctx.world, CONTACT.name, "person_id", personId, patch);
    return null;
  },
};

const removeContact: ToolDefinition = {
  name: "remove_contact",
  module: "contact",
  domain: "Contact",
  docstring: `Delete a contact from the address book.

Args:
    person_id: Unique identifier of the contact to delete.

Returns:
    None.`,
  parameters: [
    { name: "person_id", type: "string", description: "Unique identifier of the contact to delete.", required: true, annotation: STR },
  ],
  returns: { description: "None.", schema: { type: "null" } },
  action: true,
  stateDependencies: [],
  errors: [TYPE_ERROR, `${POLARS_NO_DATA_ERROR}: No db entry matching predicate=[(col("person_id")) == (String(…))] found`],
  visibleTo: ["agent"],
  webBacked: false,
  typechecked: true,
  run(args, ctx) {
    deleteWhere(ctx.world, CONTACT.name, "person_id", stringArg(args, "person_id"));
    return null;
  },
};

const searchContacts: ToolDefinition = {
  name: "search_contacts",
  module: "contact",
  domain: "Contact",
  docstring: `Find the contacts that satisfy every criterion given.

Each criterion is compared either exactly or approximately (a fuzzy text match that must reach a
fixed similarity), as stated for each argument.

Args:
    person_id: Unique identifier of the contact, compared exactly.
    name: Name of the contact, compared approximately.
    phone_number: Phone number of the contact, compared exactly.
    relationship: How the user is related to the contact, compared approximately.
    is_self: Whether the contact is the user themself, compared exactly.

Returns:
    A list of the matching contacts; an empty list when none matches.`,
  parameters: [
    {
      name: "person_id",
      type: "string",
      description: "Unique identifier of the contact, compared exactly.",
      required: false,
      annotation: NOT_GIVEN_STR,
    },
    {
      name: "name",
      type: "string",
      description: "Name of the contact, compared approximately.",
      required: false,
      annotation: NOT_GIVEN_STR,
    },
    {
      name: "phone_number",
      type: "string",
      description: "Phone number of the contact, compared exactly.",
      required: false,
      annotation: NOT_GIVEN_STR,
    },
    {
      name: "relationship",
      type: "string",
      description: "How the user is related to the contact, compared approximately.",
      required: false,
      annotation: NOT_GIVEN_STR,
    },
    {
      name: "is_self",
      type: "boolean",
      description: "Whether the contact is the user themself, compared exactly.",
      required: false,
      annotation: NOT_GIVEN_BOOL,
    },
  ],
  returns: { description: "The matching contacts.", schema: { type: "array", items: CONTACT_SCHEMA } },
  action: false,
  stateDependencies: [],
  errors: [
    "ValueError: No search criteria are given. At least one search criteria should be provided among ('person_id', 'name', 'phone_number', 'relationship', 'is_self')",
    PHONE_ERROR,
  ],
  visibleTo: ["agent"],
  webBacked: false,
  // Upstream leaves this one tool without @typechecked; odd values reach the filters as they are.
  typechecked: false,
  run(args, ctx) {
    validatePhoneNumber(args.phone_number);
    const rows = filterRows(
      ctx.world.rows(CONTACT.name),
      [
        { column: "person_id", value: args.person_id, filter: EXACT },
        { column: "name", value: args.name, filter: fuzzyAtLeast(90) },
        { column: "phone_number", value: args.phone_number, filter: EXACT },
        { column: "relationship", value: args.relationship, filter: fuzzyAtLeast(90) },
        { column: "is_self", value: args.is_self, filter: EXACT },
      ],
      CONTACT,
    );
    return rowsAsResult(rows, CONTACT);
  },
};

/** The contact tools, alphabetically. */
export const CONTACT_TOOLS: readonly ToolDefinition[] = [addContact, modifyContact, removeContact, searchContacts];

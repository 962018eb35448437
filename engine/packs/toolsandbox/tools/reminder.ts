// The reminder tools (upstream module `reminder`): add, modify, remove and search reminders.
import type { JsonObject } from "../../../base/json.js";
import { REMINDER } from "../table-schemas.js";
import type { CellValue } from "../../../world/types.js";
import { numberArg, scalarArg, stringArg } from "../../../tools/binding.js";
import {
  AT_LEAST,
  AT_MOST,
  EXACT,
  deleteWhere,
  filterRows,
  fuzzyAtLeast,
  replaceUniqueRow,
  rowsAsResult,
  searchCriterion,
  NOT_GIVEN_ANNOTATION,
} from "./search.js";
import type { ToolDefinition } from "../../../tools/types.js";
import { ToolError } from "../../../tools/types.js";
import {
  POLARS_DUPLICATE_ERROR,
  POLARS_NO_DATA_ERROR,
  validateLatitude,
  validateLongitude,
  validateTimestamp,
} from "../../../tools/validators.js";

const STR = "<class 'str'>";
const NOT_GIVEN_STR = NOT_GIVEN_ANNOTATION.str;
const NOT_GIVEN_FLOAT = NOT_GIVEN_ANNOTATION.float;
// Union[Optional[float], NotGiven] as Python prints it once typing has flattened it.
const NOT_GIVEN_OPTIONAL_FLOAT = "typing.Union[float, NoneType, tool_sandbox.common.utils.NotGiven]";

const TYPE_ERROR = "TypeError: Parameter '…' is of type '…', but expected '…'.";
const RANGE_ERRORS = [
  "ValueError: Parameter '…' is smaller than its valid range minimum of ….",
  "ValueError: Parameter '…' is larger than its valid range maximum of ….",
];

const REMINDER_SCHEMA: JsonObject = {
  type: "object",
  properties: {
    reminder_id: { type: "string" },
    content: { type: "string" },
    creation_timestamp: { type: "number" },
    reminder_timestamp: { type: "number" },
    latitude: { type: ["number", "null"] },
    longitude: { type: ["number", "null"] },
  },
};

const LATITUDE_TEXT = "Optional. Latitude of the place the reminder is tied to.";
const LONGITUDE_TEXT = "Optional. Longitude of the place the reminder is tied to.";
const WHEN_TEXT = "When the user wants to be reminded, as a POSIX timestamp.";

const addReminder: ToolDefinition = {
  name: "add_reminder",
  module: "reminder",
  domain: "Reminder",
  docstring: `Create a reminder.

Args:
    content: What the reminder is about.
    reminder_timestamp: ${WHEN_TEXT}
    latitude: ${LATITUDE_TEXT}
    longitude: ${LONGITUDE_TEXT}

Returns:
    The reminder_id of the new reminder, a unique string that other tools take to refer to this reminder.`,
  parameters: [
    { name: "content", type: "string", description: "What the reminder is about.", required: true, annotation: STR },
    { name: "reminder_timestamp", type: "number", description: WHEN_TEXT, required: true, annotation: "<class 'float'>", timestamp: true },
    {
      name: "latitude",
      type: "number",
      description: LATITUDE_TEXT,
      required: false,
      default: null,
      nullable: true,
      annotation: "typing.Optional[float]",
    },
    {
      name: "longitude",
      type: "number",
      description: LONGITUDE_TEXT,
      required: false,
      default: null,
      nullable: true,
      annotation: "typing.Optional[float]",
    },
  ],
  returns: { description: "The reminder_id of the new reminder.", schema: { type: "string" } },
  action: true,
  stateDependencies: [],
  errors: [TYPE_ERROR, ...RANGE_ERRORS],
  visibleTo: ["agent"],
  webBacked: false,
  typechecked: true,
  run(args, ctx) {
    validateTimestamp(args.reminder_timestamp, "reminder_timestamp");
    validateLatitude(args.latitude, "latitude");
    validateLongitude(args.longitude, "longitude");
    const reminderId = ctx.uuid4();
    ctx.world.insert(REMINDER.name, {
      reminder_id: reminderId,
      content: stringArg(args, "content"),
      creation_timestamp: ctx.clock.now,
      reminder_timestamp: numberArg(args, "reminder_timestamp") ?? null,
      latitude: numberArg(args, "latitude") ?? null,
      longitude: numberArg(args, "longitude") ?? null,
    });
    return reminderId;
  },
};

const MODIFIABLE_REMINDER_FIELDS = ["content", "reminder_timestamp", "latitude", "longitude"] as const;

const modifyReminder: ToolDefinition = {
  name: "modify_reminder",
  module: "reminder",
  domain: "Reminder",
  // Like upstream's, this docstring has no Returns section.
  docstring: `Change an existing reminder using the new values given.

Its creation timestamp is set to the current time.

Args:
    reminder_id: Unique identifier of the reminder to change.
    content: The new text of the reminder.
    reminder_timestamp: ${WHEN_TEXT}
    latitude: ${LATITUDE_TEXT}
    longitude: ${LONGITUDE_TEXT}`,
  parameters: [
    { name: "reminder_id", type: "string", description: "Unique identifier of the reminder to change.", required: true, annotation: STR },
    { name: "content", type: "string", description: "The new text of the reminder.", required: false, annotation: NOT_GIVEN_STR },
    { name: "reminder_timestamp", type: "number", description: WHEN_TEXT, required: false, annotation: NOT_GIVEN_FLOAT, timestamp: true },
    { name: "latitude", type: "number", description: LATITUDE_TEXT, required: false, nullable: true, annotation: NOT_GIVEN_OPTIONAL_FLOAT },
    {
      name: "longitude",
      type: "number",
      description: LONGITUDE_TEXT,
      required: false,
      nullable: true,
      annotation: NOT_GIVEN_OPTIONAL_FLOAT,
    },
  ],
  returns: { description: "None.", schema: { type: "null" } },
  action: true,
  stateDependencies: [],
  errors: [
    TYPE_ERROR,
    ...RANGE_ERRORS,
    "ValueError: No update information given. At least one new field should be provided among [content, reminder_timestamp, latitude, longitude] in order to modify reminder",
    `${POLARS_NO_DATA_ERROR}: No db entry matching reminder_id='…' found`,
    `${POLARS_DUPLICATE_ERROR}: More than 1 entry with reminder_id='…' found`,
  ],
  visibleTo: ["agent"],
  webBacked: false,
  typechecked: true,
  run(args, ctx) {
    // Upstream validates the values before checking that any was given.
    validateTimestamp(args.reminder_timestamp, "reminder_timestamp");
    validateLatitude(args.latitude, "latitude");
    validateLongitude(args.longitude, "longitude");
    if (MODIFIABLE_REMINDER_FIELDS.every((f) => args[f] === undefined)) {
      throw new ToolError(
        "ValueError",
        "No update information given. At least one new field should be provided among [content, reminder_timestamp, latitude, longitude] in order to modify reminder",
      );
    }
    // The creation timestamp always moves to now, even when only the content changes.
    const patch: Record<string, CellValue> = { creation_timestamp: ctx.clock.now };
    const content = scalarArg(args, "content");
    if (content !== undefined) patch.content = content;
    for (const field of ["reminder_timestamp", "latitude", "longitude"] as const) {
      const value = numberArg(args, field);
      if (value !== undefined) patch[field] = value;
    }
    replaceUniqueRow(ctx.world, REMINDER.name, "reminder_id", stringArg(args, "reminder_id"), patch);
    return null;
  },
};

const removeReminder: ToolDefinition = {
  name: "remove_reminder",
  module: "reminder",
  domain: "Reminder",
  docstring: `Delete a reminder.

Args:
    reminder_id: Unique identifier of the reminder to delete.

Returns:
    None.`,
  parameters: [
    { name: "reminder_id", type: "string", description: "Unique identifier of the reminder to delete.", required: true, annotation: STR },
  ],
  returns: { description: "None.", schema: { type: "null" } },
  action: true,
  stateDependencies: [],
  errors: [TYPE_ERROR, `${POLARS_NO_DATA_ERROR}: No db entry matching predicate=[(col("reminder_id")) == (String(…))] found`],
  visibleTo: ["agent"],
  webBacked: false,
  typechecked: true,
  run(args, ctx) {
    deleteWhere(ctx.world, REMINDER.name, "reminder_id", stringArg(args, "reminder_id"));
    return null;
  },
};

/** An optional search criterion; omitted means NOT_GIVEN. */

const searchReminder: ToolDefinition = {
  name: "search_reminder",
  module: "reminder",
  domain: "Reminder",
  docstring: `Find the reminders that satisfy every criterion given.

Each criterion is compared in one of three ways, as stated for each argument: exactly, approximately
(a fuzzy text match that must reach a fixed similarity), or as a bound on a timestamp.

Args:
    reminder_id: Unique identifier of the reminder, compared exactly.
    content: Text of the reminder, compared approximately.
    creation_timestamp_lowerbound: Earliest POSIX timestamp at which the reminder was created.
    creation_timestamp_upperbound: Latest POSIX timestamp at which the reminder was created.
    reminder_timestamp_lowerbound: Earliest POSIX timestamp at which the reminder is due.
    reminder_timestamp_upperbound: Latest POSIX timestamp at which the reminder is due.
    latitude: Latitude of the place the reminder is tied to, compared exactly.
    longitude: Longitude of the place the reminder is tied to, compared exactly.

Returns:
    A list of the matching reminders; an empty list when none matches.`,
  parameters: [
    searchCriterion("reminder_id", "string", "Unique identifier of the reminder, compared exactly."),
    searchCriterion("content", "string", "Text of the reminder, compared approximately."),
    searchCriterion("creation_timestamp_lowerbound", "number", "Earliest POSIX timestamp at which the reminder was created.", true),
    searchCriterion("creation_timestamp_upperbound", "number", "Latest POSIX timestamp at which the reminder was created.", true),
    searchCriterion("reminder_timestamp_lowerbound", "number", "Earliest POSIX timestamp at which the reminder is due.", true),
    searchCriterion("reminder_timestamp_upperbound", "number", "Latest POSIX timestamp at which the reminder is due.", true),
    searchCriterion("latitude", "number", "Latitude of the place the reminder is tied to, compared exactly."),
    searchCriterion("longitude", "number", "Longitude of the place the reminder is tied to, compared exactly."),
  ],
  returns: { description: "The matching reminders.", schema: { type: "array", items: REMINDER_SCHEMA } },
  action: false,
  stateDependencies: [],
  errors: [
    TYPE_ERROR,
    ...RANGE_ERRORS,
    "ValueError: No search criteria are given. At least one search criteria should be provided among ('reminder_id', 'content', 'creation_timestamp', 'creation_timestamp', 'reminder_timestamp', 'reminder_timestamp', 'latitude', 'longitude')",
  ],
  visibleTo: ["agent"],
  webBacked: false,
  typechecked: true,
  run(args, ctx) {
    validateTimestamp(args.creation_timestamp_lowerbound, "creation_timestamp_lowerbound");
    validateTimestamp(args.creation_timestamp_upperbound, "creation_timestamp_upperbound");
    validateTimestamp(args.reminder_timestamp_lowerbound, "reminder_timestamp_lowerbound");
    validateTimestamp(args.reminder_timestamp_upperbound, "reminder_timestamp_upperbound");
    validateLatitude(args.latitude, "latitude");
    validateLongitude(args.longitude, "longitude");
    const rows = filterRows(ctx.world.rows(REMINDER.name), [
      { column: "reminder_id", value: args.reminder_id, filter: EXACT },
      { column: "content", value: args.content, filter: fuzzyAtLeast(50) },
      { column: "creation_timestamp", value: args.creation_timestamp_lowerbound, filter: AT_LEAST },
      { column: "creation_timestamp", value: args.creation_timestamp_upperbound, filter: AT_MOST },
      { column: "reminder_timestamp", value: args.reminder_timestamp_lowerbound, filter: AT_LEAST },
      { column: "reminder_timestamp", value: args.reminder_timestamp_upperbound, filter: AT_MOST },
      { column: "latitude", value: args.latitude, filter: EXACT },
      { column: "longitude", value: args.longitude, filter: EXACT },
    ]);
    return rowsAsResult(rows, REMINDER);
  },
};

/** The reminder tools, alphabetically. */
export const REMINDER_TOOLS: readonly ToolDefinition[] = [addReminder, modifyReminder, removeReminder, searchReminder];

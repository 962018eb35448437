// ToolTalk's Calendar suite: create, change, delete and look up the logged-in user's events.
// New or moved events must lie in the future of the frozen clock.
import type { JsonObject, JsonValue } from "../../../base/json.js";
import type { PythonRandom } from "../../../python/random.js";
import type { NaiveDateTime } from "../../../tools/python-datetime.js";
import type { Row } from "../../../world/types.js";
import {
  STRPTIME_ERRORS,
  apiException,
  arg,
  hex,
  listParam,
  stringParam,
  type ApiEnv,
  type Kwargs,
  type ToolTalkApi,
  loggedInSuiteTool,
} from "./api.js";
import { cellJson, deleteItem, findItem, ownedRows, putItem, toCell } from "./collections.js";
import { pyAppendToCopy, pyContains, pyEquals, pyStr, pyTruthy, type PyValue } from "./python-semantics.js";
import { accountByToken } from "./login-session.js";
import { DATETIME_FORMAT, compareNaive, strptime } from "./strptime.js";
import { CALENDAR } from "../tables.js";

/** The id of a new item, drawn from the tool's generator. */
function eventIdOf(random: PythonRandom): string {
  return `${hex(random.randint(0, 0xffffffff), 8)}-${hex(random.randint(0, 0xffff), 4)}`;
}

const SUITE = { module: "Calendar", domain: "Calendar" } as const;
const STATUS_SCHEMA: JsonObject = { type: "object", properties: { status: { type: "string" } } };
const EVENT_SCHEMA: JsonObject = {
  type: "object",
  properties: {
    event_id: { type: "string" },
    name: { type: "string" },
    event_type: { type: "string" },
    start_time: { type: "string" },
    end_time: { type: "string" },
    location: { type: "string" },
    description: { type: "string" },
    attendees: { type: "array", items: { type: "string" } },
  },
};
// Key order of a stored event: as in the database, and as CreateEvent builds a new one.
const DATABASE_ORDER = ["event_id", "name", "event_type", "start_time", "end_time", "location", "description", "attendees"] as const;
const CREATED_ORDER = ["event_id", "name", "event_type", "description", "start_time", "end_time", "location", "attendees"] as const;

const NOT_FUTURE = "Start time and end time must be in the future.";
const START_AFTER_END = "Start time must be before end time.";

const tool = loggedInSuiteTool(SUITE);

/** Parses a new start and end and checks they are ordered and not in the past. */
function checkNewTimes(start: PyValue, end: PyValue, now: NaiveDateTime): void {
  const from = strptime(start, DATETIME_FORMAT);
  const to = strptime(end, DATETIME_FORMAT);
  if (compareNaive(from, to) > 0) throw apiException(START_AFTER_END);
  if (compareNaive(from, now) < 0 || compareNaive(to, now) < 0) throw apiException(NOT_FUTURE);
}

/** The attendee list with the owner added when missing (a copy: ToolTalk leaves the caller's list alone). */
function withOwner(attendees: PyValue, username: PyValue): PyValue {
  return pyContains(attendees, username) ? attendees : pyAppendToCopy(attendees, username);
}

function ownerOf(args: Kwargs, env: ApiEnv): PyValue {
  return accountByToken(env.world, arg(args, "session_token")).row.username ?? null;
}

/** Position of the user's event, or ToolTalk's "Event … not found.". */
function eventPosition(args: Kwargs, env: ApiEnv, username: PyValue): number {
  const eventId = arg(args, "event_id");
  const notFound = apiException(`Event ${pyStr(eventId)} not found.`);
  if (!env.collections.exists(env.world, CALENDAR.name, username)) throw notFound;
  const position = findItem(env.world, CALENDAR.name, "event_id", username, eventId);
  if (position < 0) throw notFound;
  return position;
}

const createEvent: ToolTalkApi = {
  definition: tool(
    "CreateEvent",
    "Put a new event or meeting in the user's calendar. Both times must be in the future; a meeting needs attendees, and the user is added to them.",
    [
      stringParam("name", "Title of the event.", true),
      { ...stringParam("event_type", "Either 'meeting' or 'event'.", true), enum: ["meeting", "event"] },
      stringParam("description", "Optional notes about the event, up to 1024 characters.", false),
      stringParam("start_time", "When it starts, as %Y-%m-%d %H:%M:%S.", true),
      stringParam("end_time", "When it ends, as %Y-%m-%d %H:%M:%S.", true),
      stringParam("location", "Optional. Where it takes place.", false),
      listParam("attendees", "Usernames of the people taking part. Needed for a meeting.", false),
    ],
    "event_id: the new event's id.",
    { type: "object", properties: { event_id: { type: "string" } } },
    true,
    ["Event type … not supported.", "Meeting must have attendees.", ...STRPTIME_ERRORS(DATETIME_FORMAT), START_AFTER_END, NOT_FUTURE],
  ),
  requiresAuth: true,
  newId: eventIdOf,
  call(args, env) {
    const eventType = arg(args, "event_type");
    if (!["meeting", "event"].some((t) => pyEquals(t, eventType))) throw apiException(`Event type ${pyStr(eventType)} not supported.`);
    let attendees: PyValue = arg(args, "attendees");
    if (pyEquals(eventType, "meeting") && !pyTruthy(attendees)) throw apiException("Meeting must have attendees.");
    const username = ownerOf(args, env);
    checkNewTimes(arg(args, "start_time"), arg(args, "end_time"), env.now);
    if (attendees !== null) attendees = withOwner(attendees, username);
    const eventId = eventIdOf(env.random);
    putItem(env.world, CALENDAR.name, "event_id", {
      username: toCell(username),
      event_id: eventId,
      name: toCell(arg(args, "name")),
      event_type: toCell(eventType),
      start_time: toCell(arg(args, "start_time")),
      end_time: toCell(arg(args, "end_time")),
      location: toCell(arg(args, "location")),
      description: toCell(arg(args, "description")),
      attendees: toCell(attendees),
    });
    env.collections.markCreated(username, eventId, true);
    return { event_id: eventId };
  },
};

const deleteEvent: ToolTalkApi = {
  definition: tool(
    "DeleteEvent",
    "Remove an event from the user's calendar.",
    [stringParam("event_id", "Id of the event to remove.", true)],
    'status: "success" when it worked.',
    STATUS_SCHEMA,
    true,
    ["Event … not found."],
  ),
  requiresAuth: true,
  call(args, env) {
    const username = ownerOf(args, env);
    const position = eventPosition(args, env, username);
    env.collections.markCreated(username, arg(args, "event_id"), false);
    deleteItem(env.world, env.collections, CALENDAR.name, position);
    return { status: "success" };
  },
};

const modifyEvent: ToolTalkApi = {
  definition: tool(
    "ModifyEvent",
    "Change an existing event. Only the fields given change; a new start and a new end must be given together and lie in the future.",
    [
      stringParam("event_id", "Id of the event to change.", true),
      stringParam("new_name", "The new title.", false),
      stringParam("new_start_time", "The new start, %Y-%m-%d %H:%M:%S.", false),
      stringParam("new_end_time", "The new end, %Y-%m-%d %H:%M:%S. Needed with new_start_time.", false),
      stringParam("new_description", "The new notes.", false),
      stringParam("new_location", "The new place.", false),
      listParam("new_attendees", "The new list of attendees' usernames.", false),
    ],
    'status: "success" when it worked.',
    STATUS_SCHEMA,
    true,
    [
      "Event … not found.",
      "new_end_time must be provided if new_start_time is provided.",
      "new_start_time must be provided if new_end_time is provided.",
      ...STRPTIME_ERRORS(DATETIME_FORMAT),
      START_AFTER_END,
      NOT_FUTURE,
    ],
  ),
  requiresAuth: true,
  call(args, env) {
    const username = ownerOf(args, env);
    const position = eventPosition(args, env, username);
    // ToolTalk edits the stored event field by field: a change made before a refusal stays.
    const set = (column: string, value: PyValue): void => void env.world.updateAt(CALENDAR.name, position, { [column]: toCell(value) });
    const [name, start, end] = [arg(args, "new_name"), arg(args, "new_start_time"), arg(args, "new_end_time")];
    if (name !== null) set("name", name);
    if (start !== null) {
      if (end === null) throw apiException("new_end_time must be provided if new_start_time is provided.");
      checkNewTimes(start, end, env.now);
      set("start_time", start);
    }
    if (end !== null) {
      if (start === null) throw apiException("new_start_time must be provided if new_end_time is provided.");
      set("end_time", end);
    }
    const [description, location, attendees] = [arg(args, "new_description"), arg(args, "new_location"), arg(args, "new_attendees")];
    if (description !== null) set("description", description);
    if (location !== null) set("location", location);
    if (attendees !== null) set("attendees", withOwner(attendees, username));
    return { status: "success" };
  },
};

function eventJson(row: Row, order: readonly string[]): JsonObject {
  const event: Record<string, JsonValue> = {};
  for (const key of order) event[key] = cellJson(row[key]);
  return event;
}

const queryCalendar: ToolTalkApi = {
  definition: tool(
    "QueryCalendar",
    "List the user's events that start, end or are under way between two times.",
    [
      stringParam("start_time", "Beginning of the period, %Y-%m-%d %H:%M:%S.", true),
      stringParam("end_time", "End of the period, %Y-%m-%d %H:%M:%S.", true),
    ],
    "events: the events found, with all their fields.",
    { type: "object", properties: { events: { type: "array", items: EVENT_SCHEMA } } },
    false,
    ["User … has no events.", ...STRPTIME_ERRORS(DATETIME_FORMAT), START_AFTER_END],
  ),
  requiresAuth: true,
  call(args, env) {
    const username = ownerOf(args, env);
    if (!env.collections.exists(env.world, CALENDAR.name, username))
      throw apiException(`User ${pyStr(username as JsonValue)} has no events.`);
    const from = strptime(arg(args, "start_time"), DATETIME_FORMAT);
    const to = strptime(arg(args, "end_time"), DATETIME_FORMAT);
    if (compareNaive(from, to) > 0) throw apiException(START_AFTER_END);
    const within = (t: NaiveDateTime): boolean => compareNaive(from, t) <= 0 && compareNaive(t, to) <= 0;
    const events = ownedRows(env.world, CALENDAR.name, username).filter((event) => {
      const eventStart = strptime(event.start_time ?? null, DATETIME_FORMAT);
      const eventEnd = strptime(event.end_time ?? null, DATETIME_FORMAT);
      return within(eventStart) || within(eventEnd) || (compareNaive(eventStart, from) <= 0 && compareNaive(eventEnd, to) >= 0);
    });
    return {
      events: events.map((event) =>
        eventJson(event, env.collections.wasCreated(username, event.event_id ?? null) ? CREATED_ORDER : DATABASE_ORDER),
      ),
    };
  },
};

export const CALENDAR_APIS: readonly ToolTalkApi[] = [createEvent, deleteEvent, modifyEvent, queryCalendar];

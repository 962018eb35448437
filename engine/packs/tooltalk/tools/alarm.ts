// ToolTalk's Alarm suite: set, delete and list the logged-in user's alarms.
import type { JsonObject } from "../../../base/json.js";
import type { PythonRandom } from "../../../python/random.js";
import { STRPTIME_ERRORS, apiException, arg, hex, stringParam, type ToolTalkApi, loggedInSuiteTool } from "./api.js";
import { cellJson, deleteItem, findItem, ownedRows, putItem } from "./collections.js";
import { pyStr } from "./python-semantics.js";
import { accountByToken } from "./login-session.js";
import { TIME_FORMAT, compareNaive, strptime } from "./strptime.js";
import { ALARM } from "../tables.js";

/** The id of a new item, drawn from the tool's generator. */
function alarmIdOf(random: PythonRandom): string {
  return `${hex(random.randint(0, 0xffff), 4)}-${hex(random.randint(0, 0xffff), 4)}`;
}

const SUITE = { module: "Alarm", domain: "Alarm" } as const;
const ALARM_SCHEMA: JsonObject = { type: "object", properties: { alarm_id: { type: "string" }, time: { type: "string" } } };

const tool = loggedInSuiteTool(SUITE);

const addAlarm: ToolTalkApi = {
  definition: tool(
    "AddAlarm",
    "Set an alarm at a time of day.",
    [stringParam("time", "When the alarm rings, as HH:MM:SS (24-hour clock).", true)],
    "alarm_id: the new alarm's id, xxxx-xxxx.",
    { type: "object", properties: { alarm_id: { type: "string" } } },
    true,
    STRPTIME_ERRORS(TIME_FORMAT),
  ),
  requiresAuth: true,
  newId: alarmIdOf,
  call(args, { world, random, collections }) {
    const time = arg(args, "time");
    // ToolTalk checks the time before the login.
    strptime(time, TIME_FORMAT);
    const username = accountByToken(world, arg(args, "session_token")).row.username ?? null;
    collections.keep(ALARM.name, username);
    const alarmId = alarmIdOf(random);
    putItem(world, ALARM.name, "alarm_id", { username, alarm_id: alarmId, time: time as string });
    return { alarm_id: alarmId };
  },
};

const deleteAlarm: ToolTalkApi = {
  definition: tool(
    "DeleteAlarm",
    "Remove one of the user's alarms.",
    [stringParam("alarm_id", "Id of the alarm to remove, xxxx-xxxx.", true)],
    'status: "success" when it worked.',
    { type: "object", properties: { status: { type: "string" } } },
    true,
    ["Alarm … not found."],
  ),
  requiresAuth: true,
  call(args, { world, collections }) {
    const username = accountByToken(world, arg(args, "session_token")).row.username ?? null;
    const alarmId = arg(args, "alarm_id");
    const notFound = apiException(`Alarm ${pyStr(alarmId)} not found.`);
    if (!collections.exists(world, ALARM.name, username)) throw notFound;
    const position = findItem(world, ALARM.name, "alarm_id", username, alarmId);
    if (position < 0) throw notFound;
    deleteItem(world, collections, ALARM.name, position);
    return { status: "success" };
  },
};

const findAlarms: ToolTalkApi = {
  definition: tool(
    "FindAlarms",
    "List the user's alarms, optionally only those between two times of day (bounds included).",
    [
      stringParam("start_range", "Optional. Earliest time to include, HH:MM:SS.", false),
      stringParam("end_range", "Optional. Latest time to include, HH:MM:SS.", false),
    ],
    "alarms: the alarms found, each with its alarm_id and time.",
    { type: "object", properties: { alarms: { type: "array", items: ALARM_SCHEMA } } },
    false,
    [...STRPTIME_ERRORS(TIME_FORMAT), "Start range must be earlier than end range."],
  ),
  requiresAuth: true,
  call(args, { world, collections }) {
    const username = accountByToken(world, arg(args, "session_token")).row.username ?? null;
    if (!collections.exists(world, ALARM.name, username)) return { alarms: [] };
    const startText = arg(args, "start_range");
    const endText = arg(args, "end_range");
    const start = startText === null ? null : strptime(startText, TIME_FORMAT);
    const end = endText === null ? null : strptime(endText, TIME_FORMAT);
    if (start && end && compareNaive(start, end) > 0) throw apiException("Start range must be earlier than end range.");
    const alarms = ownedRows(world, ALARM.name, username).filter((alarm) => {
      const time = strptime(alarm.time ?? null, TIME_FORMAT);
      return !(start && compareNaive(time, start) < 0) && !(end && compareNaive(time, end) > 0);
    });
    return { alarms: alarms.map((alarm) => ({ alarm_id: cellJson(alarm.alarm_id), time: cellJson(alarm.time) })) };
  },
};

export const ALARM_APIS: readonly ToolTalkApi[] = [addAlarm, deleteAlarm, findAlarms];

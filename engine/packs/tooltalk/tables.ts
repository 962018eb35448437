// ToolTalk's world as flat tables (schemas only: no tools, no data, so the webview and the
// trajectory reader can load it). ToolTalk keeps eight JSON databases keyed by username (weather:
// by location); here every item is one row carrying its owner, in the databases' own order.
// Times stay the strings ToolTalk stores ("YYYY-MM-DD HH:MM:SS", alarms "HH:MM:SS"): its tools
// parse them as naive local times, so they are not POSIX timestamps.
//
// SESSION is ToolTalk's "current session", which its executor keeps outside the databases: the
// token it injects into every call that needs a login. Kept in the world, it is visible to
// milestones and to the panel like any other state.
import type { ColumnSchema, TableSchema } from "../../world/types.js";
import type { PackTables } from "../types.js";

const OWNER: ColumnSchema = { name: "username", type: "string", nullable: false, description: "The account this item belongs to." };

export const ACCOUNT: TableSchema = {
  name: "ACCOUNT",
  key: "username",
  description: "User accounts. A session_token marks the account that is logged in.",
  columns: [
    { name: "username", type: "string", nullable: false, description: "Unique name the user logs in with." },
    { name: "email", type: "string", nullable: false, description: "E-mail address; password resets are checked against it." },
    { name: "phone", type: "string", nullable: true, description: "Phone number, xxx-xxx-xxxx." },
    { name: "name", type: "string", nullable: true, description: "The person's full name." },
    { name: "password", type: "string", nullable: false, description: "Current password, in clear (this is a simulation)." },
    { name: "session_token", type: "string", nullable: true, description: "Token of the open login, null when logged out." },
    {
      name: "verification_code",
      type: "string",
      nullable: true,
      description: "Six-digit code sent for a password reset, null when none was sent.",
    },
  ],
};

export const SESSION: TableSchema = {
  name: "SESSION",
  key: "username",
  singleton: true,
  description: "Who is logged in: the token tools that need a login are called with. Both null when nobody is.",
  columns: [
    { name: "username", type: "string", nullable: true, description: "The logged-in user, null when nobody is." },
    { name: "session_token", type: "string", nullable: true, description: "That user's session token, null when nobody is logged in." },
  ],
};

export const ALARM: TableSchema = {
  name: "ALARM",
  key: "alarm_id",
  description: "Alarms, per user. Ids are unique within one user's alarms only.",
  columns: [
    OWNER,
    { name: "alarm_id", type: "string", nullable: false, description: "Identifier of the alarm, xxxx-xxxx in hex." },
    { name: "time", type: "string", nullable: false, description: "Time of day the alarm rings, HH:MM:SS." },
  ],
};

export const CALENDAR: TableSchema = {
  name: "CALENDAR",
  key: "event_id",
  description: "Calendar events and meetings, per user.",
  columns: [
    OWNER,
    { name: "event_id", type: "string", nullable: false, description: "Identifier of the event, xxxxxxxx-xxxx in hex." },
    { name: "name", type: "string", nullable: false, freeText: true, description: "Title of the event." },
    { name: "event_type", type: "string", nullable: false, description: '"meeting" (has attendees) or "event".' },
    { name: "start_time", type: "string", nullable: false, description: "Start, YYYY-MM-DD HH:MM:SS local time." },
    { name: "end_time", type: "string", nullable: false, description: "End, YYYY-MM-DD HH:MM:SS local time." },
    { name: "location", type: "string", nullable: true, freeText: true, description: "Where it takes place, if known." },
    { name: "description", type: "string", nullable: true, freeText: true, description: "Notes about the event, if any." },
    {
      name: "attendees",
      type: "string_list",
      nullable: true,
      description: "Usernames taking part (the owner included), null for a plain event.",
    },
  ],
};

export const EMAIL: TableSchema = {
  name: "EMAIL",
  key: "email_id",
  description: "Each user's inbox. Mail sent with SendEmail is not stored.",
  columns: [
    OWNER,
    { name: "email_id", type: "string", nullable: false, description: "Identifier of the e-mail." },
    { name: "date", type: "string", nullable: false, description: "When it arrived, YYYY-MM-DD HH:MM:SS local time." },
    { name: "sender", type: "string", nullable: false, description: "The sender's e-mail address." },
    { name: "receivers", type: "string_list", nullable: false, description: "Addresses it was sent to." },
    { name: "subject", type: "string", nullable: false, freeText: true, description: "Subject line." },
    { name: "body", type: "string", nullable: false, freeText: true, description: "Text of the e-mail." },
  ],
};

export const MESSAGE: TableSchema = {
  name: "MESSAGE",
  key: "message_id",
  description: "Text messages each user received. Messages sent with SendMessage are not stored.",
  columns: [
    OWNER,
    { name: "message_id", type: "string", nullable: false, description: "Identifier of the message." },
    { name: "timestamp", type: "string", nullable: false, description: "When it arrived, YYYY-MM-DD HH:MM:SS local time." },
    { name: "sender", type: "string", nullable: false, description: "Username of the sender." },
    { name: "message", type: "string", nullable: false, freeText: true, description: "Text of the message." },
  ],
};

export const REMINDER: TableSchema = {
  name: "REMINDER",
  key: "reminder_id",
  description: "Each user's to-do reminders.",
  columns: [
    OWNER,
    { name: "reminder_id", type: "string", nullable: false, description: "Identifier of the reminder, xx-xxxx in hex." },
    { name: "task", type: "string", nullable: false, freeText: true, description: "What to do." },
    { name: "due_date", type: "string", nullable: true, description: "When it is due, YYYY-MM-DD HH:MM:SS, if it has a due date." },
    { name: "status", type: "string", nullable: false, description: '"pending", or "complete" once done.' },
  ],
};

export const WEATHER: TableSchema = {
  name: "WEATHER",
  key: "location",
  description: "Daily weather per place: the current day's row answers CurrentWeather, the next three ForecastWeather.",
  columns: [
    { name: "location", type: "string", nullable: false, description: "Place name in lower case." },
    { name: "date", type: "string", nullable: false, description: "The day, YYYY-MM-DD." },
    { name: "high", type: "int", nullable: false, description: "Highest temperature of the day, °F." },
    { name: "low", type: "int", nullable: false, description: "Lowest temperature of the day, °F." },
    { name: "conditions", type: "string", nullable: false, description: "Sky and precipitation in words." },
  ],
};

export const HISTORIC_WEATHER: TableSchema = {
  name: "HISTORIC_WEATHER",
  key: "location",
  description: "Climate averages and records per place and month.",
  columns: [
    { name: "location", type: "string", nullable: false, description: "Place name in lower case." },
    { name: "month", type: "string", nullable: false, description: "Full month name in lower case." },
    { name: "min_temp", type: "int", nullable: false, description: "Average low, °F." },
    { name: "max_temp", type: "int", nullable: false, description: "Average high, °F." },
    { name: "record_min_temp", type: "int", nullable: false, description: "Lowest temperature on record, °F." },
    { name: "record_max_temp", type: "int", nullable: false, description: "Highest temperature on record, °F." },
    { name: "avg_rainfall", type: "float", nullable: false, description: "Average rainfall over the month, inches." },
    { name: "snow_days", type: "int", nullable: false, description: "Average number of days with snow." },
  ],
};

export const TOOLTALK_TABLE_LIST: readonly TableSchema[] = [
  ACCOUNT,
  SESSION,
  ALARM,
  CALENDAR,
  EMAIL,
  MESSAGE,
  REMINDER,
  WEATHER,
  HISTORIC_WEATHER,
];

export const TOOLTALK_TABLES: PackTables = {
  id: "tooltalk",
  title: "ToolTalk: accounts with a login session, alarms, calendar, e-mail, messages, reminders and weather (28 tools)",
  schemas: new Map(TOOLTALK_TABLE_LIST.map((t) => [t.name, t])),
  // Usernames and addresses are what people type; ids are labelled with what they name. Lists take
  // the values of their items: attendees are usernames, recipients e-mail addresses. A sender is
  // offered from the mail or messages already received, the only senders a search can find.
  valueSources: [
    { match: { suffix: "username" }, table: "ACCOUNT", column: "username", label: "name" },
    { match: { exact: "receiver" }, table: "ACCOUNT", column: "username", label: "name" },
    { match: { suffix: "attendees" }, table: "ACCOUNT", column: "username", label: "name" },
    { match: { exact: "email" }, table: "ACCOUNT", column: "email", label: "name" },
    { match: { exact: "to" }, table: "ACCOUNT", column: "email", label: "name" },
    { match: { suffix: "receivers" }, table: "ACCOUNT", column: "email", label: "name" },
    { match: { exact: "sender", only: ["EMAIL", "SearchInbox"] }, table: "EMAIL", column: "sender" },
    { match: { exact: "sender", only: ["MESSAGE", "SearchMessages"] }, table: "MESSAGE", column: "sender" },
    { match: { suffix: "alarm_id" }, table: "ALARM", column: "alarm_id", label: "time" },
    { match: { suffix: "event_id" }, table: "CALENDAR", column: "event_id", label: "name" },
    { match: { suffix: "email_id" }, table: "EMAIL", column: "email_id", label: "subject" },
    { match: { suffix: "message_id" }, table: "MESSAGE", column: "message_id", label: "message" },
    { match: { suffix: "reminder_id" }, table: "REMINDER", column: "reminder_id", label: "task" },
    { match: { exact: "location" }, table: "WEATHER", column: "location" },
    { match: { exact: "month" }, table: "HISTORIC_WEATHER", column: "month", label: "location" },
  ],
};

// The cases tool creation runs for ToolTalk's tools, and the small world they start from (ours:
// ToolTalk's databases do not ship). Every tool that needs a login reads the SESSION table (who
// is logged in) and the ACCOUNT table (whose token it is); the login tools write both. Cases cover
// ordinary calls, refusals (a wrong password, an unknown id, a bad time) and the session's states
// (nobody logged in, someone already logged in, a user with no items). Expected outcomes are not
// written here: cases.ts computes them by running our implementation through the pack's runtime.
import type { Row, Tables } from "../../../world/types.js";
import type { CaseSpec, ToolCaseSpecs } from "./cases.js";

type Mutable = Record<string, Row[]>;

const ANA_TOKEN = "5f3c9a10-7b2e-41d8";

const account = (username: string, email: string, phone: string | null, name: string, password: string): Row => ({
  username,
  email,
  phone,
  name,
  password,
  session_token: null,
  verification_code: null,
});

/** The world every case starts from: ana is logged in; ben has a reset code waiting; cleo has nothing. */
export function tooltalkCaseWorld(): Tables {
  return {
    ACCOUNT: [
      { ...account("ana", "ana@example.com", "555-010-0001", "Ana Ruiz", "sunflower7"), session_token: ANA_TOKEN },
      { ...account("ben", "ben@example.com", "555-010-0002", "Ben Osei", "tr41lhead"), verification_code: "480213" },
      account("cleo", "shared@example.com", null, "Cleo Park", "quartz"),
      account("dev", "shared@example.com", "555-010-0004", "Dev Patel", "m00nlight"),
    ],
    SESSION: [{ username: "ana", session_token: ANA_TOKEN }],
    ALARM: [
      { username: "ana", alarm_id: "1a2b-3c4d", time: "07:30:00" },
      { username: "ana", alarm_id: "5e6f-7a8b", time: "21:15:00" },
      { username: "ben", alarm_id: "0c0d-0e0f", time: "06:00:00" },
    ],
    CALENDAR: [
      {
        username: "ana",
        event_id: "0a1b2c3d-4e5f",
        name: "Dentist",
        event_type: "event",
        start_time: "2024-06-03 09:00:00",
        end_time: "2024-06-03 10:00:00",
        location: "Main St Clinic",
        description: null,
        attendees: null,
      },
      {
        username: "ana",
        event_id: "1b2c3d4e-5f60",
        name: "Project sync",
        event_type: "meeting",
        start_time: "2024-06-04 14:00:00",
        end_time: "2024-06-04 15:00:00",
        location: null,
        description: "Weekly status",
        attendees: ["ana", "ben"],
      },
    ],
    EMAIL: [
      {
        username: "ana",
        email_id: "e-0001",
        date: "2024-05-20 10:00:00",
        sender: "travel@example.com",
        receivers: ["ana@example.com"],
        subject: "Your flight to Lisbon",
        body: "Boarding pass attached.",
      },
      {
        username: "ana",
        email_id: "e-0002",
        date: "2024-05-29 16:30:00",
        sender: "ben@example.com",
        receivers: ["ana@example.com", "dev@example.com"],
        subject: "Budget draft",
        body: "The budget for the Lisbon trip, for review.",
      },
    ],
    MESSAGE: [
      { username: "ana", message_id: "m-0001", timestamp: "2024-05-28 08:15:00", sender: "ben", message: "Running late for the sync" },
      { username: "ana", message_id: "m-0002", timestamp: "2024-05-30 19:40:00", sender: "dev", message: "Dinner on Friday?" },
      { username: "ana", message_id: "m-0003", timestamp: "2024-05-31 12:05:00", sender: "ben", message: "Friday dinner works for me" },
      { username: "ana", message_id: "m-0004", timestamp: "2024-06-02 09:00:00", sender: "ben", message: "Sent in the future" },
    ],
    REMINDER: [
      { username: "ana", reminder_id: "3f-0a1b", task: "Buy stamps", due_date: "2024-06-02 12:00:00", status: "pending" },
      { username: "ana", reminder_id: "4e-2c3d", task: "Call the plumber", due_date: null, status: "complete" },
    ],
    WEATHER: [
      { location: "lisbon", date: "2024-06-01", high: 77, low: 61, conditions: "sunny" },
      { location: "lisbon", date: "2024-06-02", high: 79, low: 62, conditions: "partly cloudy" },
      { location: "lisbon", date: "2024-06-03", high: 74, low: 60, conditions: "light rain" },
      { location: "lisbon", date: "2024-06-04", high: 75, low: 59, conditions: "cloudy" },
      { location: "oslo", date: "2024-06-02", high: 64, low: 48, conditions: "showers" },
    ],
    HISTORIC_WEATHER: [
      {
        location: "lisbon",
        month: "june",
        min_temp: 60,
        max_temp: 80,
        record_min_temp: 46,
        record_max_temp: 106,
        avg_rainfall: 0.5,
        snow_days: 0,
      },
    ],
  };
}

/** Nobody logged in: the session is empty and ana's account holds no token. */
const loggedOut = (t: Mutable): void => {
  t.SESSION = [{ username: null, session_token: null }];
  t.ACCOUNT = (t.ACCOUNT ?? []).map((r) => (r.username === "ana" ? { ...r, session_token: null } : r));
};

/** `username` logged in instead of ana. */
const loggedInAs =
  (username: string) =>
  (t: Mutable): void => {
    const token = `${username}-token-0001`;
    t.SESSION = [{ username, session_token: token }];
    t.ACCOUNT = (t.ACCOUNT ?? []).map((r) => ({ ...r, session_token: r.username === username ? token : null }));
  };

const NOBODY: CaseSpec = { label: "nobody is logged in", kind: "state", arguments: {}, world: loggedOut };
/** The "nobody is logged in" case with the arguments a call would otherwise need. */
const nobody = (args: CaseSpec["arguments"]): CaseSpec => ({ ...NOBODY, arguments: args });

const AUTH = ["SESSION", "ACCOUNT"] as const;

export const TOOLTALK_CASES: readonly ToolCaseSpecs[] = [
  // Account
  {
    tool: "UserLogin",
    tables: [...AUTH],
    cases: [
      { label: "ben logs in", kind: "valid", arguments: { username: "ben", password: "tr41lhead" }, world: loggedOut },
      { label: "someone is already logged in", kind: "state", arguments: { username: "ben", password: "tr41lhead" } },
      { label: "a wrong password", kind: "edge", arguments: { username: "ben", password: "guess" }, world: loggedOut },
      { label: "an unknown username", kind: "edge", arguments: { username: "zoe", password: "x" }, world: loggedOut },
      {
        label: "the account still holds a token",
        kind: "state",
        arguments: { username: "ana", password: "sunflower7" },
        world: (t) => void (t.SESSION = [{ username: null, session_token: null }]),
      },
    ],
  },
  {
    tool: "LogoutUser",
    tables: [...AUTH],
    cases: [
      { label: "the user logs out", kind: "valid", arguments: {} },
      NOBODY,
      {
        label: "the session's token is no account's",
        kind: "state",
        arguments: {},
        world: (t) => void (t.SESSION = [{ username: "ana", session_token: "0000-stale" }]),
      },
    ],
  },
  {
    tool: "RegisterUser",
    tables: [...AUTH],
    cases: [
      {
        label: "a new user while nobody is logged in",
        kind: "valid",
        arguments: { username: "eve", password: "p4ss", email: "eve@example.com", name: "Eve Stone" },
        world: loggedOut,
      },
      {
        label: "with a phone number",
        kind: "valid",
        arguments: { username: "fay", password: "p4ss", email: "fay@example.com", phone: "555-010-0009" },
        world: loggedOut,
      },
      { label: "while someone is logged in", kind: "state", arguments: { username: "eve", password: "p4ss", email: "eve@example.com" } },
      {
        label: "a username already taken",
        kind: "edge",
        arguments: { username: "ben", password: "p4ss", email: "b2@example.com" },
        world: loggedOut,
      },
      {
        label: "an e-mail without @",
        kind: "edge",
        arguments: { username: "eve", password: "p4ss", email: "eve.example.com" },
        world: loggedOut,
      },
      {
        label: "a phone number not written xxx-xxx-xxxx",
        kind: "edge",
        arguments: { username: "eve", password: "p4ss", email: "eve@example.com", phone: "5550100009" },
        world: loggedOut,
      },
    ],
  },
  {
    tool: "ChangePassword",
    tables: [...AUTH],
    cases: [
      { label: "the right old password", kind: "valid", arguments: { old_password: "sunflower7", new_password: "daisy8" } },
      { label: "a wrong old password", kind: "edge", arguments: { old_password: "tulip", new_password: "daisy8" } },
      { label: "no new password", kind: "edge", arguments: { old_password: "sunflower7" } },
      nobody({ old_password: "sunflower7", new_password: "daisy8" }),
    ],
  },
  {
    tool: "DeleteAccount",
    tables: [...AUTH],
    cases: [
      { label: "the right password", kind: "valid", arguments: { password: "sunflower7" } },
      { label: "a wrong password", kind: "edge", arguments: { password: "tulip" } },
      nobody({ password: "sunflower7" }),
    ],
  },
  {
    tool: "GetAccountInformation",
    tables: [...AUTH],
    cases: [
      { label: "the logged-in user", kind: "valid", arguments: {} },
      { label: "another user logged in, without a phone", kind: "state", arguments: {}, world: loggedInAs("cleo") },
      NOBODY,
    ],
  },
  {
    tool: "QueryUser",
    tables: [...AUTH],
    cases: [
      { label: "by username", kind: "valid", arguments: { username: "ben" } },
      { label: "by an e-mail two users share", kind: "valid", arguments: { email: "shared@example.com" } },
      { label: "the username decides when both are given", kind: "edge", arguments: { username: "ben", email: "shared@example.com" } },
      { label: "an unknown username", kind: "edge", arguments: { username: "zoe" } },
      { label: "neither username nor e-mail", kind: "edge", arguments: {} },
    ],
  },
  {
    tool: "SendVerificationCode",
    tables: ["ACCOUNT"],
    cases: [
      { label: "the account's own e-mail", kind: "valid", arguments: { username: "cleo", email: "shared@example.com" } },
      { label: "while nobody is logged in", kind: "state", arguments: { username: "ana", email: "ana@example.com" }, world: loggedOut },
      { label: "an e-mail that is not the account's", kind: "edge", arguments: { username: "cleo", email: "ana@example.com" } },
      { label: "an unknown username", kind: "edge", arguments: { username: "zoe", email: "zoe@example.com" } },
    ],
  },
  {
    tool: "ResetPassword",
    tables: ["ACCOUNT"],
    cases: [
      { label: "the code that was sent", kind: "valid", arguments: { username: "ben", verification_code: "480213", new_password: "n3w" } },
      { label: "a wrong code", kind: "edge", arguments: { username: "ben", verification_code: "111111", new_password: "n3w" } },
      {
        label: "an account never sent a code",
        kind: "state",
        arguments: { username: "cleo", verification_code: "000000", new_password: "n3w" },
      },
      { label: "an unknown username", kind: "edge", arguments: { username: "zoe", verification_code: "480213", new_password: "n3w" } },
    ],
  },
  {
    tool: "UpdateAccountInformation",
    tables: [...AUTH],
    cases: [
      { label: "a new e-mail", kind: "valid", arguments: { password: "sunflower7", new_email: "ana.ruiz@example.com" } },
      {
        label: "a new phone number and name",
        kind: "valid",
        arguments: { password: "sunflower7", new_phone_number: "555-010-0100", new_name: "Ana R. Ruiz" },
      },
      { label: "neither e-mail nor phone", kind: "edge", arguments: { password: "sunflower7", new_name: "Ana" } },
      { label: "an invalid phone number", kind: "edge", arguments: { password: "sunflower7", new_phone_number: "12345" } },
      { label: "a wrong password", kind: "edge", arguments: { password: "tulip", new_email: "a@example.com" } },
      nobody({ password: "sunflower7", new_email: "a@example.com" }),
    ],
  },
  // Alarm
  {
    tool: "AddAlarm",
    tables: [...AUTH, "ALARM"],
    cases: [
      { label: "an alarm at 06:45", kind: "valid", arguments: { time: "06:45:00" } },
      { label: "a user with no alarms yet", kind: "state", arguments: { time: "12:00:00" }, world: loggedInAs("cleo") },
      { label: "a time that is not HH:MM:SS", kind: "edge", arguments: { time: "7am" } },
      nobody({ time: "06:45:00" }),
    ],
  },
  {
    tool: "DeleteAlarm",
    tables: [...AUTH, "ALARM"],
    cases: [
      { label: "one of the user's alarms", kind: "valid", arguments: { alarm_id: "5e6f-7a8b" } },
      { label: "an unknown alarm", kind: "edge", arguments: { alarm_id: "ffff-ffff" } },
      { label: "another user's alarm", kind: "state", arguments: { alarm_id: "0c0d-0e0f" } },
    ],
  },
  {
    tool: "FindAlarms",
    tables: [...AUTH, "ALARM"],
    cases: [
      { label: "all of them", kind: "valid", arguments: {} },
      { label: "between 07:00 and 12:00", kind: "valid", arguments: { start_range: "07:00:00", end_range: "12:00:00" } },
      { label: "from 21:15 on, the bound included", kind: "edge", arguments: { start_range: "21:15:00" } },
      { label: "a start after the end", kind: "edge", arguments: { start_range: "12:00:00", end_range: "07:00:00" } },
      { label: "a user with no alarms", kind: "state", arguments: {}, world: loggedInAs("cleo") },
    ],
  },
  // Calendar
  {
    tool: "CreateEvent",
    tables: [...AUTH, "CALENDAR"],
    cases: [
      {
        label: "an event with a place",
        kind: "valid",
        arguments: {
          name: "Yoga",
          event_type: "event",
          start_time: "2024-06-10 18:00:00",
          end_time: "2024-06-10 19:00:00",
          location: "Studio 4",
        },
      },
      {
        label: "a meeting: the user joins its attendees",
        kind: "valid",
        arguments: {
          name: "Budget review",
          event_type: "meeting",
          description: "Q3 numbers",
          start_time: "2024-06-11 10:00:00",
          end_time: "2024-06-11 11:00:00",
          attendees: ["ben", "dev"],
        },
      },
      {
        label: "a meeting without attendees",
        kind: "edge",
        arguments: { name: "Sync", event_type: "meeting", start_time: "2024-06-11 10:00:00", end_time: "2024-06-11 11:00:00" },
      },
      {
        label: "a type that is neither meeting nor event",
        kind: "edge",
        arguments: { name: "Trip", event_type: "holiday", start_time: "2024-06-11 10:00:00", end_time: "2024-06-12 10:00:00" },
      },
      {
        label: "a start in the past",
        kind: "state",
        arguments: { name: "Late", event_type: "event", start_time: "2024-05-30 10:00:00", end_time: "2024-06-02 11:00:00" },
      },
      {
        label: "an end before the start",
        kind: "edge",
        arguments: { name: "Backwards", event_type: "event", start_time: "2024-06-11 11:00:00", end_time: "2024-06-11 10:00:00" },
      },
    ],
  },
  {
    tool: "DeleteEvent",
    tables: [...AUTH, "CALENDAR"],
    cases: [
      { label: "one of the user's events", kind: "valid", arguments: { event_id: "0a1b2c3d-4e5f" } },
      { label: "an unknown event", kind: "edge", arguments: { event_id: "ffffffff-ffff" } },
      { label: "a user with no events", kind: "state", arguments: { event_id: "0a1b2c3d-4e5f" }, world: loggedInAs("ben") },
    ],
  },
  {
    tool: "ModifyEvent",
    tables: [...AUTH, "CALENDAR"],
    cases: [
      {
        label: "a new name and place",
        kind: "valid",
        arguments: { event_id: "0a1b2c3d-4e5f", new_name: "Dentist check-up", new_location: "Elm St" },
      },
      {
        label: "new times",
        kind: "valid",
        arguments: { event_id: "1b2c3d4e-5f60", new_start_time: "2024-06-05 14:00:00", new_end_time: "2024-06-05 15:30:00" },
      },
      {
        label: "new attendees: the user stays among them",
        kind: "valid",
        arguments: { event_id: "1b2c3d4e-5f60", new_attendees: ["dev"] },
      },
      {
        label: "a new start without a new end",
        kind: "edge",
        arguments: { event_id: "1b2c3d4e-5f60", new_start_time: "2024-06-05 14:00:00" },
      },
      { label: "an unknown event", kind: "edge", arguments: { event_id: "ffffffff-ffff", new_name: "X" } },
    ],
  },
  {
    tool: "QueryCalendar",
    tables: [...AUTH, "CALENDAR"],
    cases: [
      {
        label: "a week holding both events",
        kind: "valid",
        arguments: { start_time: "2024-06-01 00:00:00", end_time: "2024-06-07 23:59:59" },
      },
      {
        label: "a period inside an event",
        kind: "edge",
        arguments: { start_time: "2024-06-04 14:15:00", end_time: "2024-06-04 14:45:00" },
      },
      { label: "a day with none", kind: "edge", arguments: { start_time: "2024-06-05 00:00:00", end_time: "2024-06-05 23:59:59" } },
      { label: "a start after the end", kind: "edge", arguments: { start_time: "2024-06-07 00:00:00", end_time: "2024-06-01 00:00:00" } },
      {
        label: "a user who never had events",
        kind: "state",
        arguments: { start_time: "2024-06-01 00:00:00", end_time: "2024-06-07 23:59:59" },
        world: loggedInAs("ben"),
      },
    ],
  },
  // Email and Messages
  {
    tool: "SendEmail",
    tables: [...AUTH],
    cases: [
      { label: "to two addresses", kind: "valid", arguments: { to: ["ben@example.com", "dev@x.org"], subject: "Hi", body: "See you" } },
      { label: "an address without @", kind: "edge", arguments: { to: ["ben@example.com", "dev"], subject: "Hi", body: "See you" } },
      nobody({ to: ["ben@example.com"], subject: "Hi", body: "See you" }),
    ],
  },
  {
    tool: "SearchInbox",
    tables: [...AUTH, "EMAIL"],
    cases: [
      { label: "a keyword in the subject or body", kind: "valid", arguments: { query: "lisbon" } },
      { label: "from one sender", kind: "valid", arguments: { sender: "ben@example.com" } },
      { label: "a date range", kind: "edge", arguments: { start_date: "2024-05-25 00:00:00", end_date: "2024-05-31 00:00:00" } },
      { label: "a start after the end", kind: "edge", arguments: { start_date: "2024-05-31 00:00:00", end_date: "2024-05-25 00:00:00" } },
      { label: "a user with an empty inbox", kind: "state", arguments: {}, world: loggedInAs("ben") },
    ],
  },
  {
    tool: "SendMessage",
    tables: [...AUTH],
    cases: [
      { label: "a message to ben", kind: "valid", arguments: { receiver: "ben", message: "On my way" } },
      { label: "an empty message", kind: "edge", arguments: { receiver: "ben", message: "" } },
      nobody({ receiver: "ben", message: "On my way" }),
    ],
  },
  {
    tool: "SearchMessages",
    tables: [...AUTH, "MESSAGE"],
    cases: [
      { label: "from one sender, newest first", kind: "valid", arguments: { sender: "ben" } },
      { label: "any of two keywords", kind: "valid", arguments: { query: "Dinner sync" } },
      { label: "all of two keywords", kind: "edge", arguments: { query: "friday dinner", match_type: "all" } },
      { label: "no filter at all", kind: "edge", arguments: {} },
      { label: "a match type that is neither any nor all", kind: "edge", arguments: { query: "dinner", match_type: "some" } },
      { label: "a user with no messages", kind: "state", arguments: { query: "dinner" }, world: loggedInAs("cleo") },
    ],
  },
  // Reminder
  {
    tool: "AddReminder",
    tables: [...AUTH, "REMINDER"],
    cases: [
      { label: "with a due date", kind: "valid", arguments: { task: "Renew passport", due_date: "2024-07-01 09:00:00" } },
      { label: "without a due date", kind: "valid", arguments: { task: "Water the plants" } },
      { label: "a due date in another format", kind: "edge", arguments: { task: "Pay rent", due_date: "July 1st" } },
      nobody({ task: "Water the plants" }),
    ],
  },
  {
    tool: "CompleteReminder",
    tables: [...AUTH, "REMINDER"],
    cases: [
      { label: "a pending reminder", kind: "valid", arguments: { reminder_id: "3f-0a1b" } },
      { label: "one already complete", kind: "edge", arguments: { reminder_id: "4e-2c3d" } },
      { label: "an unknown reminder", kind: "edge", arguments: { reminder_id: "00-0000" } },
      { label: "a user who never had reminders", kind: "state", arguments: { reminder_id: "3f-0a1b" }, world: loggedInAs("ben") },
    ],
  },
  {
    tool: "DeleteReminder",
    tables: [...AUTH, "REMINDER"],
    cases: [
      { label: "one of the user's reminders", kind: "valid", arguments: { reminder_id: "4e-2c3d" } },
      { label: "an unknown reminder", kind: "edge", arguments: { reminder_id: "00-0000" } },
      { label: "a user who never had reminders", kind: "state", arguments: { reminder_id: "4e-2c3d" }, world: loggedInAs("ben") },
    ],
  },
  {
    tool: "GetReminders",
    tables: [...AUTH, "REMINDER"],
    cases: [
      { label: "the user's reminders", kind: "valid", arguments: {} },
      { label: "a user with none", kind: "state", arguments: {}, world: loggedInAs("ben") },
      NOBODY,
    ],
  },
  // Weather: no login
  {
    tool: "CurrentWeather",
    tables: ["WEATHER"],
    cases: [
      { label: "a known place", kind: "valid", arguments: { location: "Lisbon" } },
      { label: "a place written with spaces and capitals", kind: "edge", arguments: { location: "  LISBON " } },
      { label: "an unknown place", kind: "edge", arguments: { location: "Atlantis" } },
      { label: "a place with no weather for today", kind: "state", arguments: { location: "Oslo" } },
    ],
  },
  {
    tool: "ForecastWeather",
    tables: ["WEATHER"],
    cases: [
      { label: "a known place", kind: "valid", arguments: { location: "lisbon" } },
      { label: "an unknown place", kind: "edge", arguments: { location: "Atlantis" } },
      { label: "a place missing a day", kind: "state", arguments: { location: "oslo" } },
    ],
  },
  {
    tool: "HistoricWeather",
    tables: ["HISTORIC_WEATHER"],
    cases: [
      { label: "a known place and month", kind: "valid", arguments: { location: "Lisbon", month: "June" } },
      { label: "a month with no figures", kind: "edge", arguments: { location: "lisbon", month: "December" } },
      { label: "an unknown place", kind: "edge", arguments: { location: "Atlantis", month: "June" } },
    ],
  },
];

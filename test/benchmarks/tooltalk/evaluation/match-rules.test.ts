import { test } from "node:test";
import assert from "node:assert/strict";
import type { JsonObject, JsonValue } from "../../../../engine/base/json.js";
import { MATCH_RULES, callsMatch } from "../../../../engine/benchmarks/tooltalk/evaluation/match-rules.js";
import type { ToolTalkCall, ToolTalkCallLike } from "../../../../engine/benchmarks/tooltalk/evaluation/types.js";

const TOKEN = "3c7e01aa-5d42-e9b0";

function call(
  api_name: string,
  parameters: JsonObject,
  response: JsonValue = { status: "success" },
  exception: string | null = null,
): ToolTalkCall {
  return { request: { api_name, parameters }, response, exception };
}

/** The prediction with some arguments replaced (undefined removes one) or the outcome changed. */
function varied(
  base: ToolTalkCall,
  changes: { args?: Record<string, JsonValue | undefined>; response?: JsonValue; exception?: string | null },
): ToolTalkCallLike {
  const parameters: JsonObject = { ...base.request.parameters };
  for (const [key, value] of Object.entries(changes.args ?? {})) {
    if (value === undefined) delete parameters[key];
    else parameters[key] = value;
  }
  return {
    request: { api_name: base.request.api_name, parameters },
    response: "response" in changes ? (changes.response ?? null) : base.response,
    exception: "exception" in changes ? (changes.exception ?? null) : base.exception,
  };
}

const matches = (prediction: ToolTalkCallLike, truth: ToolTalkCall): boolean => callsMatch(prediction, truth);

test("every one of ToolTalk's 28 tools has a rule; 17 of them use the default one", () => {
  assert.equal(Object.keys(MATCH_RULES).length, 28);
  const defaultRule = MATCH_RULES["DeleteAlarm"];
  const usingDefault = Object.keys(MATCH_RULES).filter((name) => MATCH_RULES[name] === defaultRule);
  assert.deepEqual(usingDefault.sort(), [
    "ChangePassword",
    "CompleteReminder",
    "CurrentWeather",
    "DeleteAccount",
    "DeleteAlarm",
    "DeleteEvent",
    "DeleteReminder",
    "ForecastWeather",
    "GetAccountInformation",
    "HistoricWeather",
    "LogoutUser",
    "QueryUser",
    "RegisterUser",
    "ResetPassword",
    "SendVerificationCode",
    "UpdateAccountInformation",
    "UserLogin",
  ]);
});

test("default rule: same response and exception, every ground-truth argument given and equal", () => {
  const truth = call("DeleteAlarm", { session_token: TOKEN, alarm_id: "c41e-07ab" });
  assert.ok(matches(varied(truth, {}), truth));
  assert.ok(matches(varied(truth, { args: { extra: "allowed" } }), truth), "extra predicted arguments are allowed");
  assert.ok(!matches(varied(truth, { args: { alarm_id: "07ab-c41e" } }), truth));
  assert.ok(!matches(varied(truth, { args: { alarm_id: undefined } }), truth));
  assert.ok(!matches(varied(truth, { response: { status: "failed" } }), truth));
  assert.ok(!matches(varied(truth, { response: null, exception: "Alarm c41e-07ab not found." }), truth));
  assert.ok(!matches(varied(truth, { args: { session_token: "other" } }), truth));
});

test("default rule compares values with Python ==: 1 == 1.0 == True, lists in order", () => {
  const truth = call("QueryUser", { session_token: TOKEN, username: "ravi_sandoval", n: 1, names: ["a", "b"] }, { users: [] });
  assert.ok(matches(varied(truth, { args: { n: true } }), truth));
  assert.ok(!matches(varied(truth, { args: { n: "1" } }), truth));
  assert.ok(!matches(varied(truth, { args: { names: ["b", "a"] } }), truth));
  // A failed ground-truth call is matched by the same failure.
  const failed = call("UserLogin", { username: "ines_moreau", password: "wrong" }, null, "The password is incorrect.");
  assert.ok(matches(varied(failed, {}), failed));
  assert.ok(!matches(varied(failed, { exception: "The username does not exist." }), failed));
});

test("AddAlarm ignores the response (a generated id) but not the arguments or the exception", () => {
  const truth = call("AddAlarm", { session_token: TOKEN, time: "06:30:00" }, { alarm_id: "c41e-07ab" });
  assert.ok(matches(varied(truth, { response: { alarm_id: "0000-0000" } }), truth));
  assert.ok(!matches(varied(truth, { args: { time: "6:30:00" } }), truth));
  assert.ok(!matches(varied(truth, { response: null, exception: "Invalid session_token." }), truth));
});

const SEARCHES: [string, string, string][] = [
  ["FindAlarms", "alarms", "alarm_id"],
  ["QueryCalendar", "events", "event_id"],
  ["SearchInbox", "emails", "email_id"],
  ["SearchMessages", "messages", "message_id"],
];

test("search tools: the ground truth's ids must be among the predicted ones; search arguments are ignored", () => {
  for (const [tool, list, id] of SEARCHES) {
    const truth = call(tool, { session_token: TOKEN, query: "party" }, { [list]: [{ [id]: "a" }, { [id]: "b" }] });
    const wider = { [list]: [{ [id]: "c" }, { [id]: "b" }, { [id]: "a" }] };
    assert.ok(matches(varied(truth, { args: { query: "birthday party" }, response: wider }), truth), `${tool}: superset`);
    assert.ok(matches(varied(truth, { args: { query: undefined, sender: "x" } }), truth), `${tool}: other arguments`);
    assert.ok(!matches(varied(truth, { response: { [list]: [{ [id]: "a" }] } }), truth), `${tool}: an id missing`);
    assert.ok(!matches(varied(truth, { args: { session_token: "other" } }), truth), `${tool}: another user`);
    assert.ok(!matches(varied(truth, { args: { session_token: undefined } }), truth), `${tool}: no token`);
    assert.ok(!matches(varied(truth, { response: null, exception: "User is not logged in" }), truth), `${tool}: failed`);
  }
  const empty = call("FindAlarms", { session_token: TOKEN }, { alarms: [] });
  assert.ok(matches(varied(empty, { response: { alarms: [{ alarm_id: "x" }] } }), empty), "nothing to find: any result");
});

test("GetReminders needs the whole request equal, then the ids covered", () => {
  const truth = call("GetReminders", { session_token: TOKEN }, { reminders: [{ reminder_id: "c4-1e07" }] });
  assert.ok(matches(varied(truth, { response: { reminders: [{ reminder_id: "00-0000" }, { reminder_id: "c4-1e07" }] } }), truth));
  assert.ok(!matches(varied(truth, { args: { status: "pending" } }), truth), "an extra argument makes the request differ");
  assert.ok(!matches(varied(truth, { response: { reminders: [] } }), truth));
});

test("CreateEvent: free-text fields by meaning, the others exactly, none null; the response is ignored", () => {
  const truth = call(
    "CreateEvent",
    {
      session_token: TOKEN,
      name: "Quarterly garden planning",
      event_type: "meeting",
      start_time: "2024-05-14 10:00:00",
      end_time: "2024-05-14 11:00:00",
      location: "Greenhouse",
      attendees: ["ravi_sandoval"],
    },
    { event_id: "1a2b3c4d-5e6f" },
  );
  assert.ok(matches(varied(truth, { args: { name: "Garden planning, quarterly" }, response: { event_id: "other" } }), truth));
  assert.ok(matches(varied(truth, { args: { location: "greenhouse" } }), truth));
  assert.ok(!matches(varied(truth, { args: { name: "Dentist" } }), truth));
  assert.ok(!matches(varied(truth, { args: { location: null } }), truth));
  assert.ok(!matches(varied(truth, { args: { location: undefined } }), truth));
  assert.ok(!matches(varied(truth, { args: { start_time: "2024-05-14 10:00:01" } }), truth));
  assert.ok(!matches(varied(truth, { args: { attendees: ["ravi_sandoval", "bo_lindqvist"] } }), truth));
  assert.ok(!matches(varied(truth, { response: null, exception: "Meeting must have attendees." }), truth));
});

test("ModifyEvent: like CreateEvent on new_name/new_description/new_location, and the response must be equal", () => {
  const truth = call("ModifyEvent", { session_token: TOKEN, event_id: "e1", new_location: "Rose and Crown" });
  assert.ok(matches(varied(truth, { args: { new_location: "rose & crown" } }), truth));
  assert.ok(!matches(varied(truth, { args: { new_location: "Room 4b" } }), truth));
  assert.ok(!matches(varied(truth, { args: { event_id: "e2" } }), truth));
  assert.ok(!matches(varied(truth, { response: { status: "failed" } }), truth));
});

test("SendEmail: same recipients in any order, subject (strict) and body (loose) by meaning", () => {
  const truth = call(
    "SendEmail",
    {
      session_token: TOKEN,
      to: ["a@x.com", "b@x.com"],
      subject: "Working from Porto",
      body: "I will be working from Porto from 6/3-6/7.",
    },
    { email_id: "12-3456-789abcde" },
  );
  const reworded = {
    to: ["b@x.com", "a@x.com", "a@x.com"],
    subject: "Working remotely from Porto",
    body: "Hi, just letting you know I'll be working from Porto from 6/3 to 6/7.",
  };
  assert.ok(matches(varied(truth, { args: reworded, response: { email_id: "other" } }), truth));
  assert.ok(!matches(varied(truth, { args: { to: ["a@x.com"] } }), truth));
  assert.ok(!matches(varied(truth, { args: { subject: "Lunch" } }), truth));
  assert.ok(!matches(varied(truth, { args: { body: "See you at lunch tomorrow." } }), truth));
  assert.ok(!matches(varied(truth, { args: { body: null } }), truth), "a null text scores 0");
  assert.ok(!matches(varied(truth, { args: { session_token: "other" } }), truth));
  // Python's set() of a string is its characters: set("ab") == set(["a", "b"]).
  const letters = call("SendEmail", { session_token: TOKEN, to: ["a", "b"], subject: "s", body: "b" });
  assert.ok(matches(varied(letters, { args: { to: "ba" } }), letters));
});

test("SendMessage: the message by meaning; the receiver is never compared (ToolTalk's bug, kept)", () => {
  const truth = call(
    "SendMessage",
    { session_token: TOKEN, receiver: "noor_haddad", message: "Can you still make the call at 4?" },
    { message_id: "x" },
  );
  assert.ok(matches(varied(truth, { args: { message: "Can you still join the call at 4?" } }), truth));
  assert.ok(matches(varied(truth, { args: { receiver: "somebody-else" } }), truth), "any receiver passes");
  assert.ok(!matches(varied(truth, { args: { receiver: undefined } }), truth), "but the key must be there");
  assert.ok(!matches(varied(truth, { args: { message: "lol" } }), truth));
  assert.ok(!matches(varied(truth, { response: null, exception: "Message cannot be empty." }), truth));
});

test("AddReminder: the due date by calendar day, the task by meaning, the response ignored", () => {
  const truth = call(
    "AddReminder",
    { session_token: TOKEN, task: "Renew bike insurance", due_date: "2024-05-17 23:59:59" },
    { reminder_id: "c4-1e07" },
  );
  assert.ok(
    matches(
      varied(truth, { args: { due_date: "2024-05-17 09:00:00", task: "Renew the bike insurance" }, response: { reminder_id: "zz" } }),
      truth,
    ),
  );
  assert.ok(matches(varied(truth, { args: { due_date: "2024-5-17 9:00:00" } }), truth), "strptime takes one-digit fields");
  assert.ok(!matches(varied(truth, { args: { due_date: "2024-05-18 00:00:00" } }), truth));
  assert.ok(!matches(varied(truth, { args: { due_date: "2024-05-17" } }), truth), "a date that does not parse");
  assert.ok(!matches(varied(truth, { args: { due_date: null } }), truth));
  assert.ok(!matches(varied(truth, { args: { due_date: undefined } }), truth));
  assert.ok(!matches(varied(truth, { args: { task: "Renew passport" } }), truth));
  const undated = call("AddReminder", { session_token: TOKEN, task: "Buy candles" });
  assert.ok(matches(varied(undated, { args: { due_date: "2024-05-17 10:00:00" } }), undated), "a due date the ground truth lacks is extra");
});

test("different tools, unknown tools and unparsed arguments never match", () => {
  const truth = call("CompleteReminder", { session_token: TOKEN, reminder_id: "r" });
  assert.ok(!matches({ ...varied(truth, {}), request: { api_name: "DeleteReminder", parameters: truth.request.parameters } }, truth));
  const unknown = call("Teleport", {});
  assert.ok(!matches(varied(unknown, {}), unknown));
  assert.ok(
    !matches({ request: { api_name: "CompleteReminder", parameters: null }, response: null, exception: "Failed to parse API call" }, truth),
  );
});

// The executor around ToolTalk's tools: the login session, the injected token, Python's keyword
// binding, the text the agent reads, and the pack as the engine sees it.
import { test } from "node:test";
import assert from "node:assert/strict";
import type { JsonValue } from "../../../engine/base/json.js";
import { TOOLTALK_PACK, ToolTalkRuntime, requiresAuth, runToolTalkCall } from "../../../engine/packs/tooltalk/index.js";
import { DEFAULT_WEB_DATA } from "../../../engine/tools/default-web-data.js";
import { parseDocstring } from "../../../engine/tools/openai-schema.js";
import type { ToolContext } from "../../../engine/tools/types.js";
import { WorldTransaction } from "../../../engine/world/transaction.js";
import { FIXTURE_NOW, harness, loggedIn, utcSeconds } from "./harness.js";
import { toolTalkDatabases } from "../../fixtures/tooltalk-data.js";

function context(world: WorldTransaction, timestamp = FIXTURE_NOW, timezone = "UTC"): ToolContext {
  return { world, clock: { now: utcSeconds(timestamp), timezone }, web: DEFAULT_WEB_DATA, uuid4: () => "unused" };
}

function tool(name: string) {
  const found = TOOLTALK_PACK.toolByName(name);
  assert.ok(found, name);
  return found;
}

test("the pack: 28 ToolTalk tools in ToolTalk's order plus the user's end_conversation; 18 actions; 21 need a login", () => {
  const names = TOOLTALK_PACK.tools.map((t) => t.name);
  assert.equal(names.length, 29);
  assert.deepEqual(names.slice(0, 4), ["ChangePassword", "DeleteAccount", "GetAccountInformation", "LogoutUser"]);
  assert.equal(names.at(-1), "end_conversation");
  const toolTalk = TOOLTALK_PACK.tools.filter((t) => t.name !== "end_conversation");
  assert.deepEqual(
    toolTalk.filter((t) => !t.action).map((t) => t.name),
    [
      "GetAccountInformation",
      "QueryUser",
      "FindAlarms",
      "QueryCalendar",
      "SearchInbox",
      "SearchMessages",
      "GetReminders",
      "CurrentWeather",
      "ForecastWeather",
      "HistoricWeather",
    ],
  );
  assert.deepEqual(
    toolTalk.filter((t) => requiresAuth(t.name) === false).map((t) => t.name),
    ["RegisterUser", "ResetPassword", "SendVerificationCode", "UserLogin", "CurrentWeather", "ForecastWeather", "HistoricWeather"],
  );
  assert.equal(requiresAuth("end_conversation"), undefined);
  assert.deepEqual(
    [...new Set(toolTalk.map((t) => t.module))],
    ["AccountTools", "Alarm", "Calendar", "Email", "Messages", "Reminder", "Weather"],
  );
  // No tool shows the session token.
  for (const t of toolTalk) {
    assert.equal(
      t.parameters.some((p) => p.name === "session_token"),
      false,
      t.name,
    );
    // The docstring's summary and Args block describe exactly the parameters the model may send.
    const doc = parseDocstring(t.docstring);
    assert.ok(doc.description.length > 0, t.name);
    assert.deepEqual(
      [...doc.args.keys()],
      t.parameters.map((p) => p.name),
      t.name,
    );
    assert.equal(t.errors.includes("User is not logged in"), requiresAuth(t.name), t.name);
  }
  assert.deepEqual(
    tool("SendEmail").parameters.map((p) => [p.name, p.type, p.required]),
    [
      ["to", "array", true],
      ["subject", "string", true],
      ["body", "string", true],
    ],
  );
  assert.deepEqual(
    tool("CreateEvent")
      .parameters.filter((p) => p.required)
      .map((p) => p.name),
    ["name", "event_type", "start_time", "end_time"],
  );
});

test("a tool that needs a login is refused while nobody is logged in, and nothing is drawn or changed", () => {
  const h = harness();
  assert.deepEqual(h.call("AddAlarm", { time: "08:00:00" }), {
    request: { api_name: "AddAlarm", parameters: { time: "08:00:00" } },
    response: null,
    exception: "User is not logged in",
  });
  h.call("UserLogin", { username: "mira_okafor", password: "tidepool-88" });
  assert.deepEqual(h.call("AddAlarm", { time: "08:00:00" }).response, { alarm_id: "5bff-dd80" }, "the refused call drew no id");
});

test("the session token is injected into the request, replacing one the model sent", () => {
  const h = loggedIn("tomas_lind");
  const record = h.call("GetReminders", { session_token: "forged" });
  assert.deepEqual(record.request.parameters, { session_token: "token-tomas_lind" });
  assert.equal(record.exception, null);
});

test("one user at a time: logging in or registering while logged in is refused, naming the current user", () => {
  const h = loggedIn("mira_okafor");
  const refusal = "Only one user can be logged in at a time. Current user is mira_okafor.";
  assert.equal(h.call("UserLogin", { username: "tomas_lind", password: "granite&fern" }).exception, refusal);
  assert.equal(h.call("RegisterUser", { username: "x", password: "y", email: "x@y.z" }).exception, refusal);
  h.call("LogoutUser");
  assert.deepEqual(h.call("UserLogin", { username: "tomas_lind", password: "granite&fern" }).response, {
    session_token: "e149636f-d9ca-0792",
  });
  assert.deepEqual(h.call("GetAccountInformation").response?.user, {
    username: "tomas_lind",
    email: "tlind@gahoo.com",
    phone: "555-877-1200",
    name: "Tomas Lind",
  });
});

test("a session whose account no longer holds the token makes auth tools fail with 'Invalid session_token.'", () => {
  const h = loggedIn("mira_okafor");
  h.world.updateAt("SESSION", 0, { session_token: "stale" });
  assert.equal(h.call("GetReminders").exception, "Invalid session_token.");
  assert.equal(h.call("UserLogin", { username: "tomas_lind", password: "granite&fern" }).exception, "Invalid session_token.");
});

test("unknown tools, unparsed arguments and Python's binding errors", () => {
  const h = loggedIn("mira_okafor");
  assert.equal(h.call("MakeCoffee").exception, "API MakeCoffee not found");
  assert.deepEqual(h.call("GetReminders", null), {
    request: { api_name: "GetReminders", parameters: null },
    response: null,
    exception: "Failed to parse API call",
  });
  assert.equal(
    h.call("ChangePassword").exception,
    "ChangePassword.call() missing 2 required positional arguments: 'old_password' and 'new_password'",
  );
  assert.equal(
    h.call("CreateEvent").exception,
    "CreateEvent.call() missing 4 required positional arguments: 'name', 'event_type', 'start_time', and 'end_time'",
  );
  assert.equal(h.call("DeleteAlarm").exception, "DeleteAlarm.call() missing 1 required positional argument: 'alarm_id'");
  // An unknown keyword is reported before a missing one.
  assert.equal(h.call("DeleteAlarm", { id: "x" }).exception, "DeleteAlarm.call() got an unexpected keyword argument 'id'");
  assert.equal(h.call("GetReminders", { self: 1 }).exception, "API.__call__() got multiple values for argument 'self'");
  // Tools without a login take no session_token at all.
  assert.equal(
    harness().call("CurrentWeather", { location: "lisbon", session_token: "t" }).exception,
    "CurrentWeather.call() got an unexpected keyword argument 'session_token'",
  );
});

test("execute(): the agent reads ToolTalk's JSON, the trace holds the request with its token and the response", () => {
  const world = new WorldTransaction(
    harness({ user: { username: "mira_okafor", session_token: "tok" } }).world.tables(),
    TOOLTALK_PACK.schemas,
  );
  const runtime = TOOLTALK_PACK.createRuntime();
  const ok = runtime.execute(tool("AddAlarm"), { time: "08:00:00" }, context(world));
  assert.deepEqual(ok, {
    ok: true,
    result: { alarm_id: "5bff-dd80" },
    trace: { tool_name: "AddAlarm", arguments: { time: "08:00:00", session_token: "tok" }, result: { alarm_id: "5bff-dd80" } },
    text: '{"response": {"alarm_id": "5bff-dd80"}, "exception": null}',
  });
  const failed = runtime.execute(tool("DeleteAlarm"), { alarm_id: "0000-0000" }, context(world));
  assert.equal(failed.ok, false);
  assert.equal(failed.text, '{"response": null, "exception": "Alarm 0000-0000 not found."}');
  if (!failed.ok) assert.equal(failed.error.message, "Alarm 0000-0000 not found.");
});

test("execute(): floats print as Python floats, non-ASCII is escaped as json.dumps does", () => {
  const world = new WorldTransaction(toolTalkDatabases(), TOOLTALK_PACK.schemas);
  // A whole number of inches: JSON.stringify would print 3, Python's json.dumps prints 3.0.
  const march = world.rows("HISTORIC_WEATHER").findIndex((r) => r.location === "lisbon" && r.month === "march");
  world.updateAt("HISTORIC_WEATHER", march, { avg_rainfall: 3 });
  const runtime = TOOLTALK_PACK.createRuntime();
  const historic = runtime.execute(tool("HistoricWeather"), { location: "Lisbon", month: "MARCH" }, context(world));
  assert.equal(
    historic.text,
    '{"response": {"weather": {"min_temp": 50, "max_temp": 64, "record_min_temp": 35, "record_max_temp": 86, "avg_rainfall": 3.0, "snow_days": 0}}, "exception": null}',
  );
  const missing = runtime.execute(tool("CurrentWeather"), { location: "Zürich" }, context(world));
  assert.equal(missing.text, '{"response": null, "exception": "Location z\\u00fcrich not found in database"}');
});

test("execute(): end_conversation, the simulated user's tool, runs as in every pack", () => {
  const world = new WorldTransaction(TOOLTALK_PACK.emptyWorld(0), TOOLTALK_PACK.schemas);
  const outcome = TOOLTALK_PACK.createRuntime().execute(tool("end_conversation"), {}, context(world));
  assert.equal(outcome.ok, true);
  assert.equal(outcome.text, "None");
});

test("the clock: ToolTalk's now is the scenario instant as wall-clock time in the scenario's timezone", () => {
  const base = toolTalkDatabases();
  // 2024-03-14 02:00 UTC is 2024-03-13 22:00 in New York (the place looked up is Lisbon; the
  // clock is the scenario's, not the place's).
  const clock = { now: utcSeconds("2024-03-14 02:00:00"), timezone: "America/New_York" };
  const record = runToolTalkCall(new WorldTransaction(base, TOOLTALK_PACK.schemas), ToolTalkRuntime.fresh(), clock, "CurrentWeather", {
    location: "lisbon",
  });
  assert.equal((record.response?.weather as { date: string } | undefined)?.date, "2024-03-13");
  const utc = runToolTalkCall(
    new WorldTransaction(base, TOOLTALK_PACK.schemas),
    ToolTalkRuntime.fresh(),
    { ...clock, timezone: "UTC" },
    "CurrentWeather",
    { location: "lisbon" },
  );
  assert.equal((utc.response?.weather as { date: string } | undefined)?.date, "2024-03-14");
});

test("each tool has its own generator; clone() copies them all", () => {
  const h = loggedIn("tomas_lind");
  const first = (api: string, params: Record<string, JsonValue>) => h.call(api, params).response;
  assert.deepEqual(first("AddAlarm", { time: "06:00:00" }), { alarm_id: "5bff-dd80" });
  // AddReminder draws from its own Random(489), not from AddAlarm's.
  assert.deepEqual(first("AddReminder", { task: "a" }), { reminder_id: "5b-dd80" });
  const copy = h.runtime.clone();
  const world = h.world.fork();
  const clock = { now: utcSeconds(FIXTURE_NOW), timezone: "UTC" };
  assert.deepEqual(copy.call(world, clock, "AddAlarm", { time: "07:00:00" }).response, { alarm_id: "20d0-d9ca" });
  assert.deepEqual(h.call("AddAlarm", { time: "07:00:00" }).response, { alarm_id: "20d0-d9ca" }, "the original did not move");
});

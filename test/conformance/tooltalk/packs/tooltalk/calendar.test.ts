// Calendar: events must lie in the future of the frozen clock (here 2023-09-11 09:00:00); the
// first event id is CPython's Random(489):
// python3 -c "import random; r=random.Random(489); print(f'{r.randint(0,0xffffffff):08x}-{r.randint(0,0xffff):04x}')"
import { test } from "node:test";
import assert from "node:assert/strict";
import { harness, loggedIn, ownRows } from "./harness.js";

const MEETING = {
  name: "Sync",
  event_type: "meeting",
  start_time: "2023-09-12 10:00:00",
  end_time: "2023-09-12 11:00:00",
  attendees: ["lifeng"],
};

test("CreateEvent stores the event with the owner added to a meeting's attendees", () => {
  const h = loggedIn("salcano");
  assert.deepEqual(h.call("CreateEvent", { ...MEETING, location: "Room 1" }).response, { event_id: "e149636f-d9ca" });
  assert.deepEqual(ownRows(h, "CALENDAR", "salcano").at(-1), {
    username: "salcano",
    event_id: "e149636f-d9ca",
    name: "Sync",
    event_type: "meeting",
    start_time: "2023-09-12 10:00:00",
    end_time: "2023-09-12 11:00:00",
    location: "Room 1",
    description: null,
    attendees: ["lifeng", "salcano"],
  });
  h.call("CreateEvent", { name: "Gym", event_type: "event", start_time: "2023-09-12 18:00:00", end_time: "2023-09-12 19:00:00" });
  assert.equal(ownRows(h, "CALENDAR", "salcano").at(-1)?.attendees, null);
});

test("CreateEvent refuses a bad type, a meeting without attendees, reversed or past times, malformed times", () => {
  const h = loggedIn("salcano");
  assert.equal(h.call("CreateEvent", { ...MEETING, event_type: "party" }).exception, "Event type party not supported.");
  assert.equal(h.call("CreateEvent", { ...MEETING, attendees: [] }).exception, "Meeting must have attendees.");
  const { attendees: _unused, ...withoutAttendees } = MEETING;
  assert.equal(h.call("CreateEvent", withoutAttendees).exception, "Meeting must have attendees.");
  assert.equal(h.call("CreateEvent", { ...MEETING, end_time: "2023-09-12 09:00:00" }).exception, "Start time must be before end time.");
  assert.equal(
    h.call("CreateEvent", { ...MEETING, start_time: "2023-09-11 08:59:59" }).exception,
    "Start time and end time must be in the future.",
  );
  assert.equal(
    h.call("CreateEvent", { ...MEETING, start_time: "2023-09-12T10:00:00" }).exception,
    "time data '2023-09-12T10:00:00' does not match format '%Y-%m-%d %H:%M:%S'",
  );
  assert.equal(h.call("CreateEvent", { ...MEETING, start_time: "2023-02-30 10:00:00" }).exception, "day is out of range for month");
  assert.equal(h.call("CreateEvent", { ...MEETING, attendees: 5 }).exception, "argument of type 'int' is not iterable");
  // Starting exactly now is allowed.
  assert.equal(h.call("CreateEvent", { ...MEETING, start_time: "2023-09-11 09:00:00" }).exception, null);
});

test("DeleteEvent removes the user's event; unknown ids are refused", () => {
  const h = loggedIn("decture");
  assert.deepEqual(h.call("DeleteEvent", { event_id: "29496535-b409" }).response, { status: "success" });
  assert.equal(
    ownRows(h, "CALENDAR", "decture").some((r) => r.event_id === "29496535-b409"),
    false,
  );
  assert.equal(h.call("DeleteEvent", { event_id: "29496535-b409" }).exception, "Event 29496535-b409 not found.");
  assert.equal(loggedIn("geoff").call("DeleteEvent", { event_id: "x" }).exception, "Event x not found.");
});

test("ModifyEvent changes the fields given; start and end move together and into the future", () => {
  const h = loggedIn("mstein");
  const eventId = "2ff57743-1180";
  const event = () => ownRows(h, "CALENDAR", "mstein").find((r) => r.event_id === eventId);
  assert.equal(h.call("ModifyEvent", { event_id: "nope" }).exception, "Event nope not found.");
  assert.equal(
    h.call("ModifyEvent", { event_id: eventId, new_start_time: "2023-09-30 10:00:00" }).exception,
    "new_end_time must be provided if new_start_time is provided.",
  );
  // The name is stored before the times are checked, so a refused call still renames the event.
  assert.equal(
    h.call("ModifyEvent", { event_id: eventId, new_name: "Renamed", new_end_time: "2023-09-30 11:00:00" }).exception,
    "new_start_time must be provided if new_end_time is provided.",
  );
  assert.equal(event()?.name, "Renamed");
  assert.equal(
    h.call("ModifyEvent", { event_id: eventId, new_start_time: "2023-09-01 10:00:00", new_end_time: "2023-09-01 11:00:00" }).exception,
    "Start time and end time must be in the future.",
  );
  assert.equal(
    h.call("ModifyEvent", { event_id: eventId, new_start_time: "2023-09-30 12:00:00", new_end_time: "2023-09-30 11:00:00" }).exception,
    "Start time must be before end time.",
  );
  assert.deepEqual(
    h.call("ModifyEvent", {
      event_id: eventId,
      new_start_time: "2023-09-30 10:00:00",
      new_end_time: "2023-09-30 11:00:00",
      new_location: "Lab",
      new_description: "moved",
      new_attendees: ["lifeng"],
    }).response,
    { status: "success" },
  );
  assert.deepEqual(event(), {
    username: "mstein",
    event_id: eventId,
    name: "Renamed",
    event_type: "meeting",
    start_time: "2023-09-30 10:00:00",
    end_time: "2023-09-30 11:00:00",
    location: "Lab",
    description: "moved",
    attendees: ["lifeng", "mstein"],
  });
});

test("QueryCalendar finds events starting, ending or under way in the period", () => {
  const h = loggedIn("lifeng");
  const ids = (start: string, end: string) =>
    (h.call("QueryCalendar", { start_time: start, end_time: end }).response?.events as { event_id: string }[] | undefined)?.map(
      (e) => e.event_id,
    );
  // 5480d946 12:00-13:00, 2ff57743 13:00-13:30, 7ea2fc9f 13:35-15:00, 7cdd6d20 15:15-16:40, 294b409 14:00-14:30.
  assert.deepEqual(ids("2023-09-11 13:20:00", "2023-09-11 14:20:00"), ["2ff57743-1180", "7ea2fc9f-f7b4", "294b409-6535"]);
  assert.deepEqual(
    ids("2023-09-11 14:05:00", "2023-09-11 14:10:00"),
    ["7ea2fc9f-f7b4", "294b409-6535"],
    "events spanning the whole period",
  );
  assert.deepEqual(ids("2023-09-11 16:40:00", "2023-09-11 18:00:00"), ["7cdd6d20-040e"], "an end on the boundary counts");
  assert.deepEqual(ids("2023-09-12 00:00:00", "2023-09-12 23:59:59"), []);
  assert.equal(
    h.call("QueryCalendar", { start_time: "2023-09-12 00:00:00", end_time: "2023-09-11 00:00:00" }).exception,
    "Start time must be before end time.",
  );
  assert.equal(
    loggedIn("geoff").call("QueryCalendar", { start_time: "2023-09-12 00:00:00", end_time: "2023-09-13 00:00:00" }).exception,
    "User geoff has no events.",
  );
});

test("QueryCalendar returns events in the key order they were stored with: the database's, or CreateEvent's", () => {
  const h = loggedIn("salcano");
  h.call("CreateEvent", { ...MEETING, start_time: "2023-09-11 14:30:00", end_time: "2023-09-11 14:45:00" });
  const events = h.call("QueryCalendar", { start_time: "2023-09-11 14:00:00", end_time: "2023-09-11 15:00:00" }).response?.events as Record<
    string,
    unknown
  >[];
  assert.deepEqual(
    events.map((e) => Object.keys(e)),
    [
      ["event_id", "name", "event_type", "start_time", "end_time", "location", "description", "attendees"],
      ["event_id", "name", "event_type", "description", "start_time", "end_time", "location", "attendees"],
    ],
  );
});

test("a user whose last event was deleted still has a calendar: an empty answer, not 'no events'", () => {
  const h = harness({ user: { username: "geoff", session_token: "g" } });
  const { event_id } = h.call("CreateEvent", { ...MEETING, event_type: "event" }).response as { event_id: string };
  h.call("DeleteEvent", { event_id });
  assert.deepEqual(h.call("QueryCalendar", { start_time: "2023-09-01 00:00:00", end_time: "2023-09-30 00:00:00" }).response, {
    events: [],
  });
});

// Calendar on our fixture's rows: new or moved events must lie in the future of the frozen clock
// (FIXTURE_NOW, 2024-03-13 08:00:00). CreateEvent draws its ids from its own Random(489):
// python3 -c "import random; r=random.Random(489); print(f'{r.randint(0,0xffffffff):08x}-{r.randint(0,0xffff):04x}')"
import { test } from "node:test";
import assert from "node:assert/strict";
import { harness, loggedIn, ownRows } from "./harness.js";

const MEETING = {
  name: "Sync",
  event_type: "meeting",
  start_time: "2024-03-14 10:00:00",
  end_time: "2024-03-14 11:00:00",
  attendees: ["ines_duarte"],
};

test("CreateEvent stores the event with the owner added to a meeting's attendees", () => {
  const h = loggedIn("ravi_menon");
  assert.deepEqual(h.call("CreateEvent", { ...MEETING, location: "Room 1" }).response, { event_id: "e149636f-d9ca" });
  assert.deepEqual(ownRows(h, "CALENDAR", "ravi_menon").at(-1), {
    username: "ravi_menon",
    event_id: "e149636f-d9ca",
    name: "Sync",
    event_type: "meeting",
    start_time: "2024-03-14 10:00:00",
    end_time: "2024-03-14 11:00:00",
    location: "Room 1",
    description: null,
    attendees: ["ines_duarte", "ravi_menon"],
  });
  h.call("CreateEvent", { name: "Gym", event_type: "event", start_time: "2024-03-14 18:00:00", end_time: "2024-03-14 19:00:00" });
  assert.equal(ownRows(h, "CALENDAR", "ravi_menon").at(-1)?.attendees, null);
  assert.equal(ownRows(h, "CALENDAR", "ravi_menon").length, 4, "the two of the fixture and the two created");
});

test("CreateEvent refuses a bad type, a meeting without attendees, reversed or past times, malformed times", () => {
  const h = loggedIn("ravi_menon");
  const before = structuredClone(h.rows("CALENDAR"));
  assert.equal(h.call("CreateEvent", { ...MEETING, event_type: "party" }).exception, "Event type party not supported.");
  assert.equal(h.call("CreateEvent", { ...MEETING, attendees: [] }).exception, "Meeting must have attendees.");
  const { attendees: _unused, ...withoutAttendees } = MEETING;
  assert.equal(h.call("CreateEvent", withoutAttendees).exception, "Meeting must have attendees.");
  assert.equal(h.call("CreateEvent", { ...MEETING, end_time: "2024-03-14 09:00:00" }).exception, "Start time must be before end time.");
  assert.equal(
    h.call("CreateEvent", { ...MEETING, start_time: "2024-03-13 07:59:59" }).exception,
    "Start time and end time must be in the future.",
  );
  assert.equal(
    h.call("CreateEvent", { ...MEETING, start_time: "2024-03-14T10:00:00" }).exception,
    "time data '2024-03-14T10:00:00' does not match format '%Y-%m-%d %H:%M:%S'",
  );
  assert.equal(h.call("CreateEvent", { ...MEETING, start_time: "2024-02-30 10:00:00" }).exception, "day is out of range for month");
  assert.equal(h.call("CreateEvent", { ...MEETING, attendees: 5 }).exception, "argument of type 'int' is not iterable");
  assert.deepEqual(h.rows("CALENDAR"), before, "no refused call stored anything");
  // Starting exactly now is allowed.
  assert.equal(h.call("CreateEvent", { ...MEETING, start_time: "2024-03-13 08:00:00" }).exception, null);
});

test("DeleteEvent removes the user's event; unknown ids are refused", () => {
  const h = loggedIn("ines_duarte");
  assert.deepEqual(h.call("DeleteEvent", { event_id: "f25d0e96-4a7b" }).response, { status: "success" });
  assert.equal(
    ownRows(h, "CALENDAR", "ines_duarte").some((r) => r.event_id === "f25d0e96-4a7b"),
    false,
  );
  assert.equal(ownRows(h, "CALENDAR", "ines_duarte").length, 4);
  assert.equal(h.call("DeleteEvent", { event_id: "f25d0e96-4a7b" }).exception, "Event f25d0e96-4a7b not found.");
  // Kai has no calendar at all; Ines cannot delete Ravi's event.
  assert.equal(loggedIn("kai_brenner").call("DeleteEvent", { event_id: "x" }).exception, "Event x not found.");
  assert.equal(h.call("DeleteEvent", { event_id: "5e7a09d3-c18f" }).exception, "Event 5e7a09d3-c18f not found.");
});

test("ModifyEvent changes the fields given; start and end move together and into the future", () => {
  const h = loggedIn("ravi_menon");
  const eventId = "5e7a09d3-c18f";
  const event = () => ownRows(h, "CALENDAR", "ravi_menon").find((r) => r.event_id === eventId);
  assert.equal(h.call("ModifyEvent", { event_id: "nope" }).exception, "Event nope not found.");
  assert.equal(
    h.call("ModifyEvent", { event_id: eventId, new_start_time: "2024-03-29 10:00:00" }).exception,
    "new_end_time must be provided if new_start_time is provided.",
  );
  // The name is stored before the times are checked, so a refused call still renames the event.
  assert.equal(
    h.call("ModifyEvent", { event_id: eventId, new_name: "Renamed", new_end_time: "2024-03-29 11:00:00" }).exception,
    "new_start_time must be provided if new_end_time is provided.",
  );
  assert.equal(event()?.name, "Renamed");
  assert.equal(event()?.end_time, "2024-03-18 11:00:00");
  assert.equal(
    h.call("ModifyEvent", { event_id: eventId, new_start_time: "2024-03-01 10:00:00", new_end_time: "2024-03-01 11:00:00" }).exception,
    "Start time and end time must be in the future.",
  );
  assert.equal(
    h.call("ModifyEvent", { event_id: eventId, new_start_time: "2024-03-29 12:00:00", new_end_time: "2024-03-29 11:00:00" }).exception,
    "Start time must be before end time.",
  );
  assert.deepEqual(
    h.call("ModifyEvent", {
      event_id: eventId,
      new_start_time: "2024-03-29 10:00:00",
      new_end_time: "2024-03-29 11:00:00",
      new_location: "Lab",
      new_description: "moved",
      new_attendees: ["ines_duarte"],
    }).response,
    { status: "success" },
  );
  assert.deepEqual(event(), {
    username: "ravi_menon",
    event_id: eventId,
    name: "Renamed",
    event_type: "meeting",
    start_time: "2024-03-29 10:00:00",
    end_time: "2024-03-29 11:00:00",
    location: "Lab",
    description: "moved",
    attendees: ["ines_duarte", "ravi_menon"],
  });
});

test("QueryCalendar finds events starting, ending or under way in the period", () => {
  const h = loggedIn("ines_duarte");
  const ids = (start: string, end: string) =>
    (h.call("QueryCalendar", { start_time: start, end_time: end }).response?.events as { event_id: string }[] | undefined)?.map(
      (e) => e.event_id,
    );
  // On 2024-03-15, in stored order: 6d0f3a18 12:00-13:00, a93e51c7 13:00-13:30, 3c8b72e0 13:35-15:00,
  // f25d0e96 15:15-16:40, 08e4c6b1 14:00-14:30.
  assert.deepEqual(ids("2024-03-15 13:20:00", "2024-03-15 14:20:00"), ["a93e51c7-0d6f", "3c8b72e0-91fa", "08e4c6b1-73d2"]);
  assert.deepEqual(
    ids("2024-03-15 14:05:00", "2024-03-15 14:10:00"),
    ["3c8b72e0-91fa", "08e4c6b1-73d2"],
    "events spanning the whole period",
  );
  assert.deepEqual(ids("2024-03-15 16:40:00", "2024-03-15 18:00:00"), ["f25d0e96-4a7b"], "an end on the boundary counts");
  assert.deepEqual(ids("2024-03-16 00:00:00", "2024-03-16 23:59:59"), []);
  assert.equal(
    h.call("QueryCalendar", { start_time: "2024-03-16 00:00:00", end_time: "2024-03-15 00:00:00" }).exception,
    "Start time must be before end time.",
  );
  assert.equal(
    loggedIn("kai_brenner").call("QueryCalendar", { start_time: "2024-03-15 00:00:00", end_time: "2024-03-16 00:00:00" }).exception,
    "User kai_brenner has no events.",
  );
});

test("QueryCalendar returns events in the key order they were stored with: the database's, or CreateEvent's", () => {
  // Ravi's Gym, 2024-03-14 18:00-19:00, comes from the database.
  const h = loggedIn("ravi_menon");
  h.call("CreateEvent", { ...MEETING, start_time: "2024-03-14 18:30:00", end_time: "2024-03-14 18:45:00" });
  const events = h.call("QueryCalendar", { start_time: "2024-03-14 18:00:00", end_time: "2024-03-14 19:00:00" }).response?.events as Record<
    string,
    unknown
  >[];
  assert.deepEqual(
    events.map((e) => e.event_id),
    ["b7104e2c-6a95", "e149636f-d9ca"],
  );
  assert.deepEqual(
    events.map((e) => Object.keys(e)),
    [
      ["event_id", "name", "event_type", "start_time", "end_time", "location", "description", "attendees"],
      ["event_id", "name", "event_type", "description", "start_time", "end_time", "location", "attendees"],
    ],
  );
});

test("a user whose last event was deleted still has a calendar: an empty answer, not 'no events'", () => {
  const h = harness({ user: { username: "kai_brenner", session_token: "k" } });
  const { event_id } = h.call("CreateEvent", { ...MEETING, event_type: "event" }).response as { event_id: string };
  h.call("DeleteEvent", { event_id });
  assert.equal(ownRows(h, "CALENDAR", "kai_brenner").length, 0);
  assert.deepEqual(h.call("QueryCalendar", { start_time: "2024-03-01 00:00:00", end_time: "2024-03-31 00:00:00" }).response, {
    events: [],
  });
});

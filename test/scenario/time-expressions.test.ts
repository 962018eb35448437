import { test } from "node:test";
import assert from "node:assert/strict";
import { parseAbsoluteTime, parseTimeExpression } from "../../engine/scenario/time-expressions.js";

// 2026-01-15T09:00:00 in Los Angeles (UTC-8 in January).
const clock = { now: Date.UTC(2026, 0, 15, 17, 0, 0) / 1000, timezone: "America/Los_Angeles" };
const value = (text: string | number): number => {
  const r = parseTimeExpression(text, clock);
  assert.ok(r.ok, `expected ${String(text)} to parse`);
  return r.value;
};

test("numbers are POSIX seconds, fractions kept", () => {
  assert.equal(value(1700000000.25), 1700000000.25);
});

test("now plus or minus a duration in weeks, days, hours, minutes, seconds", () => {
  assert.equal(value("now"), clock.now);
  assert.equal(value("now + 1d 2h"), clock.now + 86400 + 7200);
  assert.equal(value("now - 3d4h5m6s"), clock.now - (3 * 86400 + 4 * 3600 + 5 * 60 + 6));
  assert.equal(value("now+2w"), clock.now + 14 * 86400);
});

test("today, tomorrow and yesterday are local wall-clock times in the clock's timezone", () => {
  assert.equal(value("tomorrow 17:00"), Date.UTC(2026, 0, 17, 1, 0, 0) / 1000); // 17:00 PST = 01:00Z next day
  assert.equal(value("today 09:30:15"), Date.UTC(2026, 0, 15, 17, 30, 15) / 1000);
  assert.equal(value("yesterday 00:00"), Date.UTC(2026, 0, 14, 8, 0, 0) / 1000);
  assert.equal(value("today"), Date.UTC(2026, 0, 15, 8, 0, 0) / 1000);
});

test("day-relative times follow daylight saving of the zone", () => {
  // 2026-03-08 is the spring-forward day in the US: 17:00 that day is UTC-7.
  const march = { now: Date.UTC(2026, 2, 7, 20, 0, 0) / 1000, timezone: "America/Los_Angeles" };
  const r = parseTimeExpression("tomorrow 17:00", march);
  assert.ok(r.ok);
  assert.equal(r.value, Date.UTC(2026, 2, 9, 0, 0, 0) / 1000);
});

test("ISO date-times are local without an offset and exact with one; a date is local midnight", () => {
  assert.equal(value("2026-11-22T17:00:00"), Date.UTC(2026, 10, 23, 1, 0, 0) / 1000);
  assert.equal(value("2026-11-22 17:00"), Date.UTC(2026, 10, 23, 1, 0, 0) / 1000);
  assert.equal(value("2026-11-22T17:00:00Z"), Date.UTC(2026, 10, 22, 17, 0, 0) / 1000);
  assert.equal(value("2026-11-22T17:00:00+01:00"), Date.UTC(2026, 10, 22, 16, 0, 0) / 1000);
  assert.equal(value("2026-11-22"), Date.UTC(2026, 10, 22, 8, 0, 0) / 1000);
});

test("a misspelt keyword gets a suggestion; other text explains the forms", () => {
  const typo = parseTimeExpression("tomorow 17:00", clock);
  assert.equal(typo.ok, false);
  assert.ok(!typo.ok && typo.suggestion === "tomorrow 17:00");
  assert.match(!typo.ok ? typo.message : "", /Did you mean "tomorrow 17:00"\?/);
  const other = parseTimeExpression("in a fortnight", clock);
  assert.ok(!other.ok && other.suggestion === undefined && /not a time expression/.test(other.message));
});

test("impossible times and dates are rejected", () => {
  assert.equal(parseTimeExpression("today 25:00", clock).ok, false);
  assert.equal(parseTimeExpression("2026-02-30T10:00:00", clock).ok, false);
  assert.equal(parseTimeExpression("now + 1y", clock).ok, false);
});

test("the clock's now must be absolute", () => {
  assert.equal(parseAbsoluteTime("now + 1d", "UTC").ok, false);
  const r = parseAbsoluteTime("2026-01-15T09:00:00", "America/Los_Angeles");
  assert.ok(r.ok && r.value === clock.now);
});

test("next <weekday> is the coming one counting today (upstream's rule), at a local time of day", () => {
  // The clock's today is Thursday 2026-01-15.
  assert.equal(value("next friday 17:00"), Date.UTC(2026, 0, 17, 1, 0, 0) / 1000); // Friday 16th, 17:00 PST
  assert.equal(value("next thursday"), Date.UTC(2026, 0, 15, 8, 0, 0) / 1000); // today, local midnight
  assert.equal(value("next Wednesday 08:30"), Date.UTC(2026, 0, 21, 16, 30, 0) / 1000);
});

test("a misspelt weekday is reported with the weekday meant", () => {
  const r = parseTimeExpression("next fridya 17:00", clock);
  assert.ok(!r.ok);
  assert.equal(r.suggestion, "next friday 17:00");
});

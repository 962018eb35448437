// The utility tools: time arithmetic in the scenario timezone (with Python's naive-datetime
// behaviour around DST changes), distances, unit conversion and the holiday search. The clock is
// fixed at 1763719200 = Friday 2025-11-21 02:00 in America/Los_Angeles.
import { test } from "node:test";
import assert from "node:assert/strict";
import type { JsonValue } from "../../engine/base/json.js";
import { UTILITY_TOOLS } from "../../engine/packs/toolsandbox/tools/utilities.js";
import { usHolidays } from "../../engine/packs/toolsandbox/tools/us-holidays.js";
import type { ToolContext } from "../../engine/tools/types.js";
import { NOW, call, makeContext, worldWithSettings } from "./fixtures.js";

const run = (name: string, args: Readonly<Record<string, JsonValue>>, ctx: ToolContext = makeContext()) =>
  call(UTILITY_TOOLS, name, args, ctx);

/** The agent-visible text of a call. */
const text = (name: string, args: Readonly<Record<string, JsonValue>>, ctx?: ToolContext): string => run(name, args, ctx).text;

/** The result of a call that must succeed. */
function result(name: string, args: Readonly<Record<string, JsonValue>>, ctx?: ToolContext): JsonValue {
  const out = run(name, args, ctx);
  assert.ok(out.ok, out.text);
  return out.result;
}

/** POSIX seconds of a UTC wall time (month 1-12). */
const utc = (y: number, mo: number, d: number, h = 0, mi = 0, s = 0): number => Date.UTC(y, mo - 1, d, h, mi, s) / 1000;

function inZone(timezone: string): ToolContext {
  return { ...makeContext(), clock: { now: NOW, timezone } };
}

// --- get_current_timestamp ---------------------------------------------------------------------

test("get_current_timestamp answers the scenario clock's now, printed as a float", () => {
  const out = run("get_current_timestamp", {});
  assert.ok(out.ok);
  assert.equal(out.result, NOW);
  assert.equal(out.text, "1763719200.0");
});

// --- timestamp_to_datetime_info ----------------------------------------------------------------

test("timestamp_to_datetime_info gives the local calendar fields in the scenario timezone", () => {
  assert.equal(
    text("timestamp_to_datetime_info", { timestamp: NOW }),
    "{'year': 2025, 'month': 11, 'day': 21, 'hour': 2, 'minute': 0, 'second': 0, 'isoweekday': 5}",
  );
  assert.equal(
    text("timestamp_to_datetime_info", { timestamp: NOW }, inZone("Asia/Tokyo")),
    "{'year': 2025, 'month': 11, 'day': 21, 'hour': 19, 'minute': 0, 'second': 0, 'isoweekday': 5}",
  );
});

test("the same call gives the same answer whatever the machine's TZ is", () => {
  const saved = process.env.TZ;
  const answers = new Set<string>();
  const offsets = new Set<number>();
  try {
    for (const tz of ["UTC", "Asia/Tokyo", "America/New_York", "Pacific/Kiritimati", "America/Los_Angeles"]) {
      process.env.TZ = tz;
      offsets.add(new Date(NOW * 1000).getTimezoneOffset());
      answers.add(
        [
          text("timestamp_to_datetime_info", { timestamp: NOW + 0.25 }),
          text("datetime_info_to_timestamp", { year: 2025, month: 3, day: 9, hour: 2, minute: 30, second: 0 }),
          text("shift_timestamp", { timestamp: NOW, days: -30 }),
          text("seconds_to_hours_minutes_seconds", { seconds: 3661 }),
          text("search_holiday", { holiday_name: "Thanksgiving" }),
        ].join("\n"),
      );
    }
  } finally {
    if (saved === undefined) delete process.env.TZ;
    else process.env.TZ = saved;
  }
  assert.ok(offsets.size > 1, "changing TZ must change the machine's local offset, or this test proves nothing");
  assert.equal(answers.size, 1);
});

test("timestamp_to_datetime_info rounds to microseconds before taking the fields, as Python does", () => {
  assert.equal(
    text("timestamp_to_datetime_info", { timestamp: NOW - 0.0000001 }),
    "{'year': 2025, 'month': 11, 'day': 21, 'hour': 2, 'minute': 0, 'second': 0, 'isoweekday': 5}",
  );
});

test("timestamp_to_datetime_info rejects timestamps outside 1980-2050 and non-numbers", () => {
  assert.equal(
    text("timestamp_to_datetime_info", { timestamp: 0 }),
    "ValueError: Parameter 'timestamp' is smaller than its valid range minimum of 315529200.0.",
  );
  assert.equal(
    text("timestamp_to_datetime_info", { timestamp: NOW * 1000 }),
    "ValueError: Parameter 'timestamp' is larger than its valid range maximum of 2524604400.0.",
  );
  assert.equal(
    text("timestamp_to_datetime_info", { timestamp: "now" }),
    "TypeError: Parameter 'timestamp' is of type '<class 'str'>', but expected '<class 'float'>'.",
  );
});

// --- datetime_info_to_timestamp ----------------------------------------------------------------

const fields = (year: number, month: number, day: number, hour = 0, minute = 0, second = 0) => ({ year, month, day, hour, minute, second });

test("datetime_info_to_timestamp reads the fields as local time in the scenario timezone", () => {
  assert.equal(text("datetime_info_to_timestamp", fields(2025, 11, 21, 2)), "1763719200.0");
  assert.equal(run("datetime_info_to_timestamp", fields(2025, 11, 21, 2), inZone("UTC")).text, `${utc(2025, 11, 21, 2)}.0`);
});

test("datetime_info_to_timestamp resolves DST folds and gaps like CPython (fold=0)", () => {
  // 01:30 happens twice on 2025-11-02: the earlier one (still PDT, UTC-7) is chosen.
  assert.equal(result("datetime_info_to_timestamp", fields(2025, 11, 2, 1, 30)), utc(2025, 11, 2, 8, 30));
  // 02:30 does not exist on 2025-03-09: it is read with the offset before the change (PST, UTC-8).
  assert.equal(result("datetime_info_to_timestamp", fields(2025, 3, 9, 2, 30)), utc(2025, 3, 9, 10, 30));
});

test("datetime_info_to_timestamp raises Python's datetime errors, in Python's order", () => {
  const cases: [ReturnType<typeof fields>, string][] = [
    [fields(2025, 11, 31), "ValueError: day is out of range for month"],
    [fields(2023, 2, 29), "ValueError: day is out of range for month"],
    [fields(2025, 13, 40), "ValueError: month must be in 1..12"],
    [fields(0, 1, 1), "ValueError: year 0 is out of range"],
    [fields(10000, 1, 1), "ValueError: year 10000 is out of range"],
    [fields(2025, 1, 1, 24), "ValueError: hour must be in 0..23"],
    [fields(2025, 1, 1, 0, 60), "ValueError: minute must be in 0..59"],
    [fields(2025, 1, 1, 0, 0, 60), "ValueError: second must be in 0..59"],
    [fields(2 ** 31, 1, 1), "OverflowError: signed integer is greater than maximum"],
    [fields(2025, -(2 ** 31) - 1, 1), "OverflowError: signed integer is less than minimum"],
  ];
  for (const [args, expected] of cases) assert.equal(text("datetime_info_to_timestamp", args), expected, JSON.stringify(args));
  assert.equal(run("datetime_info_to_timestamp", fields(2024, 2, 29)).ok, true);
  assert.equal(
    text("datetime_info_to_timestamp", { ...fields(2025, 1, 1), hour: 1.5 }),
    "TypeError: Parameter 'hour' is of type '<class 'float'>', but expected '<class 'int'>'.",
  );
  assert.equal(text("datetime_info_to_timestamp", { year: 2025 }), "TypeError: missing a required argument: 'month'");
});

// --- shift_timestamp ---------------------------------------------------------------------------

test("shift_timestamp adds every unit, forwards and backwards, keeping the fraction", () => {
  assert.equal(result("shift_timestamp", { timestamp: NOW, days: 1 }), NOW + 86400);
  assert.equal(
    result("shift_timestamp", { timestamp: NOW, weeks: -1, days: 2, hours: 3, minutes: -4, seconds: 5 }),
    NOW - 604800 + 2 * 86400 + 3 * 3600 - 240 + 5,
  );
  assert.equal(text("shift_timestamp", { timestamp: NOW + 0.5, seconds: 1 }), "1763719201.5");
  assert.equal(text("shift_timestamp", { timestamp: NOW }), "1763719200.0");
});

test("shift_timestamp does wall-clock arithmetic across a DST change, as upstream", () => {
  const noonBeforeFallBack = utc(2025, 11, 1, 19); // 12:00 PDT
  // One day later is 12:00 PST: 25 hours of real time.
  assert.equal(result("shift_timestamp", { timestamp: noonBeforeFallBack, days: 1 }), utc(2025, 11, 2, 20));
  // [quirk] A timestamp in the repeated hour comes back as its first occurrence even with no shift.
  const secondOneThirty = utc(2025, 11, 2, 9, 30); // 01:30 PST
  assert.equal(result("shift_timestamp", { timestamp: secondOneThirty }), utc(2025, 11, 2, 8, 30));
});

test("shift_timestamp errors: timestamp range, and results Python's datetime cannot hold", () => {
  assert.equal(
    text("shift_timestamp", { timestamp: 1e3, days: 1 }),
    "ValueError: Parameter 'timestamp' is smaller than its valid range minimum of 315529200.0.",
  );
  assert.equal(text("shift_timestamp", { timestamp: NOW, days: 3_000_000 }), "OverflowError: date value out of range");
  assert.equal(
    text("shift_timestamp", { timestamp: NOW, days: 1_000_000_000 }),
    "OverflowError: days=1000000000; must have magnitude <= 999999999",
  );
  assert.equal(
    text("shift_timestamp", { timestamp: NOW, days: "1" }),
    "TypeError: Parameter 'days' is of type '<class 'str'>', but expected '<class 'int'>'.",
  );
});

// --- timestamp_diff ----------------------------------------------------------------------------

test("timestamp_diff is timestamp_1 - timestamp_0 as a normalised timedelta", () => {
  assert.equal(text("timestamp_diff", { timestamp_0: NOW, timestamp_1: NOW + 90061 }), "{'days': 1, 'seconds': 3661}");
  // Negative differences borrow a day: -90061 s = -2 days + 82739 s.
  assert.equal(text("timestamp_diff", { timestamp_0: NOW + 90061, timestamp_1: NOW }), "{'days': -2, 'seconds': 82739}");
  assert.equal(text("timestamp_diff", { timestamp_0: NOW + 0.5, timestamp_1: NOW }), "{'days': -1, 'seconds': 86399}");
});

test("timestamp_diff compares local wall-clock times, so a DST change shows, as upstream", () => {
  const noonPdt = utc(2025, 11, 1, 19);
  assert.equal(text("timestamp_diff", { timestamp_0: noonPdt, timestamp_1: noonPdt + 86400 }), "{'days': 0, 'seconds': 82800}");
  assert.equal(
    run("timestamp_diff", { timestamp_0: noonPdt, timestamp_1: noonPdt + 86400 }, inZone("UTC")).text,
    "{'days': 1, 'seconds': 0}",
  );
});

test("timestamp_diff validates timestamp_0 before timestamp_1", () => {
  assert.equal(
    text("timestamp_diff", { timestamp_0: 1, timestamp_1: 1e12 }),
    "ValueError: Parameter 'timestamp_0' is smaller than its valid range minimum of 315529200.0.",
  );
  assert.equal(
    text("timestamp_diff", { timestamp_0: NOW, timestamp_1: 1e12 }),
    "ValueError: Parameter 'timestamp_1' is larger than its valid range maximum of 2524604400.0.",
  );
});

// --- seconds_to_hours_minutes_seconds -----------------------------------------------------------

test("seconds_to_hours_minutes_seconds keeps upstream's quirk: the UTC offset shifts the hour", () => {
  // fromtimestamp(3661) in Los Angeles is 1969-12-31 17:01:01.
  assert.equal(text("seconds_to_hours_minutes_seconds", { seconds: 3661 }), "{'hour': 17, 'minute': 1, 'second': 1}");
  assert.equal(run("seconds_to_hours_minutes_seconds", { seconds: 3661 }, inZone("UTC")).text, "{'hour': 1, 'minute': 1, 'second': 1}");
  assert.equal(text("seconds_to_hours_minutes_seconds", { seconds: 1e15 }), "ValueError: year 31690708 is out of range");
});

// --- unit_conversion ---------------------------------------------------------------------------

test("unit_conversion converts temperatures as absolute (offset) units", () => {
  assert.equal(text("unit_conversion", { amount: 100, from_unit: "celsius", to_unit: "fahrenheit" }), "211.99999999999991");
  assert.ok(Math.abs((result("unit_conversion", { amount: 98.6, from_unit: "fahrenheit", to_unit: "celsius" }) as number) - 37) < 1e-9);
  assert.equal(text("unit_conversion", { amount: 0, from_unit: "degC", to_unit: "kelvin" }), "273.15");
  assert.ok(Math.abs((result("unit_conversion", { amount: -40, from_unit: "°F", to_unit: "°C" }) as number) + 40) < 1e-9);
});

test("unit_conversion takes pint's names, abbreviations, plurals, prefixes and compound units", () => {
  const close = (args: Record<string, JsonValue>, expected: number) => {
    const out = run("unit_conversion", args);
    assert.ok(out.ok, out.text);
    assert.ok(
      Math.abs((out.result as number) - expected) < 1e-9 * Math.max(1, Math.abs(expected)),
      `${JSON.stringify(args)} -> ${out.text}`,
    );
  };
  close({ amount: 1, from_unit: "mile", to_unit: "kilometer" }, 1.609344);
  close({ amount: 26.2, from_unit: "miles", to_unit: "km" }, 42.1648128);
  close({ amount: 60, from_unit: "mph", to_unit: "km/h" }, 96.56064);
  close({ amount: 10, from_unit: "meters per second", to_unit: "kph" }, 36);
  close({ amount: 2, from_unit: "lbs", to_unit: "kg" }, 0.90718474);
  close({ amount: 1, from_unit: "gallon", to_unit: "liter" }, 3.785411784);
  close({ amount: 1, from_unit: "square meter", to_unit: "ft**2" }, 10.763910416709722);
  close({ amount: 1, from_unit: "kWh", to_unit: "J" }, 3.6e6);
  close({ amount: 1, from_unit: "year", to_unit: "days" }, 365.25);
  close({ amount: 180, from_unit: "degrees", to_unit: "radian" }, Math.PI);
  close({ amount: 1, from_unit: "1/s", to_unit: "Hz" }, 1);
});

test("unit_conversion retries lower-cased names when a name is unknown", () => {
  assert.equal(
    text("unit_conversion", { amount: 100, from_unit: "Celsius", to_unit: "Fahrenheit" }),
    text("unit_conversion", { amount: 100, from_unit: "celsius", to_unit: "fahrenheit" }),
  );
  assert.equal(result("unit_conversion", { amount: 3, from_unit: "Kilometers", to_unit: "Meter" }), 3000);
});

test("unit_conversion raises pint's errors with pint's unit names", () => {
  assert.equal(
    text("unit_conversion", { amount: 1, from_unit: "furlongz", to_unit: "meter" }),
    "pint.errors.UndefinedUnitError: 'furlongz' is not defined in the unit registry",
  );
  // The retry lower-cases, so the error names the lower-cased unit.
  assert.equal(
    text("unit_conversion", { amount: 1, from_unit: "meter", to_unit: "Parsecz" }),
    "pint.errors.UndefinedUnitError: 'parsecz' is not defined in the unit registry",
  );
  assert.equal(
    text("unit_conversion", { amount: 1, from_unit: "meter", to_unit: "second" }),
    "pint.errors.DimensionalityError: Cannot convert from 'meter' ([length]) to 'second' ([time])",
  );
  assert.equal(
    text("unit_conversion", { amount: 1, from_unit: "Celsius", to_unit: "km/h" }),
    "pint.errors.DimensionalityError: Cannot convert from 'degree_Celsius' ([temperature]) to 'kilometer / hour' ([length] / [time])",
  );
  assert.equal(
    text("unit_conversion", { amount: 1, from_unit: "pascal", to_unit: "joule" }),
    "pint.errors.DimensionalityError: Cannot convert from 'pascal' ([mass] / [length] / [time] ** 2) to 'joule' ([length] ** 2 * [mass] / [time] ** 2)",
  );
  assert.equal(
    text("unit_conversion", { amount: 1, from_unit: "celsius/s", to_unit: "fahrenheit/s" }),
    "pint.errors.OffsetUnitCalculusError: Ambiguous operation with offset unit (degree_Celsius / second).",
  );
  assert.equal(
    text("unit_conversion", { amount: "1", from_unit: "m", to_unit: "ft" }),
    "TypeError: Parameter 'amount' is of type '<class 'str'>', but expected '<class 'float'>'.",
  );
});

// --- calculate_lat_lon_distance -----------------------------------------------------------------

test("calculate_lat_lon_distance is the WGS-84 geodesic distance in kilometres", () => {
  // geopy's documented example: Newport, RI to Cleveland, OH.
  const out = run("calculate_lat_lon_distance", {
    latitude_0: 41.49008,
    longitude_0: -71.312796,
    latitude_1: 41.499498,
    longitude_1: -81.695391,
  });
  assert.ok(out.ok);
  assert.ok(Math.abs((out.result as number) - 866.4554329098685) < 1e-9, out.text);
  assert.equal(text("calculate_lat_lon_distance", { latitude_0: 10, longitude_0: 20, latitude_1: 10, longitude_1: 20 }), "0.0");
});

test("calculate_lat_lon_distance checks both latitudes, then both longitudes", () => {
  const base = { latitude_0: 0, longitude_0: 0, latitude_1: 0, longitude_1: 0 };
  assert.equal(
    text("calculate_lat_lon_distance", { ...base, latitude_0: 90.5 }),
    "ValueError: Parameter 'latitude_0' is larger than its valid range maximum of 90.0.",
  );
  assert.equal(
    text("calculate_lat_lon_distance", { ...base, longitude_0: 200, latitude_1: -91 }),
    "ValueError: Parameter 'latitude_1' is smaller than its valid range minimum of -90.0.",
  );
  assert.equal(
    text("calculate_lat_lon_distance", { ...base, longitude_1: -180.5 }),
    "ValueError: Parameter 'longitude_1' is smaller than its valid range minimum of -180.0.",
  );
});

// --- search_holiday ----------------------------------------------------------------------------

test("search_holiday returns local midnight of the holiday, in the clock's year by default", () => {
  assert.equal(result("search_holiday", { holiday_name: "Thanksgiving" }), utc(2025, 11, 27, 8));
  assert.equal(result("search_holiday", { holiday_name: "thanksgiving day", year: null }), utc(2025, 11, 27, 8));
  assert.equal(text("search_holiday", { holiday_name: "christmas", year: 2024 }), `${utc(2024, 12, 25, 8)}.0`);
  assert.equal(result("search_holiday", { holiday_name: "Juneteenth", year: 2025 }), utc(2025, 6, 19, 7));
  assert.equal(result("search_holiday", { holiday_name: "Labor Day", year: 2026 }), utc(2026, 9, 7, 7));
  assert.equal(result("search_holiday", { holiday_name: "Thanksgiving" }, inZone("Europe/Paris")), utc(2025, 11, 26, 23));
});

test("search_holiday prefers the later date among equal matches, observed days included", () => {
  // Independence Day 2026 is a Saturday: "(observed)" on Friday July 3 matches as well as July 4.
  assert.equal(result("search_holiday", { holiday_name: "Independence Day", year: 2026 }), utc(2026, 7, 4, 7));
  // [quirk] New Year's Day 2022 is a Saturday, so 2021 lists "New Year's Day (observed)" on
  // December 31; it ties with January 1 and, being later, wins.
  assert.equal(result("search_holiday", { holiday_name: "New Year's Day", year: 2021 }), utc(2021, 12, 31, 8));
});

test("the federal holidays of a year, as holidays 0.51 has them: weekend days observed on the nearest weekday, the next New Year's in December, and their history", () => {
  // 2027: Juneteenth and Christmas fall on a Saturday, Independence Day on a Sunday, and
  // 2028-01-01 on a Saturday (observed on 2027-12-31).
  assert.deepEqual(
    usHolidays(2027).map((h) => `${h.date} ${h.name}`),
    [
      "2027-01-01 New Year's Day",
      "2027-01-18 Martin Luther King Jr. Day",
      "2027-02-15 Washington's Birthday",
      "2027-05-31 Memorial Day",
      "2027-06-18 Juneteenth National Independence Day (observed)",
      "2027-06-19 Juneteenth National Independence Day",
      "2027-07-04 Independence Day",
      "2027-07-05 Independence Day (observed)",
      "2027-09-06 Labor Day",
      "2027-10-11 Columbus Day",
      "2027-11-11 Veterans Day",
      "2027-11-25 Thanksgiving",
      "2027-12-24 Christmas Day (observed)",
      "2027-12-25 Christmas Day",
      "2027-12-31 New Year's Day (observed)",
    ],
  );
  // The history of holidays 0.51: nothing before 1871; before 1971 fixed dates (Feb 22, May 30,
  // Oct 12) and Armistice Day; Veterans Day on the 4th Monday of October, not observed, in 1971-1977.
  assert.deepEqual(usHolidays(1870), []);
  assert.deepEqual(
    usHolidays(1950).map((h) => `${h.date} ${h.name}`),
    [
      "1950-01-01 New Year's Day",
      "1950-01-02 New Year's Day (observed)",
      "1950-02-22 Washington's Birthday",
      "1950-05-30 Memorial Day",
      "1950-07-04 Independence Day",
      "1950-09-04 Labor Day",
      "1950-10-12 Columbus Day",
      "1950-11-10 Armistice Day (observed)",
      "1950-11-11 Armistice Day",
      "1950-11-23 Thanksgiving",
      "1950-12-25 Christmas Day",
    ],
  );
  assert.equal(usHolidays(1975).find((h) => h.name.startsWith("Veterans"))?.date, "1975-10-27");
  assert.equal(usHolidays(1975).filter((h) => h.name.startsWith("Veterans")).length, 1);
  // The package builds the next year's January 1, which Python's dates cannot hold for 9999.
  assert.throws(() => usHolidays(9999), /year 10000 is out of range/);
});

test("search_holiday answers None below the match threshold and for non-federal holidays", () => {
  assert.equal(text("search_holiday", { holiday_name: "Easter" }), "None");
  assert.equal(text("search_holiday", { holiday_name: "Martin Luther King", year: 1985 }), "None");
  assert.equal(text("search_holiday", { holiday_name: "" }), "None");
});

test("search_holiday needs wifi, checked before anything else", () => {
  const offline = makeContext(worldWithSettings({ wifi: false }));
  assert.equal(text("search_holiday", { holiday_name: "Thanksgiving" }, offline), "ConnectionError: Wifi is not enabled");
  assert.equal(text("search_holiday", { holiday_name: "Thanksgiving", year: 0 }, offline), "ConnectionError: Wifi is not enabled");
  assert.equal(text("search_holiday", { holiday_name: "Thanksgiving", year: 0 }), "ValueError: year 0 is out of range");
  assert.equal(
    text("search_holiday", { holiday_name: "Thanksgiving", year: "2025" }),
    "TypeError: Parameter 'year' is of type '<class 'str'>', but expected 'typing.Optional[int]'.",
  );
});

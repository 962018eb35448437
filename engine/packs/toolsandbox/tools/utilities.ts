// The utility tools (upstream module `utilities`): time arithmetic, distances, unit conversion and
// the holiday search. Every conversion between timestamps and calendar fields uses the scenario
// clock's timezone where upstream used the machine's, with Python's naive-datetime semantics
// (python-datetime.ts), so answers do not depend on the machine running the engine.
import { partialRatioProcessed } from "../../../tools/fuzzy/wratio.js";
import { numberArg, stringArg } from "../../../tools/binding.js";
import type { BoundArguments } from "../../../tools/binding.js";
import { googleDocstring } from "../../../tools/docstring.js";
import { geodesicDistanceKm } from "./geodesy.js";
import { addSeconds, difference, fromTimestamp, naiveFields, naiveFromFields, toTimestamp } from "../../../tools/python-datetime.js";
import { getBooleanSetting } from "./setting.js";
import type { ToolDefinition, ToolParameter } from "../../../tools/types.js";
import { ToolError } from "../../../tools/types.js";
import { convertUnits } from "./unit-conversion.js";
import { usHolidays } from "./us-holidays.js";
import { validateLatitude, validateLongitude, validateTimestamp } from "../../../tools/validators.js";

const FLOAT = "<class 'float'>";
const INT = "<class 'int'>";
const STR = "<class 'str'>";

const TYPE_ERROR = "TypeError: Parameter '…' is of type '…', but expected '…'.";
const rangeErrors = (name: string, min: string, max: string): string[] => [
  `ValueError: Parameter '${name}' is smaller than its valid range minimum of ${min}.`,
  `ValueError: Parameter '${name}' is larger than its valid range maximum of ${max}.`,
];
const timestampErrors = (name: string): string[] => rangeErrors(name, "315529200.0", "2524604400.0");
const WIFI_OFF = "Wifi is not enabled";

const COMMON = { module: "utilities", visibleTo: ["agent"], webBacked: false, typechecked: true, stateDependencies: [] } as const;

function required(name: string, type: ToolParameter["type"], annotation: string, description: string, timestamp = false): ToolParameter {
  return { name, type, description, required: true, annotation, ...(timestamp ? { timestamp } : {}) };
}

/** A number argument the type check has vetted (bools count as 0/1, as in Python arithmetic). */
function num(args: BoundArguments, name: string): number {
  const v = numberArg(args, name);
  if (typeof v !== "number") throw new Error(`argument ${name} is missing after binding`);
  return v;
}

const NUMBER = { type: "number" } as const;
const INTEGER = { type: "integer" } as const;

// --- time ------------------------------------------------------------------------------------

const getCurrentTimestamp: ToolDefinition = {
  ...COMMON,
  name: "get_current_timestamp",
  domain: "Time",
  docstring: googleDocstring(["Tell the current time as a POSIX timestamp."], [], "The current POSIX timestamp in seconds, as a float."),
  parameters: [],
  returns: { description: "The current POSIX timestamp (the scenario clock's now).", schema: NUMBER },
  action: false,
  errors: [],
  run: (_args, ctx) => ctx.clock.now,
};

const DATETIME_FIELDS = ["year", "month", "day", "hour", "minute", "second"] as const;

const timestampToDatetimeInfoParams = [required("timestamp", "number", FLOAT, "The POSIX timestamp to break down.", true)];
const timestampToDatetimeInfo: ToolDefinition = {
  ...COMMON,
  name: "timestamp_to_datetime_info",
  domain: "Time",
  docstring: googleDocstring(
    [
      "Break a POSIX timestamp down into local calendar fields: year, month, day, hour, minute,\nsecond and isoweekday (1 is Monday, 7 is Sunday).",
    ],
    timestampToDatetimeInfoParams,
    "A dict of the local date and time fields of the timestamp.",
  ),
  parameters: timestampToDatetimeInfoParams,
  returns: {
    description: "Local calendar fields of the timestamp, in the scenario timezone.",
    schema: {
      type: "object",
      properties: Object.fromEntries([...DATETIME_FIELDS, "isoweekday"].map((f) => [f, INTEGER])),
      required: [...DATETIME_FIELDS, "isoweekday"],
    },
  },
  action: false,
  errors: [TYPE_ERROR, ...timestampErrors("timestamp")],
  run(args, ctx) {
    validateTimestamp(args.timestamp, "timestamp");
    const f = naiveFields(fromTimestamp(num(args, "timestamp"), ctx.clock.timezone));
    return { year: f.year, month: f.month, day: f.day, hour: f.hour, minute: f.minute, second: f.second, isoweekday: f.isoweekday };
  },
};

const datetimeInfoToTimestampParams: ToolParameter[] = [
  required("year", "integer", INT, "Year, e.g. 2024."),
  required("month", "integer", INT, "Month of the year, 1 to 12."),
  required("day", "integer", INT, "Day of the month."),
  required("hour", "integer", INT, "Hour on the 24-hour clock, 0 to 23."),
  required("minute", "integer", INT, "Minute, 0 to 59."),
  required("second", "integer", INT, "Second, 0 to 59."),
];
const datetimeInfoToTimestamp: ToolDefinition = {
  ...COMMON,
  name: "datetime_info_to_timestamp",
  domain: "Time",
  docstring: googleDocstring(
    ["Turn a local date and time into a POSIX timestamp."],
    datetimeInfoToTimestampParams,
    "The POSIX timestamp of that local date and time.",
  ),
  parameters: datetimeInfoToTimestampParams,
  returns: { description: "The POSIX timestamp of the local date and time (scenario timezone).", schema: NUMBER },
  action: false,
  errors: [
    TYPE_ERROR,
    "ValueError: year … is out of range",
    "ValueError: month must be in 1..12",
    "ValueError: day is out of range for month",
    "ValueError: hour must be in 0..23",
    "ValueError: minute must be in 0..59",
    "ValueError: second must be in 0..59",
    "OverflowError: signed integer is greater than maximum",
    "OverflowError: signed integer is less than minimum",
  ],
  run(args, ctx) {
    const [year, month, day, hour, minute, second] = DATETIME_FIELDS.map((f) => num(args, f)) as [
      number,
      number,
      number,
      number,
      number,
      number,
    ];
    return toTimestamp(naiveFromFields({ year, month, day, hour, minute, second }), ctx.clock.timezone);
  },
};

const SHIFT_UNITS = [
  ["weeks", 604800],
  ["days", 86400],
  ["hours", 3600],
  ["minutes", 60],
  ["seconds", 1],
] as const;
const shiftTimestampParams: ToolParameter[] = [
  required("timestamp", "number", FLOAT, "The POSIX timestamp to start from.", true),
  ...SHIFT_UNITS.map(
    ([unit]): ToolParameter => ({
      name: unit,
      type: "integer",
      description: `Optional, 0 by default. How many ${unit} to move by; negative moves back.`,
      required: false,
      default: 0,
      annotation: INT,
    }),
  ),
];
const MAX_TIMEDELTA_DAYS = 999999999n;
const C_INT_MAX = 2147483647n;

/**
 * Python's timedelta range checks, in its order: the whole days (floored, in exact integer
 * arithmetic) must first fit a C int, then stay within 999,999,999.
 */
function checkTimedeltaDays(parts: readonly (readonly [number, number])[]): void {
  const seconds = parts.reduce((sum, [count, size]) => sum + BigInt(Math.trunc(count)) * BigInt(size), 0n);
  const days = seconds >= 0n ? seconds / 86400n : -((-seconds + 86399n) / 86400n);
  if (days > C_INT_MAX || days < -C_INT_MAX - 1n) throw new ToolError("OverflowError", "Python int too large to convert to C int");
  if (days > MAX_TIMEDELTA_DAYS || days < -MAX_TIMEDELTA_DAYS) {
    throw new ToolError("OverflowError", `days=${days}; must have magnitude <= ${MAX_TIMEDELTA_DAYS}`);
  }
}
const shiftTimestamp: ToolDefinition = {
  ...COMMON,
  name: "shift_timestamp",
  domain: "Time",
  docstring: googleDocstring(
    ["Move a POSIX timestamp forwards or backwards by a number of weeks, days, hours, minutes and\nseconds."],
    shiftTimestampParams,
    "The shifted POSIX timestamp.",
  ),
  parameters: shiftTimestampParams,
  returns: { description: "The shifted POSIX timestamp.", schema: NUMBER },
  action: false,
  errors: [TYPE_ERROR, ...timestampErrors("timestamp"), "OverflowError: date value out of range"],
  run(args, ctx) {
    validateTimestamp(args.timestamp, "timestamp");
    const delta = SHIFT_UNITS.reduce((sum, [unit, size]) => sum + num(args, unit) * size, 0);
    checkTimedeltaDays(SHIFT_UNITS.map(([unit, size]) => [num(args, unit), size] as const));
    // As upstream: wall-clock arithmetic on the local time, so a shift across a DST change keeps
    // the time of day.
    const tz = ctx.clock.timezone;
    return toTimestamp(addSeconds(fromTimestamp(num(args, "timestamp"), tz), delta), tz);
  },
};

const timestampDiffParams: ToolParameter[] = [
  required("timestamp_0", "number", FLOAT, "The POSIX timestamp to subtract.", true),
  required("timestamp_1", "number", FLOAT, "The POSIX timestamp to subtract from.", true),
];
const timestampDiff: ToolDefinition = {
  ...COMMON,
  name: "timestamp_diff",
  domain: "Time",
  docstring: googleDocstring(
    ["Work out how far apart two POSIX timestamps are: timestamp_1 minus timestamp_0, in days and\nseconds."],
    timestampDiffParams,
    "A dict with the whole days and the remaining seconds of the difference.",
  ),
  parameters: timestampDiffParams,
  returns: {
    description:
      "The difference of the local wall-clock times as Python's timedelta normalises it: days may be negative, seconds is in [0, 86400).",
    schema: { type: "object", properties: { days: INTEGER, seconds: INTEGER }, required: ["days", "seconds"] },
  },
  action: false,
  errors: [TYPE_ERROR, ...timestampErrors("timestamp_0"), ...timestampErrors("timestamp_1")],
  run(args, ctx) {
    validateTimestamp(args.timestamp_0, "timestamp_0");
    validateTimestamp(args.timestamp_1, "timestamp_1");
    const tz = ctx.clock.timezone;
    const d = difference(fromTimestamp(num(args, "timestamp_1"), tz), fromTimestamp(num(args, "timestamp_0"), tz));
    return { days: d.days, seconds: d.seconds };
  },
};

const secondsParams = [required("seconds", "number", FLOAT, "Seconds elapsed since midnight.")];
const secondsToHoursMinutesSeconds: ToolDefinition = {
  ...COMMON,
  name: "seconds_to_hours_minutes_seconds",
  domain: "Time",
  docstring: googleDocstring(
    ["Split a number of seconds after midnight into hours, minutes and seconds."],
    secondsParams,
    "A dict with the hour, minute and second.",
  ),
  parameters: secondsParams,
  returns: {
    // Upstream quirk kept: the value is read as a timestamp in the local timezone, so the hour is
    // shifted by the UTC offset (3661 seconds gives 17:01:01 in Los Angeles).
    description:
      "Clock fields of `datetime.fromtimestamp(seconds)` in the scenario timezone, as upstream computes them: shifted by the timezone's UTC offset.",
    schema: { type: "object", properties: { hour: INTEGER, minute: INTEGER, second: INTEGER }, required: ["hour", "minute", "second"] },
  },
  action: false,
  errors: [TYPE_ERROR, "ValueError: year … is out of range"],
  run(args, ctx) {
    const f = naiveFields(fromTimestamp(num(args, "seconds"), ctx.clock.timezone));
    return { hour: f.hour, minute: f.minute, second: f.second };
  },
};

// --- math and conversion ---------------------------------------------------------------------

const unitConversionParams: ToolParameter[] = [
  required("amount", "number", FLOAT, "The quantity to convert, in from_unit."),
  required("from_unit", "string", STR, "The unit the amount is in, e.g. celsius."),
  required("to_unit", "string", STR, "The unit to convert to, e.g. fahrenheit."),
];
const unitConversion: ToolDefinition = {
  ...COMMON,
  name: "unit_conversion",
  domain: "Conversion",
  docstring: googleDocstring(
    ["Convert an amount from one unit of measure to another.", "Units may be written as everyday English names."],
    unitConversionParams,
    "The amount expressed in to_unit.",
  ),
  parameters: unitConversionParams,
  returns: { description: "The converted amount.", schema: NUMBER },
  action: false,
  errors: [
    TYPE_ERROR,
    "pint.errors.UndefinedUnitError: '…' is not defined in the unit registry",
    "pint.errors.DimensionalityError: Cannot convert from '…' (…) to '…' (…)",
    "pint.errors.OffsetUnitCalculusError: Ambiguous operation with offset unit (…).",
  ],
  run: (args) => convertUnits(num(args, "amount"), stringArg(args, "from_unit"), stringArg(args, "to_unit")),
};

const distanceParams: ToolParameter[] = [
  required("latitude_0", "number", FLOAT, "Latitude of the first point, in degrees."),
  required("longitude_0", "number", FLOAT, "Longitude of the first point, in degrees."),
  required("latitude_1", "number", FLOAT, "Latitude of the second point, in degrees."),
  required("longitude_1", "number", FLOAT, "Longitude of the second point, in degrees."),
];
const calculateLatLonDistance: ToolDefinition = {
  ...COMMON,
  name: "calculate_lat_lon_distance",
  domain: "Math",
  docstring: googleDocstring(
    ["Measure the distance between two points given by latitude and longitude."],
    distanceParams,
    "The distance between the two points in kilometers.",
  ),
  parameters: distanceParams,
  returns: { description: "Geodesic distance on the WGS-84 ellipsoid, in kilometers.", schema: NUMBER },
  action: false,
  errors: [
    TYPE_ERROR,
    ...rangeErrors("latitude_0", "-90.0", "90.0"),
    ...rangeErrors("latitude_1", "-90.0", "90.0"),
    ...rangeErrors("longitude_0", "-180.0", "180.0"),
    ...rangeErrors("longitude_1", "-180.0", "180.0"),
  ],
  run(args) {
    // Upstream validates both latitudes before the longitudes.
    validateLatitude(args.latitude_0, "latitude_0");
    validateLatitude(args.latitude_1, "latitude_1");
    validateLongitude(args.longitude_0, "longitude_0");
    validateLongitude(args.longitude_1, "longitude_1");
    return geodesicDistanceKm(num(args, "latitude_0"), num(args, "longitude_0"), num(args, "latitude_1"), num(args, "longitude_1"));
  },
};

// --- holidays --------------------------------------------------------------------------------

const HOLIDAY_MATCH_ABOVE = 90;

const searchHolidayParams: ToolParameter[] = [
  required("holiday_name", "string", STR, "Name of the holiday as people say it, e.g. Thanksgiving."),
  {
    name: "year",
    type: "integer",
    description: "Optional. The year to look in; the current year when left out.",
    required: false,
    default: null,
    nullable: true,
    annotation: "typing.Optional[int]",
  },
];
const searchHoliday: ToolDefinition = {
  ...COMMON,
  name: "search_holiday",
  domain: "Holiday",
  docstring: googleDocstring(
    ["Look up the date of a United States holiday by its name.", "The date is given as the POSIX timestamp of its local midnight."],
    searchHolidayParams,
    "The POSIX timestamp of the holiday, or None when no holiday matches the name.",
  ),
  parameters: searchHolidayParams,
  returns: {
    description:
      "Local midnight (scenario timezone) of the best-matching US federal holiday, or None. Names are matched with partial_ratio > 90; ties go to the later date.",
    schema: { type: ["number", "null"] },
  },
  action: false,
  stateDependencies: [{ table: "SETTING", column: "wifi", value: true, error: `ConnectionError: ${WIFI_OFF}` }],
  errors: [TYPE_ERROR, `ConnectionError: ${WIFI_OFF}`, "ValueError: year … is out of range"],
  run(args, ctx) {
    // Upstream treats the holiday calendar as a web service: it needs wifi.
    if (!getBooleanSetting(ctx.world, "wifi")) throw new ToolError("ConnectionError", WIFI_OFF);
    const tz = ctx.clock.timezone;
    const year = numberArg(args, "year") ?? naiveFields(fromTimestamp(ctx.clock.now, tz)).year;
    const query = stringArg(args, "holiday_name");
    // Python sorts (score, date, name) tuples in reverse: best score, then later date, then name.
    const ranked = usHolidays(year)
      .map((h) => ({ ...h, score: partialRatioProcessed(query, h.name) }))
      .sort((a, b) => b.score - a.score || compareDesc(a.date, b.date) || compareDesc(a.name, b.name));
    const best = ranked[0];
    if (!best || best.score <= HOLIDAY_MATCH_ABOVE) return null;
    const [y, m, d] = best.date.split("-").map(Number) as [number, number, number];
    return toTimestamp(naiveFromFields({ year: y, month: m, day: d, hour: 0, minute: 0, second: 0 }), tz);
  },
};

function compareDesc(a: string, b: string): number {
  return a < b ? 1 : a > b ? -1 : 0;
}

/** The utility tools, alphabetically (upstream discovery order within the module). */
export const UTILITY_TOOLS: readonly ToolDefinition[] = [
  calculateLatLonDistance,
  datetimeInfoToTimestamp,
  getCurrentTimestamp,
  searchHoliday,
  secondsToHoursMinutesSeconds,
  shiftTimestamp,
  timestampDiff,
  timestampToDatetimeInfo,
  unitConversion,
];

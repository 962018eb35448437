// ToolTalk's Weather suite: today's weather and the next three days at a place, and climate
// figures per month. No login needed. "Today" is the frozen clock's date.
import type { JsonObject } from "../../../base/json.js";
import { addSeconds, naiveFields, type NaiveDateTime } from "../../../tools/python-datetime.js";
import type { ToolParameter } from "../../../tools/types.js";
import { ToolError } from "../../../tools/types.js";
import type { Row } from "../../../world/types.js";
import type { WorldTransaction } from "../../../world/transaction.js";
import { apiException, arg, stringParam, type ToolTalkApi, suiteTool } from "./api.js";
import { cellJson } from "./collections.js";
import { pyEquals, pyLower, pyStrip, type PyValue } from "./python-semantics.js";
import { DATE_FORMAT, compareNaive, strptime } from "./strptime.js";
import { HISTORIC_WEATHER, WEATHER } from "../tables.js";

const SUITE = { module: "Weather", domain: "Weather" } as const;
const DAY_SCHEMA: JsonObject = {
  type: "object",
  properties: { date: { type: "string" }, high: { type: "integer" }, low: { type: "integer" }, conditions: { type: "string" } },
};
const CLIMATE_FIELDS = ["min_temp", "max_temp", "record_min_temp", "record_max_temp", "avg_rainfall", "snow_days"] as const;
const CLIMATE_SCHEMA: JsonObject = {
  type: "object",
  properties: {
    min_temp: { type: "integer" },
    max_temp: { type: "integer" },
    record_min_temp: { type: "integer" },
    record_max_temp: { type: "integer" },
    avg_rainfall: { type: "number" },
    snow_days: { type: "integer" },
  },
};
const LOCATION = stringParam("location", "The place, e.g. a city name.", true);
const LOCATION_NOT_FOUND = "Location … not found in database";

/** Weather tools need no login and change nothing. */
function tool(
  name: string,
  summary: string,
  parameters: readonly ToolParameter[],
  returns: string,
  schema: JsonObject,
  errors: readonly string[],
): ToolTalkApi["definition"] {
  return suiteTool(SUITE, { name, summary, parameters, returns: { text: returns, schema }, action: false, errors });
}

/** ToolTalk looks places up lower-cased and trimmed. */
function placeRows(world: WorldTransaction, table: string, location: PyValue): { place: string; rows: Row[] } {
  const place = pyStrip(pyLower(location));
  const rows = world.rows(table).filter((r) => pyEquals(r.location, place));
  if (rows.length === 0) throw apiException(`Location ${place} not found in database`);
  return { place, rows };
}

/** The place's weather on `day`; a missing day is a KeyError on the date, as in ToolTalk. */
function weatherOn(rows: readonly Row[], day: NaiveDateTime): JsonObject {
  const row = rows.find((r) => compareNaive(strptime(r.date ?? null, DATE_FORMAT), day) === 0);
  if (!row) {
    const { year, month, day: dom } = naiveFields(day);
    throw new ToolError("KeyError", `datetime.date(${year}, ${month}, ${dom})`);
  }
  return { date: cellJson(row.date), high: cellJson(row.high), low: cellJson(row.low), conditions: cellJson(row.conditions) };
}

function today(now: NaiveDateTime): NaiveDateTime {
  return { seconds: now.seconds - (((now.seconds % 86400) + 86400) % 86400), micros: 0 };
}

const currentWeather: ToolTalkApi = {
  definition: tool(
    "CurrentWeather",
    "Today's weather at a place.",
    [LOCATION],
    "weather: the day's date, high and low (°F) and conditions.",
    {
      type: "object",
      properties: { weather: DAY_SCHEMA },
    },
    [LOCATION_NOT_FOUND, "datetime.date(…) (KeyError: no weather for today)"],
  ),
  requiresAuth: false,
  call(args, { world, now }) {
    return { weather: weatherOn(placeRows(world, WEATHER.name, arg(args, "location")).rows, today(now)) };
  },
};

const forecastWeather: ToolTalkApi = {
  definition: tool(
    "ForecastWeather",
    "The weather at a place for the three days after today.",
    [LOCATION],
    "forecast: one entry per day (date, high, low, conditions), tomorrow first.",
    {
      type: "object",
      properties: { forecast: { type: "array", items: DAY_SCHEMA } },
    },
    [LOCATION_NOT_FOUND, "datetime.date(…) (KeyError: a day is missing)"],
  ),
  requiresAuth: false,
  call(args, { world, now }) {
    const { rows } = placeRows(world, WEATHER.name, arg(args, "location"));
    return { forecast: [1, 2, 3].map((days) => weatherOn(rows, addSeconds(today(now), days * 86400))) };
  },
};

const HISTORIC_PARAMETERS = [LOCATION, stringParam("month", "The month, written out in full (e.g. September).", true)];

const historicWeather: ToolTalkApi = {
  definition: tool(
    "HistoricWeather",
    "Climate figures for a place in a given month: average and record temperatures, rainfall and snow days.",
    HISTORIC_PARAMETERS,
    "weather: min_temp, max_temp, record_min_temp and record_max_temp (°F), avg_rainfall (inches) and snow_days.",
    {
      type: "object",
      properties: { weather: CLIMATE_SCHEMA },
    },
    [LOCATION_NOT_FOUND, "Historic weather data for … missing for month …"],
  ),
  requiresAuth: false,
  call(args, { world }) {
    const { place, rows } = placeRows(world, HISTORIC_WEATHER.name, arg(args, "location"));
    const month = pyLower(arg(args, "month"));
    const row = rows.find((r) => pyEquals(r.month, month));
    if (!row) throw apiException(`Historic weather data for ${place} missing for month ${month}`);
    return { weather: Object.fromEntries(CLIMATE_FIELDS.map((f) => [f, cellJson(row[f])])) };
  },
};

export const WEATHER_APIS: readonly ToolTalkApi[] = [currentWeather, forecastWeather, historicWeather];

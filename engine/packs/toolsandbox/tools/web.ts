// The five web-backed tools (upstream module `rapid_api_search_tools`), answered from offline data
// (`ctx.web`, see web-lookup.ts for how) instead of RapidAPI. Arguments, defaults, the order of
// checks, error texts and the shape of results follow upstream (reference 3.2, 3.5). There is no
// API-key check, since nothing leaves the machine, and no silent None/[] on a failed request.
import { SETTING } from "../table-schemas.js";
import { numberArg, stringArg } from "../../../tools/binding.js";
import type { BoundArguments } from "../../../tools/binding.js";
import { googleDocstring } from "../../../tools/docstring.js";
import { addSeconds, fromTimestamp, naiveFields } from "../../../tools/python-datetime.js";
import { getBooleanSetting } from "./setting.js";
import type { StateDependency, ToolContext, ToolDefinition, ToolParameter } from "../../../tools/types.js";
import { ToolError } from "../../../tools/types.js";
import { validateCurrencyCode, validateLatitude, validateLongitude } from "../../../tools/validators.js";
import {
  FORECAST_SCHEMA,
  PLACE_RESULT_SCHEMA,
  STOCK_SCHEMA,
  convertAmount,
  findStock,
  flattenForecast,
  nearestWeatherReport,
  reverseGeocode,
  searchPlaces,
} from "./web-lookup.js";
import type { LatLon } from "./web-lookup.js";

const FLOAT = "<class 'float'>";
const STR = "<class 'str'>";
const OPTIONAL_FLOAT = "typing.Optional[float]";

const WIFI_OFF = "Wifi is not enabled";
const LOCATION_OFF = "Location service is not enabled.";
const HALF_LOCATION = "Latitude and Longitude must be either both provided, or both not provided";
const CONVERSION_FAILED = "Conversion failed";

const TYPE_ERROR = "TypeError: Parameter '…' is of type '…', but expected '…'.";
const rangeErrors = (name: string, limit: string): string[] => [
  `ValueError: Parameter '${name}' is smaller than its valid range minimum of -${limit}.`,
  `ValueError: Parameter '${name}' is larger than its valid range maximum of ${limit}.`,
];
const LAT_LON_ERRORS = [...rangeErrors("latitude", "90.0"), ...rangeErrors("longitude", "180.0")];

const WIFI_NEEDED: StateDependency = { table: SETTING.name, column: "wifi", value: true, error: `ConnectionError: ${WIFI_OFF}` };
const LOCATION_NEEDED: StateDependency = {
  table: SETTING.name,
  column: "location_service",
  value: true,
  when: "only when latitude and longitude are omitted",
  error: `PermissionError: ${LOCATION_OFF}`,
};

const COMMON = { module: "rapid_api_search_tools", visibleTo: ["agent"], webBacked: true, typechecked: true, action: false } as const;

function requireWifi(ctx: ToolContext): void {
  if (!getBooleanSetting(ctx.world, "wifi")) throw new ToolError("ConnectionError", WIFI_OFF);
}

function num(args: BoundArguments, name: string): number {
  const v = numberArg(args, name);
  if (typeof v !== "number") throw new Error(`argument ${name} is missing after binding`);
  return v;
}

/** Upstream's maybe_get_current_lat_lon: both given, or neither (then the device's location). */
function latLonOrCurrent(args: BoundArguments, ctx: ToolContext): LatLon {
  validateLatitude(args.latitude, "latitude");
  validateLongitude(args.longitude, "longitude");
  const latitude = numberArg(args, "latitude") ?? null;
  const longitude = numberArg(args, "longitude") ?? null;
  if ((latitude === null) !== (longitude === null)) throw new ToolError("ValueError", HALF_LOCATION);
  if (latitude !== null && longitude !== null) return { latitude, longitude };
  if (!getBooleanSetting(ctx.world, "location_service")) throw new ToolError("PermissionError", LOCATION_OFF);
  const row = ctx.world.rows(SETTING.name)[0];
  if (typeof row?.latitude !== "number" || typeof row.longitude !== "number") throw new Error("the SETTING row has no location");
  return { latitude: row.latitude, longitude: row.longitude };
}

function optionalCoordinate(name: "latitude" | "longitude", what: string): ToolParameter {
  return {
    name,
    type: "number",
    description: `Optional. ${what} of the point to search around; the device's current ${name} when left out.`,
    required: false,
    default: null,
    nullable: true,
    annotation: OPTIONAL_FLOAT,
  };
}

// --- search_lat_lon --------------------------------------------------------------------------

const searchLatLonParams: ToolParameter[] = [
  { name: "latitude", type: "number", description: "Latitude of the point, in degrees.", required: true, annotation: FLOAT },
  { name: "longitude", type: "number", description: "Longitude of the point, in degrees.", required: true, annotation: FLOAT },
];
const searchLatLon: ToolDefinition = {
  ...COMMON,
  name: "search_lat_lon",
  domain: "Map",
  docstring: googleDocstring(
    ["Find the street address at a latitude and longitude."],
    searchLatLonParams,
    "The address as a string, or None when nothing is known at that point.",
  ),
  parameters: searchLatLonParams,
  returns: {
    description: "The address of the nearest known place within 1 km, or None.",
    schema: { type: ["string", "null"] },
  },
  stateDependencies: [WIFI_NEEDED],
  errors: [TYPE_ERROR, ...LAT_LON_ERRORS, `ConnectionError: ${WIFI_OFF}`],
  run(args, ctx) {
    validateLatitude(args.latitude, "latitude");
    validateLongitude(args.longitude, "longitude");
    requireWifi(ctx);
    return reverseGeocode(ctx.web, { latitude: num(args, "latitude"), longitude: num(args, "longitude") });
  },
};

// --- search_location_around_lat_lon ------------------------------------------------------------

const searchLocationParams: ToolParameter[] = [
  {
    name: "location",
    type: "string",
    description: "What to look for, in plain words: a business name, a kind of place (restaurant), a city or an address.",
    required: true,
    annotation: STR,
  },
  optionalCoordinate("latitude", "Latitude"),
  optionalCoordinate("longitude", "Longitude"),
];
const searchLocationAroundLatLon: ToolDefinition = {
  ...COMMON,
  name: "search_location_around_lat_lon",
  domain: "Map",
  docstring: googleDocstring(
    [
      "Search a map for places matching a query near a latitude and longitude.",
      "The query can name a business, a kind of place such as a cafe, a city or a street address.\nWithout a latitude and longitude the search centres on the device's current location.",
      "Each result may carry the name, address, phone number, website, rating, categories and the\nlatitude and longitude of the place.",
    ],
    searchLocationParams,
    "A list of dicts describing the places found, best match first; an empty list when none match.",
  ),
  parameters: searchLocationParams,
  returns: {
    description: "Up to 4 matching places, best match first, then nearest first.",
    schema: { type: "array", items: PLACE_RESULT_SCHEMA },
  },
  stateDependencies: [LOCATION_NEEDED, WIFI_NEEDED],
  errors: [
    TYPE_ERROR,
    ...LAT_LON_ERRORS,
    `ValueError: ${HALF_LOCATION}`,
    `PermissionError: ${LOCATION_OFF}`,
    `ConnectionError: ${WIFI_OFF}`,
  ],
  run(args, ctx) {
    const centre = latLonOrCurrent(args, ctx);
    requireWifi(ctx);
    return searchPlaces(ctx.web, stringArg(args, "location"), centre);
  },
};

// --- search_weather_around_lat_lon -----------------------------------------------------------

/** YYYY-MM-DD of the scenario clock's date plus `days`. */
function clockDatePlus(ctx: ToolContext, days: number): string {
  const f = naiveFields(addSeconds(fromTimestamp(ctx.clock.now, ctx.clock.timezone), days * 86400));
  const pad = (n: number, width = 2): string => String(n).padStart(width, "0");
  return `${pad(f.year, 4)}-${pad(f.month)}-${pad(f.day)}`;
}

const NUMBER = { type: "number" } as const;

const searchWeatherParams: ToolParameter[] = [
  {
    name: "days",
    type: "integer",
    description: "Optional, 0 by default. How many days ahead to look; 0 is today.",
    required: false,
    default: 0,
    annotation: "<class 'int'>",
  },
  optionalCoordinate("latitude", "Latitude"),
  optionalCoordinate("longitude", "Longitude"),
];
const searchWeatherAroundLatLon: ToolDefinition = {
  ...COMMON,
  name: "search_weather_around_lat_lon",
  domain: "Weather",
  docstring: googleDocstring(
    [
      "Get the weather near a latitude and longitude, for today or a day ahead.",
      "Without a latitude and longitude the device's current location is used. The answer includes\nthe conditions, temperatures in Celsius, humidity, wind, visibility and the place it is for.",
    ],
    searchWeatherParams,
    "A dict of weather details, or None when no forecast is available.",
  ),
  parameters: searchWeatherParams,
  returns: {
    description: "The forecast for the day (with current readings for today), flattened; or None.",
    schema: FORECAST_SCHEMA,
  },
  stateDependencies: [LOCATION_NEEDED, WIFI_NEEDED],
  errors: [
    TYPE_ERROR,
    ...LAT_LON_ERRORS,
    `ValueError: ${HALF_LOCATION}`,
    `PermissionError: ${LOCATION_OFF}`,
    "ValueError: Days must be positive integer, found days=….",
    `ConnectionError: ${WIFI_OFF}`,
  ],
  run(args, ctx) {
    const point = latLonOrCurrent(args, ctx);
    const days = num(args, "days");
    if (days < 0) throw new ToolError("ValueError", `Days must be positive integer, found days=${days}.`);
    requireWifi(ctx);
    const report = nearestWeatherReport(ctx.web, point);
    return report ? flattenForecast(report, days, (ahead) => clockDatePlus(ctx, ahead)) : null;
  },
};

// --- search_stock ----------------------------------------------------------------------------

const searchStockParams: ToolParameter[] = [
  {
    name: "query",
    type: "string",
    description: "A company name (Apple), a ticker symbol (AAPL) or an exchange (NASDAQ).",
    required: true,
    annotation: STR,
  },
];
const searchStock: ToolDefinition = {
  ...COMMON,
  name: "search_stock",
  domain: "Stock",
  docstring: googleDocstring(
    [
      "Look up a stock and its latest quote.",
      "The answer gives the company name, the ticker symbol, the exchange, the price, the change since\nthe previous close (absolute and in percent), the previous close and the trading currency.",
    ],
    searchStockParams,
    "A dict describing the best-matching stock, or None when nothing matches.",
  ),
  parameters: searchStockParams,
  returns: {
    description: "The best-matching stock, symbol without its exchange suffix; or None.",
    schema: STOCK_SCHEMA,
  },
  stateDependencies: [WIFI_NEEDED],
  errors: [TYPE_ERROR, `ConnectionError: ${WIFI_OFF}`],
  run(args, ctx) {
    requireWifi(ctx);
    return findStock(ctx.web, stringArg(args, "query"));
  },
};

// --- convert_currency ------------------------------------------------------------------------

const convertCurrencyParams: ToolParameter[] = [
  { name: "amount", type: "number", description: "How much money to convert.", required: true, annotation: "typing.Union[float, int]" },
  {
    name: "from_currency_code",
    type: "string",
    description: "ISO 4217 code of the currency the amount is in, e.g. USD.",
    required: true,
    annotation: STR,
  },
  {
    name: "to_currency_code",
    type: "string",
    description: "ISO 4217 code of the currency to convert to, e.g. EUR.",
    required: true,
    annotation: STR,
  },
];
const convertCurrency: ToolDefinition = {
  ...COMMON,
  name: "convert_currency",
  domain: "Conversion",
  docstring: googleDocstring(
    ["Convert an amount of money between two currencies named by their ISO 4217 codes."],
    convertCurrencyParams,
    "The converted amount in the target currency, as a float.",
  ),
  parameters: convertCurrencyParams,
  returns: { description: "amount * rate(to) / rate(from), from the offline exchange rates.", schema: NUMBER },
  stateDependencies: [WIFI_NEEDED],
  errors: [
    TYPE_ERROR,
    "ValueError: … is not a known 3 letter ISO 4217 currency code",
    `ConnectionError: ${WIFI_OFF}`,
    `RuntimeError: ${CONVERSION_FAILED}`,
  ],
  run(args, ctx) {
    const from = stringArg(args, "from_currency_code");
    const to = stringArg(args, "to_currency_code");
    validateCurrencyCode(from);
    validateCurrencyCode(to);
    requireWifi(ctx);
    const converted = convertAmount(ctx.web.exchange_rates, num(args, "amount"), from, to);
    // A valid code the data has no rate for fails the way a failed upstream request does.
    if (converted === undefined) throw new ToolError("RuntimeError", CONVERSION_FAILED);
    return converted;
  },
};

/** The web-backed tools, alphabetically (upstream discovery order within the module). */
export const WEB_TOOLS: readonly ToolDefinition[] = [
  convertCurrency,
  searchLatLon,
  searchLocationAroundLatLon,
  searchStock,
  searchWeatherAroundLatLon,
];

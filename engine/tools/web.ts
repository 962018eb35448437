// The five web-backed tools (upstream module `rapid_api_search_tools`), answered from offline data
// (`ctx.web`) instead of RapidAPI. Arguments, defaults, the order of checks, error texts and the
// shape of results follow upstream (reference 3.2, 3.5); there is no API-key check, since nothing
// leaves the machine. What a live service would have decided is decided here as follows:
//
// - search_lat_lon (reverse geocoding): the address of the nearest place within 1 km, else None.
// - search_location_around_lat_lon: the query is fuzzy-matched (WRatio, at least 80) against each
//   place's name, aliases, types, city and address. A place found by name or alias (score at least
//   90) is found anywhere; one found only by category, city or address must lie within 50 km of
//   the search centre, as a map search around a point would. Results are ranked by score, then by
//   distance from the centre; at most 4, shaped like upstream's maps results.
// - search_weather_around_lat_lon: the nearest report whose radius (default 50 km) covers the
//   point; day `days` of its forecast, flattened with upstream's key order and metric key names.
//   None when no report covers the point or the forecast has no such day.
// - search_stock: the first stock whose symbol, name or alias matches the query (WRatio, at least
//   80; best score first, ties in data order), else the first stock listed on an exchange of that
//   name, else None. The symbol is shown without any ":EXCHANGE" suffix, as upstream strips it.
// - convert_currency: amount * rate(to) / rate(from) with the data's rates against its base
//   currency; a valid ISO code without a rate fails like a failed upstream request.
import type { JsonObject, JsonValue } from "../json.js";
import { SETTING } from "../world/toolsandbox-tables.js";
import { numberArg, stringArg } from "./binding.js";
import type { BoundArguments } from "./binding.js";
import { googleDocstring } from "./docstring.js";
import { geodesicDistanceKm } from "./geodesy.js";
import { addSeconds, fromTimestamp, naiveFields } from "./python-datetime.js";
import { fuzzyScore } from "./search.js";
import { getBooleanSetting } from "./setting.js";
import type { StateDependency, ToolContext, ToolDefinition, ToolParameter } from "./types.js";
import { ToolError } from "./types.js";
import type { Place, WeatherReport, WebData } from "./web-data.js";
import { validateCurrencyCode, validateLatitude, validateLongitude } from "./validators.js";

const FLOAT = "<class 'float'>";
const STR = "<class 'str'>";
const OPTIONAL_FLOAT = "typing.Optional[float]";

const WIFI_OFF = "Wifi is not enabled";
const LOCATION_OFF = "Location service is not enabled.";
const HALF_LOCATION = "Latitude and Longitude must be either both provided, or both not provided";
const CONVERSION_FAILED = "Conversion failed";

const REVERSE_GEOCODE_RADIUS_KM = 1;
const PLACE_MATCH_MIN = 80;
const PLACE_NAME_MATCH_MIN = 90;
const NEARBY_RADIUS_KM = 50;
const MAX_PLACES = 4;
const DEFAULT_WEATHER_RADIUS_KM = 50;
const STOCK_MATCH_MIN = 80;

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

interface LatLon {
  readonly latitude: number;
  readonly longitude: number;
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

function distanceKm(from: LatLon, to: LatLon): number {
  return geodesicDistanceKm(from.latitude, from.longitude, to.latitude, to.longitude);
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
    const point = { latitude: num(args, "latitude"), longitude: num(args, "longitude") };
    let best: { place: Place; km: number } | undefined;
    for (const place of ctx.web.places) {
      const km = distanceKm(point, place);
      if (km <= REVERSE_GEOCODE_RADIUS_KM && (!best || km < best.km)) best = { place, km };
    }
    return best ? best.place.full_address : null;
  },
};

// --- search_location_around_lat_lon ------------------------------------------------------------

/** A place as upstream's maps search returns it, minus the fields upstream drops. */
function placeResult(place: Place): JsonObject {
  return {
    phone_number: place.phone_number ?? null,
    name: place.name,
    full_address: place.full_address,
    latitude: place.latitude,
    longitude: place.longitude,
    review_count: place.review_count ?? null,
    rating: place.rating ?? null,
    website: place.website ?? null,
    types: place.types ? [...place.types] : null,
    city: place.city ?? null,
  };
}

function placeMatch(query: string, place: Place, centre: LatLon): { score: number; km: number } | undefined {
  const byName = Math.max(...[place.name, ...(place.aliases ?? [])].map((t) => fuzzyScore(query, t)));
  const byOther = Math.max(0, ...[...(place.types ?? []), place.city ?? "", place.full_address].map((t) => fuzzyScore(query, t)));
  const score = Math.max(byName, byOther);
  if (score < PLACE_MATCH_MIN) return undefined;
  const km = distanceKm(centre, place);
  if (byName < PLACE_NAME_MATCH_MIN && km > NEARBY_RADIUS_KM) return undefined;
  return { score, km };
}

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
const PLACE_SCHEMA: JsonObject = {
  type: "object",
  properties: {
    phone_number: { type: ["string", "null"] },
    name: { type: "string" },
    full_address: { type: "string" },
    latitude: { type: "number" },
    longitude: { type: "number" },
    review_count: { type: ["integer", "null"] },
    rating: { type: ["number", "null"] },
    website: { type: ["string", "null"] },
    types: { type: ["array", "null"], items: { type: "string" } },
    city: { type: ["string", "null"] },
  },
};
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
    schema: { type: "array", items: PLACE_SCHEMA },
  },
  stateDependencies: [WIFI_NEEDED, LOCATION_NEEDED],
  errors: [TYPE_ERROR, ...LAT_LON_ERRORS, `ValueError: ${HALF_LOCATION}`, `PermissionError: ${LOCATION_OFF}`, `ConnectionError: ${WIFI_OFF}`],
  run(args, ctx) {
    const centre = latLonOrCurrent(args, ctx);
    requireWifi(ctx);
    const query = stringArg(args, "location");
    return ctx.web.places
      .flatMap((place, index) => {
        const match = placeMatch(query, place, centre);
        return match ? [{ place, index, ...match }] : [];
      })
      .sort((a, b) => b.score - a.score || a.km - b.km || a.index - b.index)
      .slice(0, MAX_PLACES)
      .map((m) => placeResult(m.place));
  },
};

// --- search_weather_around_lat_lon -----------------------------------------------------------

function nearestReport(web: WebData, point: LatLon): WeatherReport | undefined {
  let best: { report: WeatherReport; km: number } | undefined;
  for (const report of web.weather) {
    const km = distanceKm(point, report);
    if (km <= (report.radius_km ?? DEFAULT_WEATHER_RADIUS_KM) && (!best || km < best.km)) best = { report, km };
  }
  return best?.report;
}

/** YYYY-MM-DD of the scenario clock's date plus `days`. */
function clockDatePlus(ctx: ToolContext, days: number): string {
  const f = naiveFields(addSeconds(fromTimestamp(ctx.clock.now, ctx.clock.timezone), days * 86400));
  const pad = (n: number, width = 2): string => String(n).padStart(width, "0");
  return `${pad(f.year, 4)}-${pad(f.month)}-${pad(f.day)}`;
}

/**
 * Upstream's flattened forecast, keys in the order its merge-then-rename produces: the day's
 * unrenamed fields (condition, replaced by the current one for today), sunrise and sunset, the
 * location, the date (our addition), the unit labels, today's humidity, then the renamed
 * measurements in upstream's mapping order (today's current readings among them).
 */
function flattenForecast(report: WeatherReport, days: number, ctx: ToolContext): JsonObject | null {
  const day = report.days[days];
  if (!day) return null;
  const today = days === 0 ? report.current : undefined;
  const out: Record<string, JsonValue> = {
    condition: today ? today.condition : day.condition,
    sunrise: day.sunrise,
    sunset: day.sunset,
    name: report.location.name,
    region: report.location.region,
    country: report.location.country,
    lat: report.latitude,
    lon: report.longitude,
    date: day.date ?? clockDatePlus(ctx, days),
    temperature_unit: "Celsius",
    distance_unit: "Kilometer",
  };
  if (today) {
    out.humidity = today.humidity;
    out.current_temperature = today.current_temperature;
    out.perceived_temperature = today.perceived_temperature;
    out.visibility_distance = today.visibility_distance;
    out.wind_speed = today.wind_speed;
  }
  out.max_temperature = day.max_temperature;
  out.min_temperature = day.min_temperature;
  out.average_temperature = day.average_temperature;
  out.max_wind_speed = day.max_wind_speed;
  out.average_visibility_distance = day.average_visibility_distance;
  if (today) out.barometric_pressure = today.barometric_pressure;
  out.average_humidity = day.average_humidity;
  return out;
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
    schema: {
      type: ["object", "null"],
      properties: {
        condition: { type: "string" },
        sunrise: { type: "string" },
        sunset: { type: "string" },
        name: { type: "string" },
        region: { type: "string" },
        country: { type: "string" },
        lat: NUMBER,
        lon: NUMBER,
        date: { type: "string" },
        temperature_unit: { type: "string" },
        distance_unit: { type: "string" },
        humidity: { type: "integer" },
        current_temperature: NUMBER,
        perceived_temperature: NUMBER,
        visibility_distance: NUMBER,
        wind_speed: NUMBER,
        max_temperature: NUMBER,
        min_temperature: NUMBER,
        average_temperature: NUMBER,
        max_wind_speed: NUMBER,
        average_visibility_distance: NUMBER,
        barometric_pressure: NUMBER,
        average_humidity: { type: "integer" },
      },
    },
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
    const report = nearestReport(ctx.web, point);
    return report ? flattenForecast(report, days, ctx) : null;
  },
};

// --- search_stock ----------------------------------------------------------------------------

const searchStockParams: ToolParameter[] = [
  { name: "query", type: "string", description: "A company name (Apple), a ticker symbol (AAPL) or an exchange (NASDAQ).", required: true, annotation: STR },
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
    schema: {
      type: ["object", "null"],
      properties: {
        symbol: { type: "string" },
        name: { type: "string" },
        price: NUMBER,
        change: NUMBER,
        change_percent: NUMBER,
        previous_close: NUMBER,
        currency: { type: "string" },
        exchange: { type: "string" },
      },
    },
  },
  stateDependencies: [WIFI_NEEDED],
  errors: [TYPE_ERROR, `ConnectionError: ${WIFI_OFF}`],
  run(args, ctx) {
    requireWifi(ctx);
    const query = stringArg(args, "query");
    const bare = (symbol: string): string => symbol.split(":")[0] ?? symbol;
    let best: { index: number; score: number } | undefined;
    ctx.web.stocks.forEach((s, index) => {
      const score = Math.max(...[bare(s.symbol), s.name, ...(s.aliases ?? [])].map((t) => fuzzyScore(query, t)));
      if (score >= STOCK_MATCH_MIN && (!best || score > best.score)) best = { index, score };
    });
    const upperQuery = query.trim().toUpperCase();
    const found = best ? ctx.web.stocks[best.index] : ctx.web.stocks.find((s) => s.exchange.toUpperCase() === upperQuery);
    if (!found) return null;
    return {
      symbol: bare(found.symbol),
      name: found.name,
      price: found.price,
      change: found.change,
      change_percent: found.change_percent,
      previous_close: found.previous_close,
      currency: found.currency,
      exchange: found.exchange,
    };
  },
};

// --- convert_currency ------------------------------------------------------------------------

const convertCurrencyParams: ToolParameter[] = [
  { name: "amount", type: "number", description: "How much money to convert.", required: true, annotation: "typing.Union[float, int]" },
  { name: "from_currency_code", type: "string", description: "ISO 4217 code of the currency the amount is in, e.g. USD.", required: true, annotation: STR },
  { name: "to_currency_code", type: "string", description: "ISO 4217 code of the currency to convert to, e.g. EUR.", required: true, annotation: STR },
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
    const { base, rates } = ctx.web.exchange_rates;
    const rate = (code: string): number | undefined => (code === base.toUpperCase() ? (rates[code] ?? 1) : rates[code]);
    const fromRate = rate(from.toUpperCase());
    const toRate = rate(to.toUpperCase());
    if (fromRate === undefined || toRate === undefined) throw new ToolError("RuntimeError", CONVERSION_FAILED);
    return (num(args, "amount") * toRate) / fromRate;
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

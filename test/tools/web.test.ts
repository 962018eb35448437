// The five web-backed tools on the bundled offline data: results, upstream's order of checks and
// its agent-visible errors. The device starts at Apple Park with wifi and location service on.
import { test } from "node:test";
import assert from "node:assert/strict";
import type { JsonObject, JsonValue } from "../../engine/base/json.js";
import { DEFAULT_WEB_DATA } from "../../engine/tools/default-web-data.js";
import type { ToolContext } from "../../engine/tools/types.js";
import type { WebData } from "../../engine/tools/web-data.js";
import { WEB_TOOLS } from "../../engine/packs/toolsandbox/tools/web.js";
import type { CellValue } from "../../engine/world/types.js";
import { NOW, call, makeContext, worldWithSettings } from "./fixtures.js";

function ctxWith(settings: Readonly<Record<string, CellValue>> = {}, web: WebData = DEFAULT_WEB_DATA): ToolContext {
  return { ...makeContext(worldWithSettings(settings)), web };
}

const run = (name: string, args: Readonly<Record<string, JsonValue>>, ctx: ToolContext = ctxWith()) => call(WEB_TOOLS, name, args, ctx);
const text = (name: string, args: Readonly<Record<string, JsonValue>>, ctx?: ToolContext): string => run(name, args, ctx).text;

/** The result of a call that must succeed. */
function result(name: string, args: Readonly<Record<string, JsonValue>>, ctx?: ToolContext): JsonValue {
  const out = run(name, args, ctx);
  assert.ok(out.ok, out.text);
  return out.result;
}

const WIFI_OFF = "ConnectionError: Wifi is not enabled";
const LOCATION_OFF = "PermissionError: Location service is not enabled.";
const HALF = "ValueError: Latitude and Longitude must be either both provided, or both not provided";
const REMINDER_SPOT = { latitude: 37.3237926356735, longitude: -122.03961770355414 };
const PARIS = { latitude: 48.8566, longitude: 2.3522 };

// --- search_lat_lon ----------------------------------------------------------------------------

test("search_lat_lon gives the address of the nearest place within a kilometre", () => {
  assert.equal(text("search_lat_lon", { latitude: 37.334606, longitude: -122.009102 }), "'One Apple Park Way, Cupertino, CA 95014, USA'");
  assert.equal(text("search_lat_lon", REMINDER_SPOT), "'20807 Stevens Creek Blvd, Cupertino, CA 95014, USA'");
  assert.equal(text("search_lat_lon", { latitude: 0, longitude: 0 }), "None");
});

test("search_lat_lon validates latitude and longitude before checking wifi", () => {
  const offline = ctxWith({ wifi: false });
  assert.equal(text("search_lat_lon", { latitude: 37.3, longitude: -122 }, offline), WIFI_OFF);
  assert.equal(
    text("search_lat_lon", { latitude: 91, longitude: -122 }, offline),
    "ValueError: Parameter 'latitude' is larger than its valid range maximum of 90.0.",
  );
  assert.equal(
    text("search_lat_lon", { latitude: 37, longitude: -190 }),
    "ValueError: Parameter 'longitude' is smaller than its valid range minimum of -180.0.",
  );
  assert.equal(text("search_lat_lon", { latitude: 37 }), "TypeError: missing a required argument: 'longitude'");
});

// --- search_location_around_lat_lon --------------------------------------------------------------

const names = (out: ReturnType<typeof run>): string[] => {
  assert.ok(out.ok, out.text);
  return (out.result as JsonObject[]).map((r) => String(r.name));
};

test("search_location_around_lat_lon finds places by name around the current location", () => {
  const out = run("search_location_around_lat_lon", { location: "Apple Park" });
  assert.deepEqual(names(out), ["Apple Park", "Apple Park Visitor Center"]);
  const first = (result("search_location_around_lat_lon", { location: "Apple Park" }) as JsonObject[])[0]!;
  // Shaped like upstream's maps result, without the fields upstream drops.
  assert.deepEqual(Object.keys(first), [
    "phone_number",
    "name",
    "full_address",
    "latitude",
    "longitude",
    "review_count",
    "rating",
    "website",
    "types",
    "city",
  ]);
  assert.equal(first.phone_number, "+14089961010");
  assert.match(
    out.text,
    /^\[\{'phone_number': '\+14089961010', 'name': 'Apple Park', 'full_address': 'One Apple Park Way, Cupertino, CA 95014, USA', 'latitude': 37\.334606, 'longitude': -122\.009102, 'review_count': 3112, 'rating': 4\.4,/,
  );
});

test("search_location_around_lat_lon matches kinds of place and ranks equal matches by distance", () => {
  assert.deepEqual(names(run("search_location_around_lat_lon", { location: "coffee" })), ["Bitter Bean Coffee Roasters"]);
  assert.deepEqual(names(run("search_location_around_lat_lon", { location: "airport" })), [
    "San Jose Mineta International Airport",
    "San Francisco International Airport",
  ]);
  assert.deepEqual(names(run("search_location_around_lat_lon", { location: "airport", latitude: 37.7749, longitude: -122.4194 })), [
    "San Francisco International Airport",
    "San Jose Mineta International Airport",
  ]);
  assert.deepEqual(names(run("search_location_around_lat_lon", { location: "SFO" })), ["San Francisco International Airport"]);
});

test("search_location_around_lat_lon returns at most 4 results", () => {
  const found = names(run("search_location_around_lat_lon", { location: "Cupertino" }));
  assert.equal(found.length, 4);
  assert.equal(found[0], "Apple Park");
});

test("search_location_around_lat_lon finds named places anywhere, kinds of place only nearby", () => {
  assert.deepEqual(names(run("search_location_around_lat_lon", { location: "Eiffel Tower" })), ["Eiffel Tower"]);
  assert.deepEqual(names(run("search_location_around_lat_lon", { location: "restaurant", ...PARIS })), []);
  assert.equal(text("search_location_around_lat_lon", { location: "Starbucks" }), "[]");
});

test("search_location_around_lat_lon: lat/lon pairing, then location service, then wifi", () => {
  const allOff = ctxWith({ wifi: false, location_service: false });
  assert.equal(text("search_location_around_lat_lon", { location: "cafe", latitude: 37.3 }, allOff), HALF);
  assert.equal(text("search_location_around_lat_lon", { location: "cafe", longitude: -122 }, allOff), HALF);
  assert.equal(text("search_location_around_lat_lon", { location: "cafe" }, allOff), LOCATION_OFF);
  // With both coordinates given, the location service is not needed.
  assert.equal(text("search_location_around_lat_lon", { location: "cafe", latitude: 37.3, longitude: -122 }, allOff), WIFI_OFF);
  assert.equal(
    run("search_location_around_lat_lon", { location: "cafe", latitude: 37.3, longitude: -122 }, ctxWith({ location_service: false })).ok,
    true,
  );
  assert.equal(
    text("search_location_around_lat_lon", { location: "cafe", latitude: -100, longitude: 5 }),
    "ValueError: Parameter 'latitude' is smaller than its valid range minimum of -90.0.",
  );
  assert.equal(
    text("search_location_around_lat_lon", { location: "cafe", latitude: "37", longitude: -122 }),
    "TypeError: Parameter 'latitude' is of type '<class 'str'>', but expected 'typing.Optional[float]'.",
  );
});

// --- search_weather_around_lat_lon --------------------------------------------------------------

test("search_weather_around_lat_lon today: flattened forecast with current readings, upstream's key order", () => {
  const out = run("search_weather_around_lat_lon", {});
  assert.ok(out.ok, out.text);
  const today = out.result as JsonObject;
  assert.deepEqual(Object.keys(today), [
    "condition",
    "sunrise",
    "sunset",
    "name",
    "region",
    "country",
    "lat",
    "lon",
    "date",
    "temperature_unit",
    "distance_unit",
    "humidity",
    "current_temperature",
    "perceived_temperature",
    "visibility_distance",
    "wind_speed",
    "max_temperature",
    "min_temperature",
    "average_temperature",
    "max_wind_speed",
    "average_visibility_distance",
    "barometric_pressure",
    "average_humidity",
  ]);
  assert.equal(today.name, "Cupertino");
  assert.equal(today.date, "2025-11-21");
  assert.equal(today.temperature_unit, "Celsius");
  assert.equal(today.distance_unit, "Kilometer");
  assert.match(
    out.text,
    /'current_temperature': 18\.3, .*'visibility_distance': 16\.0, .*'barometric_pressure': 1017\.0, 'average_humidity': 61\}$/,
  );
});

test("search_weather_around_lat_lon for a later day has no current readings; beyond the data it is None", () => {
  const out = run("search_weather_around_lat_lon", { days: 2, ...PARIS });
  assert.ok(out.ok, out.text);
  const day = out.result as JsonObject;
  assert.equal(day.name, "Paris");
  assert.equal(day.date, "2025-11-23");
  for (const key of [
    "humidity",
    "current_temperature",
    "perceived_temperature",
    "wind_speed",
    "visibility_distance",
    "barometric_pressure",
  ]) {
    assert.equal(key in day, false, key);
  }
  assert.equal(text("search_weather_around_lat_lon", { days: 7 }), "None");
  assert.equal(text("search_weather_around_lat_lon", { latitude: 0, longitude: 0 }), "None");
});

test("search_weather_around_lat_lon answers from the nearest report covering the point", () => {
  const sfo = result("search_weather_around_lat_lon", { latitude: 37.62131, longitude: -122.37896 });
  assert.equal((sfo as JsonObject).name, "San Francisco");
  const stanford = result("search_weather_around_lat_lon", { latitude: 37.42748, longitude: -122.16971 });
  assert.equal((stanford as JsonObject).name, "Cupertino");
});

test("search_weather_around_lat_lon shows a written date as is, and computes missing ones from the clock", () => {
  const base = DEFAULT_WEB_DATA.weather[0]!;
  const dated: WebData = { ...DEFAULT_WEB_DATA, weather: [{ ...base, days: [{ ...base.days[0]!, date: "2030-01-01" }, base.days[1]!] }] };
  assert.equal((result("search_weather_around_lat_lon", {}, ctxWith({}, dated)) as JsonObject).date, "2030-01-01");
  assert.equal((result("search_weather_around_lat_lon", { days: 1 }, ctxWith({}, dated)) as JsonObject).date, "2025-11-22");
  // "Today" is the scenario clock's date in the scenario timezone (already Nov 21 in Tokyo too).
  const tokyo = { ...ctxWith(), clock: { now: NOW - 3 * 3600, timezone: "Asia/Tokyo" } };
  assert.equal((result("search_weather_around_lat_lon", {}, tokyo) as JsonObject).date, "2025-11-21");
  const la = { ...ctxWith(), clock: { now: NOW - 3 * 3600, timezone: "America/Los_Angeles" } };
  assert.equal((result("search_weather_around_lat_lon", {}, la) as JsonObject).date, "2025-11-20");
});

test("search_weather_around_lat_lon checks lat/lon, location, days, then wifi", () => {
  const allOff = ctxWith({ wifi: false, location_service: false });
  assert.equal(
    text("search_weather_around_lat_lon", { latitude: 95, longitude: 0 }, allOff),
    "ValueError: Parameter 'latitude' is larger than its valid range maximum of 90.0.",
  );
  assert.equal(text("search_weather_around_lat_lon", { longitude: 0 }, allOff), HALF);
  assert.equal(text("search_weather_around_lat_lon", { days: -1 }, allOff), LOCATION_OFF);
  assert.equal(
    text("search_weather_around_lat_lon", { days: -1, ...PARIS }, allOff),
    "ValueError: Days must be positive integer, found days=-1.",
  );
  assert.equal(text("search_weather_around_lat_lon", { days: 1, ...PARIS }, allOff), WIFI_OFF);
  assert.equal(
    text("search_weather_around_lat_lon", { days: 1.5 }),
    "TypeError: Parameter 'days' is of type '<class 'float'>', but expected '<class 'int'>'.",
  );
});

// --- search_stock ------------------------------------------------------------------------------

test("search_stock finds a stock by company name, alias or symbol", () => {
  assert.equal(
    text("search_stock", { query: "Apple" }),
    "{'symbol': 'AAPL', 'name': 'Apple Inc', 'price': 227.48, 'change': 2.36, 'change_percent': 1.0483, 'previous_close': 225.12, 'currency': 'USD', 'exchange': 'NASDAQ'}",
  );
  const symbol = (query: string) => (result("search_stock", { query }) as JsonObject | null)?.symbol ?? null;
  assert.equal(symbol("AAPL"), "AAPL");
  assert.equal(symbol("Google"), "GOOGL");
  assert.equal(symbol("facebook"), "META");
  assert.equal(symbol("Microsoft"), "MSFT");
  // An exchange name gives the first stock listed there.
  assert.equal(symbol("NYSE"), "IBM");
  assert.equal(text("search_stock", { query: "xyzzy" }), "None");
});

test("search_stock strips an exchange suffix from the symbol", () => {
  const web: WebData = {
    ...DEFAULT_WEB_DATA,
    stocks: [
      {
        symbol: "SHOP:TSX",
        exchange: "TSX",
        name: "Shopify Inc",
        price: 150,
        change: 1,
        change_percent: 0.67,
        previous_close: 149,
        currency: "CAD",
      },
    ],
  };
  const out = run("search_stock", { query: "Shopify" }, ctxWith({}, web));
  assert.equal((result("search_stock", { query: "Shopify" }, ctxWith({}, web)) as JsonObject).symbol, "SHOP");
  assert.equal(text("search_stock", { query: "SHOP" }, ctxWith({}, web)), out.text);
});

test("search_stock needs wifi", () => {
  assert.equal(text("search_stock", { query: "Apple" }, ctxWith({ wifi: false })), WIFI_OFF);
  assert.equal(
    text("search_stock", { query: 5 }),
    "TypeError: Parameter 'query' is of type '<class 'int'>', but expected '<class 'str'>'.",
  );
});

// --- convert_currency --------------------------------------------------------------------------

test("convert_currency converts through the base currency's rates", () => {
  assert.equal(text("convert_currency", { amount: 100, from_currency_code: "USD", to_currency_code: "EUR" }), "92.0");
  assert.equal(result("convert_currency", { amount: 92, from_currency_code: "eur", to_currency_code: "usd" }), 100);
  assert.equal(result("convert_currency", { amount: 10, from_currency_code: "EUR", to_currency_code: "JPY" }), (10 * 151.6) / 0.92);
});

test("convert_currency errors: unknown ISO code, then wifi, then a missing rate", () => {
  const offline = ctxWith({ wifi: false });
  assert.equal(
    text("convert_currency", { amount: 1, from_currency_code: "USD", to_currency_code: "ABC" }, offline),
    "ValueError: ABC is not a known 3 letter ISO 4217 currency code",
  );
  assert.equal(text("convert_currency", { amount: 1, from_currency_code: "USD", to_currency_code: "EUR" }, offline), WIFI_OFF);
  // ISK is a real currency the offline data has no rate for.
  assert.equal(
    text("convert_currency", { amount: 1, from_currency_code: "ISK", to_currency_code: "EUR" }),
    "RuntimeError: Conversion failed",
  );
  assert.equal(
    text("convert_currency", { amount: "1", from_currency_code: "USD", to_currency_code: "EUR" }),
    "TypeError: Parameter 'amount' is of type '<class 'str'>', but expected 'typing.Union[float, int]'.",
  );
});

// --- the bundled data --------------------------------------------------------------------------

test("the bundled web data has the places, weather, stocks and rates scenarios rely on", () => {
  const { places, weather, stocks, exchange_rates } = DEFAULT_WEB_DATA;
  assert.ok(places.length >= 12);
  const applePark = places.find((p) => p.name === "Apple Park");
  assert.deepEqual(
    [applePark?.latitude, applePark?.longitude, applePark?.phone_number, applePark?.full_address],
    [37.334606, -122.009102, "+14089961010", "One Apple Park Way, Cupertino, CA 95014, USA"],
  );
  for (const name of ["Golden Gate Bridge", "San Francisco International Airport", "Eiffel Tower"])
    assert.ok(
      places.some((p) => p.name === name),
      name,
    );
  assert.ok(weather.every((w) => w.days.length === 7));
  assert.ok(stocks.length >= 10);
  assert.ok(Object.keys(exchange_rates.rates).length >= 20);
});

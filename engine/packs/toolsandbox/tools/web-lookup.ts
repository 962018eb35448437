// Answers from the offline web data, standing in for the live services upstream called through
// RapidAPI. These are the decisions a live service would have made, made here as follows:
//
// - Reverse geocoding: the address of the nearest place within 1 km, else nothing.
// - Map search: the query is fuzzy-matched (WRatio, at least 80) against each place's name,
//   aliases, types, city and address. A place found by name or alias (score at least 90) is found
//   anywhere; one found only by category, city or address must lie within 50 km of the search
//   centre, as a map search around a point would. Ranked by score, then by distance from the
//   centre (then data order); at most 4, shaped like upstream's maps results.
// - Weather: the nearest report whose radius (default 50 km) covers the point; day `days` of its
//   forecast, flattened with upstream's key order and metric key names. Nothing when no report
//   covers the point or the forecast has no such day.
// - Stocks: the stock whose symbol, name or alias matches the query best (WRatio, at least 80;
//   ties in data order), else the first stock listed on an exchange of that name. The symbol is
//   shown without any ":EXCHANGE" suffix, as upstream strips it.
// - Currencies: amount * rate(to) / rate(from) with the rates against the data's base currency.
//
// All pure functions of the data and their inputs.
import type { JsonObject, JsonValue } from "../../../base/json.js";
import { geodesicDistanceKm } from "./geodesy.js";
import { fuzzyScore } from "./search.js";
import type { ExchangeRates, Place, WeatherReport, WebData } from "../../../tools/web-data.js";

const REVERSE_GEOCODE_RADIUS_KM = 1;
const PLACE_MATCH_MIN = 80;
const PLACE_NAME_MATCH_MIN = 90;
const NEARBY_RADIUS_KM = 50;
const MAX_PLACES = 4;
const DEFAULT_WEATHER_RADIUS_KM = 50;
const STOCK_MATCH_MIN = 80;

export interface LatLon {
  readonly latitude: number;
  readonly longitude: number;
}

function distanceKm(from: LatLon, to: LatLon): number {
  return geodesicDistanceKm(from.latitude, from.longitude, to.latitude, to.longitude);
}

/**
 * Kilometres per degree of latitude at the least (WGS-84's meridian at the equator has 110.574),
 * rounded down. No path between two points is shorter than the meridian arc between their
 * latitudes, so a point further in latitude than radius / this lies outside the radius, and its
 * geodesic (the dearest step of a reverse geocode over every place) need not be computed.
 */
const MIN_KM_PER_DEGREE_LATITUDE = 110;

/** The nearest of `items` within `radiusOf(item)` km of `point`. */
function nearestWithin<T extends LatLon>(items: readonly T[], point: LatLon, radiusOf: (item: T) => number): T | undefined {
  let best: { item: T; km: number } | undefined;
  for (const item of items) {
    if (Math.abs(item.latitude - point.latitude) * MIN_KM_PER_DEGREE_LATITUDE > radiusOf(item)) continue;
    const km = distanceKm(point, item);
    if (km <= radiusOf(item) && (!best || km < best.km)) best = { item, km };
  }
  return best?.item;
}

// --- places ----------------------------------------------------------------------------------

export function reverseGeocode(web: WebData, point: LatLon): string | null {
  return nearestWithin(web.places, point, () => REVERSE_GEOCODE_RADIUS_KM)?.full_address ?? null;
}

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

export const PLACE_RESULT_SCHEMA: JsonObject = {
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

function placeMatch(query: string, place: Place, centre: LatLon): { score: number; km: number } | undefined {
  const byName = Math.max(...[place.name, ...(place.aliases ?? [])].map((t) => fuzzyScore(query, t)));
  const byOther = Math.max(0, ...[...(place.types ?? []), place.city ?? "", place.full_address].map((t) => fuzzyScore(query, t)));
  const score = Math.max(byName, byOther);
  if (score < PLACE_MATCH_MIN) return undefined;
  const km = distanceKm(centre, place);
  if (byName < PLACE_NAME_MATCH_MIN && km > NEARBY_RADIUS_KM) return undefined;
  return { score, km };
}

export function searchPlaces(web: WebData, query: string, centre: LatLon): JsonObject[] {
  return web.places
    .flatMap((place, index) => {
      const match = placeMatch(query, place, centre);
      return match ? [{ place, index, ...match }] : [];
    })
    .sort((a, b) => b.score - a.score || a.km - b.km || a.index - b.index)
    .slice(0, MAX_PLACES)
    .map((m) => placeResult(m.place));
}

// --- weather ---------------------------------------------------------------------------------

export function nearestWeatherReport(web: WebData, point: LatLon): WeatherReport | undefined {
  return nearestWithin(web.weather, point, (r) => r.radius_km ?? DEFAULT_WEATHER_RADIUS_KM);
}

const NUMBER = { type: "number" } as const;
const INTEGER = { type: "integer" } as const;
const STRING = { type: "string" } as const;

export const FORECAST_SCHEMA: JsonObject = {
  type: ["object", "null"],
  properties: {
    condition: STRING,
    sunrise: STRING,
    sunset: STRING,
    name: STRING,
    region: STRING,
    country: STRING,
    lat: NUMBER,
    lon: NUMBER,
    date: STRING,
    temperature_unit: STRING,
    distance_unit: STRING,
    humidity: INTEGER,
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
    average_humidity: INTEGER,
  },
};

/**
 * Day `days` of a report as upstream flattens it, keys in the order its merge-then-rename yields:
 * the day's unrenamed fields (condition, replaced by the current one for today), sunrise and
 * sunset, the location, the date (our addition: the day's written date, else `dateOf(days)`), the
 * unit labels, today's humidity, then the renamed measurements in upstream's mapping order with
 * today's current readings among them. null when the forecast has no such day.
 */
export function flattenForecast(report: WeatherReport, days: number, dateOf: (days: number) => string): JsonObject | null {
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
    date: day.date ?? dateOf(days),
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

// --- stocks ----------------------------------------------------------------------------------

export const STOCK_SCHEMA: JsonObject = {
  type: ["object", "null"],
  properties: {
    symbol: STRING,
    name: STRING,
    price: NUMBER,
    change: NUMBER,
    change_percent: NUMBER,
    previous_close: NUMBER,
    currency: STRING,
    exchange: STRING,
  },
};

const bareSymbol = (symbol: string): string => symbol.split(":")[0] ?? symbol;

export function findStock(web: WebData, query: string): JsonObject | null {
  let best: { index: number; score: number } | undefined;
  web.stocks.forEach((s, index) => {
    const score = Math.max(...[bareSymbol(s.symbol), s.name, ...(s.aliases ?? [])].map((t) => fuzzyScore(query, t)));
    if (score >= STOCK_MATCH_MIN && (!best || score > best.score)) best = { index, score };
  });
  const exchange = query.trim().toUpperCase();
  const found = best ? web.stocks[best.index] : web.stocks.find((s) => s.exchange.toUpperCase() === exchange);
  if (!found) return null;
  return {
    symbol: bareSymbol(found.symbol),
    name: found.name,
    price: found.price,
    change: found.change,
    change_percent: found.change_percent,
    previous_close: found.previous_close,
    currency: found.currency,
    exchange: found.exchange,
  };
}

// --- currencies ------------------------------------------------------------------------------

/** `amount` in currency `to`, or undefined when either code has no rate (codes upper-cased). */
export function convertAmount(rates: ExchangeRates, amount: number, from: string, to: string): number | undefined {
  const rate = (code: string): number | undefined => rates.rates[code] ?? (code === rates.base.toUpperCase() ? 1 : undefined);
  const fromRate = rate(from.toUpperCase());
  const toRate = rate(to.toUpperCase());
  if (fromRate === undefined || toRate === undefined) return undefined;
  return (amount * toRate) / fromRate;
}

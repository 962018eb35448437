// The `web:` section over the bundled offline data. Called only on a scenario that passed the
// schema, which has already checked every entry's shape; hence the casts from the raw value.
import { DEFAULT_WEB_DATA } from "../tools/default-web-data.js";
import type { ExchangeRates, Place, Stock, WeatherReport, WebData } from "../tools/web-data.js";
import { obj } from "./raw.js";

/**
 * `replace` swaps the bundled entries for the scenario's; `add` puts the scenario's entries
 * before the bundled ones, so a scenario's own place, report or stock is found first.
 */
function merge<T>(defaults: readonly T[], raw: unknown): readonly T[] {
  const changes = obj(raw);
  if (!changes) return defaults;
  const base = Array.isArray(changes.replace) ? (changes.replace as T[]) : defaults;
  const added = Array.isArray(changes.add) ? (changes.add as T[]) : [];
  return [...added, ...base];
}

/** Rates in the default base merge over the defaults; a different base replaces them. */
function mergeRates(defaults: ExchangeRates, raw: unknown): ExchangeRates {
  const changes = obj(raw);
  if (!changes) return defaults;
  const base = typeof changes.base === "string" ? changes.base : defaults.base;
  const rates = (obj(changes.rates) ?? {}) as Readonly<Record<string, number>>;
  return base === defaults.base ? { base, rates: { ...defaults.rates, ...rates } } : { base, rates: { ...rates } };
}

export function resolveWeb(raw: unknown): WebData {
  const web = obj(raw);
  return {
    places: merge<Place>(DEFAULT_WEB_DATA.places, web?.places),
    weather: merge<WeatherReport>(DEFAULT_WEB_DATA.weather, web?.weather),
    stocks: merge<Stock>(DEFAULT_WEB_DATA.stocks, web?.stocks),
    exchange_rates: mergeRates(DEFAULT_WEB_DATA.exchange_rates, web?.exchange_rates),
  };
}

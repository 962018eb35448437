// Upstream's named tool-trace extractors (reference 5.6) expressed as extraction rules, so a
// scenario can name one (`extractor: days`) or write equivalent rules itself (`extract:`).
import type { ExtractionRule } from "./model.js";

const rule = (path: string, as: string, normalize: ExtractionRule["normalize"]): ExtractionRule => ({ path, as, normalize });

export const EXTRACTORS: Readonly<Record<string, readonly ExtractionRule[]>> = {
  search_weather_around_lat_lon_temperature: [rule("result.current_temperature", "temperature", "float_formats")],
  result_to_timestamp0: [rule("result", "timestamp_0", "raw")],
  result_to_timestamp1: [rule("result", "timestamp_1", "raw")],
  days: [rule("result.days", "days", "int")],
  lat_lon_dict: [rule("result.latitude", "latitude", "raw"), rule("result.longitude", "longitude", "raw")],
  current_temperature: [rule("result.current_temperature", "amount", "raw")],
  result_to_temperature: [rule("result", "temperature", "float_formats")],
  result_to_reminder_timestamp_lowerbound: [rule("result", "reminder_timestamp_lowerbound", "raw")],
  min_temperature_amount: [rule("result.min_temperature", "amount", "raw")],
  min_temperature: [rule("result", "min_temperature", "float_formats")],
};

export const EXTRACTOR_NAMES: readonly string[] = Object.keys(EXTRACTORS);

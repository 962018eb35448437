// The offline data behind the five web-backed tools (upstream: live RapidAPI calls). A bundled
// default set is extended or overridden per scenario, so runs are reproducible without keys.

export interface Place {
  readonly name: string;
  readonly full_address: string;
  readonly latitude: number;
  readonly longitude: number;
  readonly phone_number?: string | null;
  readonly city?: string;
  readonly rating?: number;
  readonly review_count?: number;
  readonly website?: string | null;
  readonly types?: readonly string[];
  /** Other names a search should find it by (e.g. "Golden Gate"). */
  readonly aliases?: readonly string[];
}

export interface WeatherConditions {
  readonly current_temperature: number;
  readonly perceived_temperature: number;
  readonly humidity: number;
  readonly wind_speed: number;
  readonly visibility_distance: number;
  readonly barometric_pressure: number;
  readonly condition: string;
}

export interface WeatherDay {
  /**
   * Calendar date, YYYY-MM-DD, shown as written. Optional: without it the date shown is the
   * scenario clock's date plus the day's index (the bundled defaults rely on that).
   */
  readonly date?: string;
  readonly max_temperature: number;
  readonly min_temperature: number;
  readonly average_temperature: number;
  readonly max_wind_speed: number;
  readonly average_visibility_distance: number;
  readonly average_humidity: number;
  readonly condition: string;
  readonly sunrise: string;
  readonly sunset: string;
}

export interface WeatherReport {
  /** Where the report applies; a query is answered by the nearest report within `radius_km`. */
  readonly latitude: number;
  readonly longitude: number;
  readonly radius_km?: number;
  readonly location: { readonly name: string; readonly region: string; readonly country: string };
  readonly current: WeatherConditions;
  /** days[0] is today (the scenario clock's date), days[1] tomorrow, ... */
  readonly days: readonly WeatherDay[];
}

export interface Stock {
  readonly symbol: string;
  readonly exchange: string;
  readonly name: string;
  readonly price: number;
  readonly change: number;
  readonly change_percent: number;
  readonly previous_close: number;
  readonly currency: string;
  readonly aliases?: readonly string[];
}

export interface ExchangeRates {
  /** Rates are units of each currency per one unit of `base`. */
  readonly base: string;
  readonly rates: Readonly<Record<string, number>>;
}

export interface WebData {
  readonly places: readonly Place[];
  readonly weather: readonly WeatherReport[];
  readonly stocks: readonly Stock[];
  readonly exchange_rates: ExchangeRates;
}

// The bundled weather reports behind search_weather_around_lat_lon (see default-web-data.ts for
// what the bundled data is and is not). ALL VALUES ARE ILLUSTRATIVE AND FIXED. Days are
// positional: days[0] is "today" on the scenario clock, so the dates follow the scenario's date.
import type { WeatherConditions, WeatherDay, WeatherReport } from "./web-data.js";

/** One forecast day: [max, min, average temperature °C, max wind km/h, visibility km, humidity %, condition, sunrise, sunset]. */
type DayRow = readonly [number, number, number, number, number, number, string, string, string];

function days(rows: readonly DayRow[]): WeatherDay[] {
  return rows.map(([max, min, avg, wind, visibility, humidity, condition, sunrise, sunset]) => ({
    max_temperature: max,
    min_temperature: min,
    average_temperature: avg,
    max_wind_speed: wind,
    average_visibility_distance: visibility,
    average_humidity: humidity,
    condition,
    sunrise,
    sunset,
  }));
}

function report(
  latitude: number,
  longitude: number,
  location: WeatherReport["location"],
  current: WeatherConditions,
  rows: readonly DayRow[],
): WeatherReport {
  return { latitude, longitude, radius_km: 50, location, current, days: days(rows) };
}

export const DEFAULT_WEATHER: readonly WeatherReport[] = [
  report(
    37.323,
    -122.0322,
    { name: "Cupertino", region: "California", country: "United States of America" },
    {
      current_temperature: 18.3,
      perceived_temperature: 18.3,
      humidity: 58,
      wind_speed: 9.4,
      visibility_distance: 16.0,
      barometric_pressure: 1017.0,
      condition: "Sunny",
    },
    [
      [21.4, 9.8, 15.2, 14.8, 10.0, 61, "Sunny", "06:58 AM", "04:54 PM"],
      [19.9, 10.6, 14.7, 18.4, 10.0, 66, "Partly cloudy", "06:59 AM", "04:54 PM"],
      [16.2, 11.1, 13.4, 24.1, 8.7, 82, "Patchy rain possible", "07:00 AM", "04:53 PM"],
      [14.8, 9.3, 12.1, 27.7, 7.9, 88, "Moderate rain", "07:01 AM", "04:53 PM"],
      [17.5, 8.2, 12.6, 16.6, 9.6, 71, "Partly cloudy", "07:02 AM", "04:52 PM"],
      [20.3, 7.9, 13.8, 11.2, 10.0, 59, "Sunny", "07:03 AM", "04:52 PM"],
      [22.1, 9.0, 15.0, 10.1, 10.0, 55, "Sunny", "07:04 AM", "04:51 PM"],
    ],
  ),
  report(
    37.7749,
    -122.4194,
    { name: "San Francisco", region: "California", country: "United States of America" },
    {
      current_temperature: 15.6,
      perceived_temperature: 14.9,
      humidity: 72,
      wind_speed: 19.1,
      visibility_distance: 14.0,
      barometric_pressure: 1016.0,
      condition: "Partly cloudy",
    },
    [
      [17.2, 10.4, 13.6, 25.9, 9.8, 74, "Partly cloudy", "07:00 AM", "04:55 PM"],
      [16.1, 11.0, 13.2, 28.4, 9.1, 78, "Overcast", "07:01 AM", "04:55 PM"],
      [14.3, 10.9, 12.5, 33.5, 7.4, 86, "Light rain", "07:02 AM", "04:54 PM"],
      [13.6, 9.7, 11.6, 36.0, 6.8, 90, "Moderate rain", "07:03 AM", "04:54 PM"],
      [15.4, 9.1, 12.0, 24.5, 9.3, 77, "Cloudy", "07:04 AM", "04:53 PM"],
      [17.0, 8.8, 12.8, 18.7, 10.0, 69, "Sunny", "07:05 AM", "04:53 PM"],
      [18.2, 9.6, 13.7, 16.2, 10.0, 66, "Sunny", "07:06 AM", "04:52 PM"],
    ],
  ),
  report(
    40.7128,
    -74.006,
    { name: "New York", region: "New York", country: "United States of America" },
    {
      current_temperature: 7.8,
      perceived_temperature: 5.1,
      humidity: 63,
      wind_speed: 20.2,
      visibility_distance: 16.0,
      barometric_pressure: 1021.0,
      condition: "Overcast",
    },
    [
      [9.4, 3.2, 6.1, 26.3, 10.0, 64, "Overcast", "06:50 AM", "04:32 PM"],
      [8.1, 2.6, 5.3, 30.6, 9.2, 70, "Light drizzle", "06:51 AM", "04:31 PM"],
      [6.7, 0.9, 3.9, 34.2, 9.8, 58, "Partly cloudy", "06:52 AM", "04:31 PM"],
      [5.2, -1.4, 2.0, 22.3, 10.0, 55, "Sunny", "06:53 AM", "04:30 PM"],
      [6.9, -0.3, 3.1, 18.0, 10.0, 60, "Sunny", "06:54 AM", "04:30 PM"],
      [8.8, 2.1, 5.2, 21.6, 8.1, 76, "Light rain", "06:55 AM", "04:30 PM"],
      [7.5, 1.8, 4.6, 28.8, 9.0, 68, "Cloudy", "06:56 AM", "04:29 PM"],
    ],
  ),
  report(
    48.8566,
    2.3522,
    { name: "Paris", region: "Ile-de-France", country: "France" },
    {
      current_temperature: 8.9,
      perceived_temperature: 6.7,
      humidity: 81,
      wind_speed: 15.5,
      visibility_distance: 10.0,
      barometric_pressure: 1012.0,
      condition: "Light rain",
    },
    [
      [10.2, 5.6, 7.9, 22.0, 8.4, 83, "Light rain", "08:12 AM", "05:02 PM"],
      [9.6, 4.8, 7.1, 25.2, 9.0, 79, "Overcast", "08:14 AM", "05:01 PM"],
      [8.3, 3.1, 5.8, 19.4, 10.0, 74, "Partly cloudy", "08:15 AM", "05:00 PM"],
      [7.4, 1.9, 4.5, 14.0, 9.6, 80, "Fog", "08:17 AM", "04:59 PM"],
      [9.1, 2.7, 5.9, 17.3, 10.0, 72, "Partly cloudy", "08:18 AM", "04:58 PM"],
      [11.0, 5.2, 8.0, 27.4, 8.2, 85, "Moderate rain", "08:19 AM", "04:58 PM"],
      [10.5, 6.0, 8.1, 30.2, 8.8, 82, "Light rain", "08:21 AM", "04:57 PM"],
    ],
  ),
  report(
    51.5072,
    -0.1276,
    { name: "London", region: "City of London, Greater London", country: "United Kingdom" },
    {
      current_temperature: 7.2,
      perceived_temperature: 4.4,
      humidity: 84,
      wind_speed: 18.4,
      visibility_distance: 10.0,
      barometric_pressure: 1009.0,
      condition: "Overcast",
    },
    [
      [9.0, 4.1, 6.5, 24.8, 9.1, 85, "Overcast", "07:28 AM", "04:03 PM"],
      [8.4, 3.3, 5.9, 29.5, 8.0, 88, "Light rain", "07:30 AM", "04:02 PM"],
      [7.1, 2.0, 4.6, 21.2, 9.7, 81, "Partly cloudy", "07:31 AM", "04:01 PM"],
      [6.5, 0.8, 3.7, 16.9, 6.5, 90, "Mist", "07:33 AM", "04:00 PM"],
      [8.2, 2.4, 5.2, 23.0, 9.4, 83, "Cloudy", "07:34 AM", "03:59 PM"],
      [9.7, 5.0, 7.3, 33.1, 7.9, 89, "Moderate rain", "07:36 AM", "03:58 PM"],
      [9.3, 4.6, 6.9, 27.0, 8.6, 86, "Light rain", "07:37 AM", "03:58 PM"],
    ],
  ),
  report(
    35.6762,
    139.6503,
    { name: "Tokyo", region: "Tokyo", country: "Japan" },
    {
      current_temperature: 14.1,
      perceived_temperature: 13.4,
      humidity: 55,
      wind_speed: 11.9,
      visibility_distance: 10.0,
      barometric_pressure: 1019.0,
      condition: "Clear",
    },
    [
      [16.8, 8.9, 12.7, 15.1, 10.0, 56, "Sunny", "06:19 AM", "04:30 PM"],
      [15.9, 9.6, 12.6, 18.0, 10.0, 60, "Partly cloudy", "06:20 AM", "04:30 PM"],
      [13.4, 10.2, 11.8, 22.7, 8.5, 79, "Light rain", "06:21 AM", "04:29 PM"],
      [14.7, 8.1, 11.3, 20.2, 10.0, 63, "Partly cloudy", "06:22 AM", "04:29 PM"],
      [17.3, 7.7, 12.4, 12.6, 10.0, 52, "Sunny", "06:23 AM", "04:29 PM"],
      [18.0, 9.4, 13.5, 11.5, 10.0, 50, "Sunny", "06:24 AM", "04:28 PM"],
      [15.2, 10.8, 12.9, 19.8, 9.0, 71, "Overcast", "06:25 AM", "04:28 PM"],
    ],
  ),
  report(
    36.05443,
    -112.13934,
    { name: "Grand Canyon Village", region: "Arizona", country: "United States of America" },
    {
      current_temperature: 2.4,
      perceived_temperature: -0.8,
      humidity: 47,
      wind_speed: 12.6,
      visibility_distance: 16.0,
      barometric_pressure: 1022.0,
      condition: "Sunny",
    },
    [
      [7.9, -6.3, 0.6, 18.0, 10.0, 45, "Sunny", "07:38 AM", "05:25 PM"],
      [6.2, -7.5, -0.4, 21.2, 10.0, 49, "Partly cloudy", "07:38 AM", "05:26 PM"],
      [3.1, -8.8, -2.1, 27.4, 9.2, 63, "Light snow", "07:38 AM", "05:27 PM"],
      [4.4, -9.6, -2.6, 15.8, 10.0, 52, "Cloudy", "07:37 AM", "05:28 PM"],
      [8.6, -5.9, 1.2, 11.5, 10.0, 41, "Sunny", "07:37 AM", "05:29 PM"],
      [9.3, -5.1, 2.0, 10.4, 10.0, 38, "Sunny", "07:37 AM", "05:30 PM"],
      [7.0, -6.8, 0.3, 14.9, 10.0, 44, "Partly cloudy", "07:36 AM", "05:31 PM"],
    ],
  ),
];

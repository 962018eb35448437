// Weather on our fixture's rows: no login needed; "today" is the frozen clock's date (FIXTURE_NOW,
// 2024-03-13). Lisbon has 2024-03-13 and 14, San Sebastian 2024-03-13 to 16; only Lisbon has
// historic figures, for March.
import { test } from "node:test";
import assert from "node:assert/strict";
import { harness } from "./harness.js";

test("CurrentWeather: today's row at the place, looked up lower-cased and trimmed", () => {
  const h = harness();
  assert.deepEqual(h.call("CurrentWeather", { location: "  San Sebastian " }).response, {
    weather: { date: "2024-03-13", high: 59, low: 48, conditions: "Cloudy" },
  });
  assert.equal(h.call("CurrentWeather", { location: "Atlantis" }).exception, "Location atlantis not found in database");
  // A known place without a row for today: ToolTalk's KeyError on the date.
  assert.equal(
    harness({ timestamp: "2024-03-15 09:00:00" }).call("CurrentWeather", { location: "Lisbon" }).exception,
    "datetime.date(2024, 3, 15)",
  );
  assert.equal(h.call("CurrentWeather", { location: 12 }).exception, "'int' object has no attribute 'lower'");
});

test("ForecastWeather: the three days after today", () => {
  const h = harness();
  assert.deepEqual(h.call("ForecastWeather", { location: "san sebastian" }).response, {
    forecast: [
      { date: "2024-03-14", high: 61, low: 50, conditions: "20% Rainy" },
      { date: "2024-03-15", high: 57, low: 47, conditions: "80% Rainy" },
      { date: "2024-03-16", high: 60, low: 49, conditions: "Partly cloudy" },
    ],
  });
  assert.equal(h.call("ForecastWeather", { location: "Lisbon" }).exception, "datetime.date(2024, 3, 15)");
});

test("HistoricWeather: a place's figures for a month named in full, any case", () => {
  const h = harness();
  assert.deepEqual(h.call("HistoricWeather", { location: "Lisbon", month: "MARCH" }).response, {
    weather: { min_temp: 50, max_temp: 64, record_min_temp: 35, record_max_temp: 86, avg_rainfall: 2.4, snow_days: 0 },
  });
  assert.equal(
    h.call("HistoricWeather", { location: "Lisbon", month: "April" }).exception,
    "Historic weather data for lisbon missing for month april",
  );
  // San Sebastian has daily weather but no historic figures.
  assert.equal(
    h.call("HistoricWeather", { location: "San Sebastian", month: "march" }).exception,
    "Location san sebastian not found in database",
  );
});

test("weather needs no login", () => {
  const h = harness();
  assert.deepEqual(h.rows("SESSION"), [{ username: null, session_token: null }]);
  assert.equal(h.call("CurrentWeather", { location: "lisbon" }).exception, null);
});

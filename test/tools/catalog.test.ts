// The catalog: all 34 tools in upstream's discovery order, consistent definitions, and the
// catalog-as-data that `toolsandbox tools --json` and the language server read.
import { test } from "node:test";
import assert from "node:assert/strict";
import type { JsonObject } from "../../engine/base/json.js";
import { TOOLS, TOOL_NAMES, catalogEntry, toolByName } from "../../engine/packs/toolsandbox/tools/catalog.js";
import { parseDocstring } from "../../engine/tools/openai-schema.js";

// Reference section 1.5, verbatim.
const UPSTREAM_ORDER = `add_contact, modify_contact, remove_contact, search_contacts, get_cellular_service_status,
  search_messages, send_message_with_phone_number, convert_currency, get_current_location,
  get_location_service_status, get_wifi_status, search_lat_lon, search_location_around_lat_lon,
  search_stock, search_weather_around_lat_lon, add_reminder, modify_reminder, remove_reminder,
  search_reminder, get_low_battery_mode_status, set_cellular_service_status,
  set_location_service_status, set_low_battery_mode_status, set_wifi_status, end_conversation,
  calculate_lat_lon_distance, datetime_info_to_timestamp, get_current_timestamp, search_holiday,
  seconds_to_hours_minutes_seconds, shift_timestamp, timestamp_diff, timestamp_to_datetime_info,
  unit_conversion`
  .split(",")
  .map((s) => s.trim());

test("the catalog holds the 34 tools in upstream's global discovery order", () => {
  assert.equal(TOOLS.length, 34);
  assert.deepEqual(TOOL_NAMES, UPSTREAM_ORDER);
  assert.equal(toolByName("search_holiday")?.name, "search_holiday");
  assert.equal(toolByName("fly_to_moon"), undefined);
});

test("each tool's module yields upstream's scrambled names (reference 1.10)", () => {
  // Scrambled name = <module>_<k>, k counting per module over tools sorted by module.function.
  const sorted = [...TOOLS].sort((a, b) => (`${a.module}.${a.name}` < `${b.module}.${b.name}` ? -1 : 1));
  const counters = new Map<string, number>();
  const scrambled = Object.fromEntries(
    sorted.map((t) => {
      const k = counters.get(t.module) ?? 0;
      counters.set(t.module, k + 1);
      return [`${t.module}_${k}`, t.name];
    }),
  );
  assert.equal(scrambled.messaging_0, "search_messages");
  assert.equal(scrambled.rapid_api_search_tools_0, "convert_currency");
  assert.equal(scrambled.rapid_api_search_tools_4, "search_weather_around_lat_lon");
  assert.equal(scrambled.setting_1, "get_current_location");
  assert.equal(scrambled.setting_8, "set_wifi_status");
  assert.equal(scrambled.user_tools_0, "end_conversation");
  assert.equal(scrambled.utilities_0, "calculate_lat_lon_distance");
  assert.equal(scrambled.utilities_8, "unit_conversion");
  assert.equal(Object.keys(scrambled).length, 34);
});

test("every tool's docstring describes it and lists exactly its parameters", () => {
  for (const def of TOOLS) {
    const doc = parseDocstring(def.docstring);
    assert.ok(doc.description.length > 0, def.name);
    assert.deepEqual(
      [...doc.args],
      def.parameters.map((p) => [p.name, p.description]),
      def.name,
    );
    // Upstream's structure: no Args block without arguments; modify_reminder alone has no Returns.
    assert.equal(def.docstring.includes("Args:"), def.parameters.length > 0, def.name);
    assert.equal(/\n\nReturns:/.test(def.docstring), def.name !== "modify_reminder", def.name);
    assert.ok(def.returns.description.length > 0, def.name);
    assert.equal(typeof def.returns.schema, "object", def.name);
    for (const p of def.parameters) assert.ok(p.annotation.length > 0, `${def.name}.${p.name}`);
  }
});

test("visibility, web backing and state dependencies match upstream", () => {
  assert.deepEqual(
    TOOLS.filter((t) => t.visibleTo.includes("user")).map((t) => t.name),
    ["end_conversation"],
  );
  assert.ok(TOOLS.every((t) => t.visibleTo.length === 1));
  assert.deepEqual(
    TOOLS.filter((t) => t.webBacked).map((t) => t.name),
    ["convert_currency", "search_lat_lon", "search_location_around_lat_lon", "search_stock", "search_weather_around_lat_lon"],
  );
  const needsWifi = TOOLS.filter((t) => t.stateDependencies.some((d) => d.column === "wifi" && d.value)).map((t) => t.name);
  assert.deepEqual(needsWifi.sort(), [
    "convert_currency",
    "search_holiday",
    "search_lat_lon",
    "search_location_around_lat_lon",
    "search_stock",
    "search_weather_around_lat_lon",
  ]);
});

test("catalogEntry is plain JSON with the parameters as a JSON Schema", () => {
  for (const def of TOOLS) {
    const entry = catalogEntry(def);
    assert.deepEqual(JSON.parse(JSON.stringify(entry)), entry, def.name);
    assert.equal(entry.name, def.name);
    assert.equal(entry.description, parseDocstring(def.docstring).description);
  }
  const holiday = catalogEntry(toolByName("search_holiday")!);
  assert.deepEqual(holiday.parameters, {
    type: "object",
    properties: {
      holiday_name: { type: "string", description: "Name of the holiday as people say it, e.g. Thanksgiving." },
      year: { type: ["integer", "null"], description: "Optional. The year to look in; the current year when left out.", default: null },
    },
    required: ["holiday_name"],
    additionalProperties: false,
  });
  assert.deepEqual(holiday.state_dependencies, [
    { table: "SETTING", column: "wifi", value: true, error: "ConnectionError: Wifi is not enabled" },
  ]);
  assert.deepEqual(holiday.returns, {
    description: toolByName("search_holiday")!.returns.description,
    schema: { type: ["number", "null"] },
  });
  assert.deepEqual(
    [holiday.module, holiday.domain, holiday.action, holiday.web_backed, holiday.visible_to],
    ["utilities", "Holiday", false, false, ["agent"]],
  );

  const shift = catalogEntry(toolByName("shift_timestamp")!);
  const props = (shift.parameters as JsonObject).properties as JsonObject;
  assert.deepEqual(props.timestamp, { type: "number", description: "The POSIX timestamp to start from.", "x-timestamp": true });
  assert.deepEqual((props.days as JsonObject).default, 0);

  const weather = catalogEntry(toolByName("search_weather_around_lat_lon")!);
  assert.deepEqual(
    (weather.state_dependencies as JsonObject[]).map((d) => [d.column, d.when ?? null]),
    [
      ["location_service", "only when latitude and longitude are omitted"],
      ["wifi", null],
    ],
  );
  assert.ok((weather.errors as string[]).includes("ValueError: Days must be positive integer, found days=…."));
});

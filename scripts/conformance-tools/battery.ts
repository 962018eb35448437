// The calls `npm run conformance` sends to every offline ToolSandbox tool, ours and upstream's.
// Hand-written valid and edge calls per tool, then calls derived from each tool's parameter list
// (a wrong type, null, empty or extreme values, a required argument left out, an unknown one) and,
// for each state dependency, the first valid call with that setting broken.
import type { JsonValue } from "../../engine/base/json.js";
import { uuid5 } from "../../engine/packs/toolsandbox/default-world.js";
import type { ToolDefinition, ToolParameter } from "../../engine/tools/types.js";

export interface ToolCase {
  readonly id: string;
  readonly tool: string;
  readonly arguments: Readonly<Record<string, JsonValue>>;
  /** Columns of the SETTING row replaced before the call. */
  readonly settings: Readonly<Record<string, JsonValue>>;
}

const HOMER = uuid5("Homer S");
const FREDRIK = uuid5("Fredrik Thordendal");
const REMINDER_0 = uuid5("reminder_0");
const REMINDER_1 = uuid5("reminder_1");
const UNKNOWN_ID = "11111111-2222-4333-8444-555555555555";

type Args = Record<string, JsonValue>;

/** Valid and edge calls, by tool, relative to `now` (the import clock). */
function handWritten(now: number): Record<string, Args[]> {
  const day = 86_400;
  return {
    add_contact: [
      { name: "Ada Lovelace", phone_number: "+11234567890" },
      { name: "Ada Lovelace", phone_number: "+11234567890", relationship: "friend", is_self: false },
      { name: "", phone_number: "" },
      { name: "Homer S", phone_number: "+10000000000", relationship: "boss" },
    ],
    modify_contact: [
      { person_id: HOMER, phone_number: "+19998887777" },
      { person_id: HOMER, name: "Homer Simpson", relationship: "coworker", is_self: false },
      { person_id: FREDRIK },
      { person_id: UNKNOWN_ID, name: "Nobody" },
    ],
    remove_contact: [{ person_id: HOMER }, { person_id: UNKNOWN_ID }, { person_id: "" }],
    search_contacts: [
      { name: "Homer" },
      { name: "homer s" },
      { name: "Tomas" },
      { name: "Fredrick Thordendahl" },
      { relationship: "friend" },
      { relationship: "Friends" },
      { phone_number: "+10000000000" },
      { phone_number: "+1 000 000 0000" },
      { person_id: HOMER },
      { is_self: true },
      { name: "Homer", relationship: "boss", is_self: false },
      {},
      // search_contacts is the one search tool upstream leaves without type checks.
      { name: 1 },
      { name: true },
      { relationship: [] },
      { person_id: 7 },
      { person_id: 2.5 },
      { person_id: true },
      { person_id: [] },
      { person_id: [1, 2] },
      { person_id: ["a"] },
      { person_id: {} },
      { phone_number: 5 },
      { phone_number: [] },
      { is_self: 1 },
      { is_self: 0 },
      { is_self: 2 },
      { is_self: "true" },
      { is_self: [] },
      { is_self: [1] },
      { is_self: {} },
    ],
    get_cellular_service_status: [{}],
    search_messages: [
      { content: "Good" },
      { content: "keep me posted" },
      { content: "GPU" },
      { sender_phone_number: "+10000000000" },
      { recipient_person_id: HOMER },
      { creation_timestamp_lowerbound: now - 2 * day },
      { creation_timestamp_upperbound: now - 2 * day, creation_timestamp_lowerbound: now - 30 * day },
      { creation_timestamp_lowerbound: now + day },
      {},
    ],
    send_message_with_phone_number: [
      { phone_number: "+10000000000", content: "On my way" },
      { phone_number: "+15555550100", content: "Hello stranger" },
      { phone_number: "+10000000000", content: "" },
      { phone_number: "not a number", content: "hi" },
    ],
    get_current_location: [{}],
    get_location_service_status: [{}],
    get_wifi_status: [{}],
    add_reminder: [
      { content: "Water the plants", reminder_timestamp: now + day },
      { content: "Pick up the parcel", reminder_timestamp: now + 2 * day, latitude: 37.33, longitude: -122.03 },
      { content: "Past reminder", reminder_timestamp: now - day },
      { content: "Half a place", reminder_timestamp: now + day, latitude: 37.33 },
    ],
    modify_reminder: [
      { reminder_id: REMINDER_0, content: "Look for Company SF tickets today" },
      { reminder_id: REMINDER_1, reminder_timestamp: now + 3 * day, latitude: 1.5, longitude: 2.5 },
      { reminder_id: UNKNOWN_ID, content: "x" },
      { reminder_id: REMINDER_0 },
    ],
    remove_reminder: [{ reminder_id: REMINDER_1 }, { reminder_id: UNKNOWN_ID }],
    search_reminder: [
      { content: "tickets" },
      { content: "bathing suit" },
      { reminder_timestamp_lowerbound: now },
      { reminder_timestamp_upperbound: now, creation_timestamp_lowerbound: now - 2 * day },
      { latitude: 37.3237926356735, longitude: -122.03961770355414 },
      {},
    ],
    get_low_battery_mode_status: [{}],
    set_cellular_service_status: [{ on: false }, { on: true }],
    set_location_service_status: [{ on: false }, { on: true }],
    set_low_battery_mode_status: [{ on: true }, { on: false }],
    set_wifi_status: [{ on: false }, { on: true }],
    calculate_lat_lon_distance: [
      { latitude_0: 37.334606, longitude_0: -122.009102, latitude_1: 37.7749, longitude_1: -122.4194 },
      { latitude_0: 0, longitude_0: 0, latitude_1: 0, longitude_1: 180 },
      { latitude_0: 91, longitude_0: 0, latitude_1: 0, longitude_1: 0 },
      { latitude_0: 90, longitude_0: 0, latitude_1: -90, longitude_1: 0 },
    ],
    datetime_info_to_timestamp: [
      { year: 2026, month: 1, day: 15, hour: 9, minute: 0, second: 0 },
      { year: 2024, month: 2, day: 29, hour: 23, minute: 59, second: 59 },
      { year: 2025, month: 2, day: 29, hour: 0, minute: 0, second: 0 },
      { year: 2026, month: 13, day: 1, hour: 0, minute: 0, second: 0 },
      { year: 2026, month: 3, day: 8, hour: 2, minute: 30, second: 0 },
      { year: 2026, month: 11, day: 1, hour: 1, minute: 30, second: 0 },
    ],
    get_current_timestamp: [{}],
    search_holiday: [
      { holiday_name: "Christmas" },
      { holiday_name: "Thanksgiving", year: 2025 },
      { holiday_name: "xmas" },
      { holiday_name: "Independence Day", year: 2030 },
      { holiday_name: "Juneteenth", year: 2020 },
      { holiday_name: "MLK day" },
      { holiday_name: "Memorial", year: 2026 },
      { holiday_name: "" },
    ],
    seconds_to_hours_minutes_seconds: [{ seconds: 3661 }, { seconds: 0 }, { seconds: 59.5 }, { seconds: -90 }, { seconds: 1e9 }],
    shift_timestamp: [
      { timestamp: now, weeks: 1, days: 2, hours: 3, minutes: 4, seconds: 5 },
      { timestamp: now, days: -400 },
      { timestamp: now },
      { timestamp: 0, hours: -1 },
    ],
    timestamp_diff: [
      { timestamp_0: now, timestamp_1: now + 90_061 },
      { timestamp_0: now + 90_061, timestamp_1: now },
      { timestamp_0: now, timestamp_1: now },
    ],
    timestamp_to_datetime_info: [{ timestamp: now }, { timestamp: 0 }, { timestamp: now + 0.75 }, { timestamp: -86_400 }],
    unit_conversion: [
      { amount: 10, from_unit: "kilometer", to_unit: "mile" },
      { amount: 100, from_unit: "degC", to_unit: "degF" },
      { amount: 72, from_unit: "fahrenheit", to_unit: "celsius" },
      { amount: 1, from_unit: "pound", to_unit: "kilogram" },
      { amount: 5, from_unit: "meter", to_unit: "second" },
      { amount: 5, from_unit: "parsnip", to_unit: "meter" },
      { amount: 0, from_unit: "liter", to_unit: "gallon" },
    ],
  };
}

/** A value of the wrong type for a parameter, which upstream's type checks should refuse. */
function wrongType(p: ToolParameter): JsonValue {
  if (p.type === "string") return 1;
  if (p.type === "boolean") return "yes";
  if (p.type === "array") return "not a list";
  return "abc";
}

/** Edge values of a parameter's own type. */
function edgeValues(p: ToolParameter): JsonValue[] {
  if (p.type === "string") return ["", "  ", "é".repeat(3)];
  if (p.type === "integer") return [0, -1, 2.5, 1e20];
  if (p.type === "number") return [0, -1, 1e20, 3];
  if (p.type === "boolean") return [1];
  return [[]];
}

/** Every call of the battery, in a stable order. */
export function toolBattery(tools: readonly ToolDefinition[], now: number): ToolCase[] {
  const cases: ToolCase[] = [];
  const written = handWritten(now);
  for (const tool of tools) {
    const valid = written[tool.name];
    if (!valid || valid.length === 0) throw new Error(`the battery has no calls for ${tool.name}`);
    const add = (kind: string, args: Args, settings: Args = {}): void => {
      cases.push({
        id: `${tool.name}#${cases.filter((c) => c.tool === tool.name).length} ${kind}`,
        tool: tool.name,
        arguments: args,
        settings,
      });
    };
    for (const args of valid) add("written", args);
    const base = valid[0] as Args;
    for (const p of tool.parameters) {
      add(`${p.name}: wrong type`, { ...base, [p.name]: wrongType(p) });
      add(`${p.name}: null`, { ...base, [p.name]: null });
      for (const v of edgeValues(p)) add(`${p.name}: edge`, { ...base, [p.name]: v });
      if (p.name in base) {
        const without = { ...base };
        delete without[p.name];
        add(`${p.name}: left out`, without);
      }
    }
    add("unknown argument", { ...base, bogus: 1 });
    for (const dep of tool.stateDependencies) {
      if (dep.table === "SETTING") add(`${dep.column} broken`, base, { [dep.column]: !dep.value });
    }
  }
  return cases;
}

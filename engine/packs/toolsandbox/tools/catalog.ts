// The ToolSandbox tool catalog: all 34 tools in upstream's global discovery order (reference 1.5).
// A tool as plain JSON data (`catalogEntry`) is in catalog-entry.ts, shared by every pack.
//
// Upstream discovers tools by walking the `tool_sandbox.tools` submodules alphabetically and, in
// each, its functions alphabetically, including tools a module imports from another; a tool keeps
// the position where it first appears. That is why get_cellular_service_status (imported by
// `messaging`) and the location/wifi getters (imported by `rapid_api_search_tools`) come before
// the rest of `setting`. Agents see their tools in this order whatever the allow list's order.
import { CONTACT_TOOLS } from "./contact.js";
import { MESSAGING_TOOLS } from "./messaging.js";
import { REMINDER_TOOLS } from "./reminder.js";
import { SETTING_TOOLS } from "./setting.js";
import type { ToolDefinition } from "../../../tools/types.js";
import { USER_TOOLS } from "../../../tools/user-tools.js";
import { UTILITY_TOOLS } from "./utilities.js";
import { WEB_TOOLS } from "./web.js";

export { catalogEntry } from "../../../tools/catalog-entry.js";

const DISCOVERY_ORDER = [
  // contact
  "add_contact",
  "modify_contact",
  "remove_contact",
  "search_contacts",
  // messaging (imports get_cellular_service_status)
  "get_cellular_service_status",
  "search_messages",
  "send_message_with_phone_number",
  // rapid_api_search_tools (imports get_current_location, get_location_service_status, get_wifi_status)
  "convert_currency",
  "get_current_location",
  "get_location_service_status",
  "get_wifi_status",
  "search_lat_lon",
  "search_location_around_lat_lon",
  "search_stock",
  "search_weather_around_lat_lon",
  // reminder
  "add_reminder",
  "modify_reminder",
  "remove_reminder",
  "search_reminder",
  // setting (the rest)
  "get_low_battery_mode_status",
  "set_cellular_service_status",
  "set_location_service_status",
  "set_low_battery_mode_status",
  "set_wifi_status",
  // user_tools
  "end_conversation",
  // utilities
  "calculate_lat_lon_distance",
  "datetime_info_to_timestamp",
  "get_current_timestamp",
  "search_holiday",
  "seconds_to_hours_minutes_seconds",
  "shift_timestamp",
  "timestamp_diff",
  "timestamp_to_datetime_info",
  "unit_conversion",
] as const;

function inDiscoveryOrder(packs: readonly (readonly ToolDefinition[])[]): readonly ToolDefinition[] {
  const byName = new Map<string, ToolDefinition>();
  for (const tool of packs.flat()) {
    if (byName.has(tool.name)) throw new Error(`tool ${tool.name} is defined twice`);
    byName.set(tool.name, tool);
  }
  const ordered = DISCOVERY_ORDER.map((name) => {
    const tool = byName.get(name);
    if (!tool) throw new Error(`tool ${name} is missing from the catalog`);
    return tool;
  });
  if (ordered.length !== byName.size) {
    const extra = [...byName.keys()].filter((n) => !(DISCOVERY_ORDER as readonly string[]).includes(n));
    throw new Error(`tools without a place in the discovery order: ${extra.join(", ")}`);
  }
  return ordered;
}

export const TOOLS: readonly ToolDefinition[] = inDiscoveryOrder([
  CONTACT_TOOLS,
  MESSAGING_TOOLS,
  WEB_TOOLS,
  REMINDER_TOOLS,
  SETTING_TOOLS,
  USER_TOOLS,
  UTILITY_TOOLS,
]);

export const TOOL_NAMES: readonly string[] = TOOLS.map((t) => t.name);

const BY_NAME: ReadonlyMap<string, ToolDefinition> = new Map(TOOLS.map((t) => [t.name, t]));

export function toolByName(name: string): ToolDefinition | undefined {
  return BY_NAME.get(name);
}

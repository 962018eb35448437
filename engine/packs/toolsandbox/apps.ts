// ToolSandbox's tools as the apps of a phone (DialogTool's VirtualMobile groups its APIs into apps
// the same way): what a per-app breakdown of scores and counts is keyed by. Every agent tool of
// the pack is in exactly one app (a test checks it).
import type { PackApp } from "../types.js";

export const TOOLSANDBOX_APPS: readonly PackApp[] = [
  { name: "Contacts", tools: ["add_contact", "modify_contact", "remove_contact", "search_contacts"] },
  { name: "Messages", tools: ["send_message_with_phone_number", "search_messages"] },
  { name: "Reminders", tools: ["add_reminder", "modify_reminder", "remove_reminder", "search_reminder"] },
  {
    name: "Settings",
    tools: [
      "get_cellular_service_status",
      "set_cellular_service_status",
      "get_wifi_status",
      "set_wifi_status",
      "get_location_service_status",
      "set_location_service_status",
      "get_low_battery_mode_status",
      "set_low_battery_mode_status",
      "get_current_location",
    ],
  },
  {
    name: "Clock",
    tools: [
      "get_current_timestamp",
      "timestamp_to_datetime_info",
      "datetime_info_to_timestamp",
      "shift_timestamp",
      "timestamp_diff",
      "seconds_to_hours_minutes_seconds",
    ],
  },
  { name: "Maps", tools: ["search_lat_lon", "search_location_around_lat_lon", "calculate_lat_lon_distance"] },
  { name: "Weather", tools: ["search_weather_around_lat_lon"] },
  { name: "Stocks", tools: ["search_stock"] },
  { name: "Converter", tools: ["convert_currency", "unit_conversion"] },
  { name: "Calendar", tools: ["search_holiday"] },
];

// ToolSandbox's tools as the apps of a phone (DialogTool's VirtualMobile groups its APIs into apps
// the same way): what a per-app breakdown of scores and counts is keyed by, and what an agent
// choosing an app first (hierarchical selection) is shown. Every agent tool of the pack is in
// exactly one app (a test checks it). Transactional tools are those that add, change, remove or
// send: an agent confirms with the user before calling them (DialogTool).
import type { PackApp } from "../types.js";

export const TOOLSANDBOX_APPS: readonly PackApp[] = [
  {
    name: "Contacts",
    description: "The phone's address book: find, add, change and remove contacts.",
    tools: ["add_contact", "modify_contact", "remove_contact", "search_contacts"],
    transactional: ["add_contact", "modify_contact", "remove_contact"],
  },
  {
    name: "Messages",
    description: "Text messages: search the messages sent and received, send a message to a phone number.",
    tools: ["send_message_with_phone_number", "search_messages"],
    transactional: ["send_message_with_phone_number"],
  },
  {
    name: "Reminders",
    description: "Reminders: find, add, change and remove them.",
    tools: ["add_reminder", "modify_reminder", "remove_reminder", "search_reminder"],
    transactional: ["add_reminder", "modify_reminder", "remove_reminder"],
  },
  {
    name: "Settings",
    description: "The phone's settings: cellular service, Wi-Fi, location service, low battery mode, and the current location.",
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
    transactional: ["set_cellular_service_status", "set_wifi_status", "set_location_service_status", "set_low_battery_mode_status"],
  },
  {
    name: "Clock",
    description: "Dates and times: the current time, converting between timestamps and dates, shifting and comparing times.",
    tools: [
      "get_current_timestamp",
      "timestamp_to_datetime_info",
      "datetime_info_to_timestamp",
      "shift_timestamp",
      "timestamp_diff",
      "seconds_to_hours_minutes_seconds",
    ],
    transactional: [],
  },
  {
    name: "Maps",
    description: "Places: find a place's coordinates, search for places around a point, measure distances.",
    tools: ["search_lat_lon", "search_location_around_lat_lon", "calculate_lat_lon_distance"],
    transactional: [],
  },
  {
    name: "Weather",
    description: "The weather around a place: current conditions and forecasts.",
    tools: ["search_weather_around_lat_lon"],
    transactional: [],
  },
  { name: "Stocks", description: "Stock quotes: look up a company's stock.", tools: ["search_stock"], transactional: [] },
  {
    name: "Converter",
    description: "Conversions between currencies and between units.",
    tools: ["convert_currency", "unit_conversion"],
    transactional: [],
  },
  { name: "Calendar", description: "Holidays: find when a holiday falls.", tools: ["search_holiday"], transactional: [] },
];

// The four world tables of ToolSandbox (reference section 2.1). SANDBOX, the message bus, is not
// a table here: it lives in the episode's message list and is exposed to evaluation as rows.
import type { TableSchema } from "../../world/types.js";

export const SETTING: TableSchema = {
  name: "SETTING",
  key: "device_id",
  singleton: true,
  description: "Device settings: one row.",
  columns: [
    { name: "device_id", type: "string", nullable: false, description: "Identifier of the device." },
    { name: "cellular", type: "bool", nullable: false, description: "Cellular service on or off." },
    { name: "wifi", type: "bool", nullable: false, description: "Wi-Fi on or off." },
    { name: "location_service", type: "bool", nullable: false, description: "Location service on or off." },
    {
      name: "low_battery_mode",
      type: "bool",
      nullable: false,
      description: "Low battery mode; turning it on switches the three services off.",
    },
    { name: "latitude", type: "float", nullable: false, description: "Current latitude of the device, degrees." },
    { name: "longitude", type: "float", nullable: false, description: "Current longitude of the device, degrees." },
  ],
};

export const CONTACT: TableSchema = {
  name: "CONTACT",
  key: "person_id",
  description: "The address book. Exactly one row should have is_self = true (the device owner).",
  columns: [
    { name: "person_id", type: "string", nullable: false, description: "Unique identifier of the person." },
    { name: "name", type: "string", nullable: false, description: "Full name." },
    { name: "phone_number", type: "string", nullable: false, description: "Phone number with its +country code." },
    {
      name: "relationship",
      type: "string",
      nullable: true,
      freeText: true,
      description: "How the owner knows the person (friend, boss, self, ...).",
    },
    { name: "is_self", type: "bool", nullable: false, description: "True for the device owner's own entry." },
  ],
};

export const MESSAGING: TableSchema = {
  name: "MESSAGING",
  key: "message_id",
  description: "Text messages sent and received on the device.",
  columns: [
    { name: "message_id", type: "string", nullable: false, description: "Unique identifier of the message." },
    { name: "sender_person_id", type: "string", nullable: true, description: "person_id of the sender, null when not in contacts." },
    { name: "sender_phone_number", type: "string", nullable: false, description: "Phone number of the sender." },
    { name: "recipient_person_id", type: "string", nullable: true, description: "person_id of the recipient, null when not in contacts." },
    { name: "recipient_phone_number", type: "string", nullable: false, description: "Phone number of the recipient." },
    { name: "content", type: "string", nullable: false, freeText: true, description: "Text of the message." },
    {
      name: "creation_timestamp",
      type: "float",
      nullable: false,
      timestamp: true,
      description: "When the message was sent, POSIX seconds.",
    },
  ],
};

export const REMINDER: TableSchema = {
  name: "REMINDER",
  key: "reminder_id",
  description: "Reminders, optionally tied to a location.",
  columns: [
    { name: "reminder_id", type: "string", nullable: false, description: "Unique identifier of the reminder." },
    { name: "content", type: "string", nullable: false, freeText: true, description: "What to be reminded of." },
    {
      name: "creation_timestamp",
      type: "float",
      nullable: false,
      timestamp: true,
      description: "When the reminder was created or last modified, POSIX seconds.",
    },
    { name: "reminder_timestamp", type: "float", nullable: false, timestamp: true, description: "When the reminder fires, POSIX seconds." },
    { name: "latitude", type: "float", nullable: true, description: "Latitude the reminder is tied to, if any." },
    { name: "longitude", type: "float", nullable: true, description: "Longitude the reminder is tied to, if any." },
  ],
};

const TOOLSANDBOX_TABLES: readonly TableSchema[] = [SETTING, CONTACT, MESSAGING, REMINDER];
export const TOOLSANDBOX_SCHEMAS: ReadonlyMap<string, TableSchema> = new Map(TOOLSANDBOX_TABLES.map((t) => [t.name, t]));

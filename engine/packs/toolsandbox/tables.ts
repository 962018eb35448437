// ToolSandbox's tables as a pack sees them (schemas only, no tools): what the webview and the
// trajectory reader load. The schemas themselves live in engine/packs/toolsandbox/table-schemas.ts.
import { TOOLSANDBOX_SCHEMAS } from "./table-schemas.js";
import type { PackTables } from "../types.js";

export const TOOLSANDBOX_TABLES: PackTables = {
  id: "toolsandbox",
  title: "ToolSandbox: a phone's settings, contacts, messages and reminders (34 tools)",
  schemas: TOOLSANDBOX_SCHEMAS,
  // Ids are labelled with what a person recognises them by; phone numbers and names come from the contacts.
  valueSources: [
    { match: { suffix: "person_id" }, table: "CONTACT", column: "person_id", label: "name" },
    { match: { suffix: "reminder_id" }, table: "REMINDER", column: "reminder_id", label: "content" },
    { match: { suffix: "message_id" }, table: "MESSAGING", column: "message_id", label: "content" },
    { match: { suffix: "phone_number" }, table: "CONTACT", column: "phone_number", label: "name" },
    { match: { exact: "name" }, table: "CONTACT", column: "name", label: "relationship" },
  ],
};

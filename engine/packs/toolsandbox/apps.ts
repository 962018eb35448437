// ToolSandbox's tools grouped into apps, as DialogTool's VirtualMobile groups APIs, for the per-app
// pass rates of tool creation. Our own grouping, by the module a tool comes from; kept alone in
// this file so that a catalog-wide grouping can replace it.
import type { ToolDefinition } from "../../tools/types.js";

const APP_OF_MODULE: Readonly<Record<string, string>> = {
  contact: "Contacts",
  messaging: "Messages",
  reminder: "Reminders",
  setting: "Settings",
  utilities: "Utilities",
  rapid_api_search_tools: "Web",
};

/** The app a tool belongs to (its module's, else "Other"). */
export function toolsandboxApp(tool: ToolDefinition): string {
  return APP_OF_MODULE[tool.module] ?? "Other";
}

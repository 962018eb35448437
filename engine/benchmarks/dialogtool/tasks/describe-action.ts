// An agent action in a few words, for the panel and tables: "search_contacts(name) + set_wifi_status(on)",
// a reply in quotes, or why there is none. Pure and import-free, so the panel bundles it cheaply.
import type { AgentAction } from "./types.js";

export function describeAction(action: AgentAction): string {
  if (action.kind === "text") return `reply: ${JSON.stringify(action.text.length > 80 ? `${action.text.slice(0, 77)}...` : action.text)}`;
  if (action.kind === "none") return `nothing (${action.reason})`;
  return action.calls
    .map((c) => `${c.tool}(${c.arguments === null ? "<malformed arguments>" : Object.keys(c.arguments).join(", ")})`)
    .join(" + ");
}

// How values read in the panel: role names, scores, world cells (timestamps also in the scenario's
// local time), and the one-line preview of a message in the timeline.
import type { Message, RoleName } from "../../../engine/episode/types.js";
import type { CellValue, TableSchema } from "../../../engine/world/types.js";

export { formatScore } from "../../../engine/evaluation/highlights.js";

const ROLE_LABELS: Readonly<Record<RoleName, string>> = {
  system: "system",
  user: "user",
  agent: "agent",
  execution_environment: "environment",
};

export const roleLabel = (role: RoleName): string => ROLE_LABELS[role];

/** What kind of message this is, for styling: a tool call, its result, an error, or dialogue. */
type MessageKind = "call" | "result" | "error" | "text";

export function messageKind(m: Message): MessageKind {
  if (m.tool_call_exception !== null) return "error";
  if (m.tool_call) return "call";
  if (m.sender === "execution_environment") return "result";
  return "text";
}

function callText(m: Message): string | null {
  const call = m.tool_call;
  if (!call) return null;
  const args = call.arguments !== undefined ? JSON.stringify(call.arguments) : (call.raw_arguments ?? "");
  return `${call.name}(${args})`;
}

/** One line for the timeline: the call, the error, or the content with its whitespace collapsed. */
export function previewText(m: Message): string {
  const text = m.tool_call_exception ?? callText(m) ?? m.content;
  const line = text.replace(/\s+/g, " ").trim();
  return line === "" ? "(empty)" : line;
}

/** Cuts a preview so a search match deep inside it is still in view. */
export function previewAround(text: string, query: string, room = 60): string {
  const at = query.trim() === "" ? -1 : text.toLowerCase().indexOf(query.trim().toLowerCase());
  return at > room ? `…${text.slice(at - Math.floor(room / 2))}` : text;
}

/** `schema`: the table's, from the trajectory's pack (undefined for a table the pack lacks). */
export function isTimestampColumn(schema: TableSchema | undefined, column: string): boolean {
  return schema?.columns.find((c) => c.name === column)?.timestamp === true;
}

/** A cell as JSON ("text", 1.5, true, null, ["a","b"]). */
export function cellText(value: CellValue | undefined): string {
  return JSON.stringify(value ?? null);
}

const dateFormats = new Map<string, Intl.DateTimeFormat>();

/** "2026-10-02 16:40:00 CDT" in the scenario's timezone; UTC when the zone is unknown to the browser. */
export function localTime(timestamp: number, timezone: string): string {
  let format = dateFormats.get(timezone);
  if (!format) {
    const options: Intl.DateTimeFormatOptions = {
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
      hourCycle: "h23",
      timeZoneName: "short",
    };
    try {
      format = new Intl.DateTimeFormat("en-CA", { ...options, timeZone: timezone });
    } catch {
      format = new Intl.DateTimeFormat("en-CA", { ...options, timeZone: "UTC" });
    }
    dateFormats.set(timezone, format);
  }
  const date = new Date(timestamp * 1000);
  if (Number.isNaN(date.getTime())) return "";
  const parts = format.formatToParts(date);
  const part = (type: Intl.DateTimeFormatPartTypes): string => parts.find((p) => p.type === type)?.value ?? "";
  return `${part("year")}-${part("month")}-${part("day")} ${part("hour")}:${part("minute")}:${part("second")} ${part("timeZoneName")}`;
}

export const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? "" : "s"}`;

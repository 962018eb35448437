// Milestone constraints for a call that leaves no trace in the world: the message that answers it
// must carry a tool trace of the same tool with the arguments ToolTalk's own match rule looks at
// (peers A.3), so the milestone asks what ToolTalk asks and no more:
//
// - SendEmail: the recipients, in any order (ToolTalk compares them as a set). Subject and body
//   are free text that ToolTalk grades by meaning; a tool trace compares values exactly, so they
//   are left to the ToolTalk mode.
// - SendMessage: the receiver. (ToolTalk compares the receiver with itself, so it never checks
//   it; a milestone that lets any receiver pass would be wrong, so this one does check it.) The
//   text is free text, as above.
// - FindAlarms, QueryCalendar, SearchInbox, SearchMessages, GetReminders: ToolTalk ignores the
//   search arguments and asks that the ground truth's ids be among those found; each id becomes a
//   constraint that the answer contains it (the answer may hold more: a wider search still counts).
// - Every other call (weather, QueryUser, GetAccountInformation, an action that changed nothing):
//   all its arguments, compared exactly, as ToolTalk's default rule does.
import type { JsonObject, JsonValue } from "../../../base/json.js";
import { isJsonObject } from "../../../base/json.js";
import { traceRow, type ConstraintPart } from "./parts.js";

/** Where a search tool's result lists its items, and each item's id. */
const FOUND_IDS: Readonly<Record<string, { readonly list: string; readonly id: string }>> = {
  FindAlarms: { list: "alarms", id: "alarm_id" },
  QueryCalendar: { list: "events", id: "event_id" },
  SearchInbox: { list: "emails", id: "email_id" },
  SearchMessages: { list: "messages", id: "message_id" },
  GetReminders: { list: "reminders", id: "reminder_id" },
};

/** Every ordering of a short list (up to 4 items, 24 orderings); a longer list keeps its own order only. */
function orderings(items: readonly JsonValue[]): JsonValue[][] {
  if (items.length <= 1 || items.length > 4) return [[...items]];
  return items.flatMap((item, i) => orderings([...items.slice(0, i), ...items.slice(i + 1)]).map((rest) => [item, ...rest]));
}

function foundIds(tool: string, result: JsonValue): string[] {
  const shape = FOUND_IDS[tool];
  const list = shape && isJsonObject(result) ? result[shape.list] : undefined;
  if (!shape || !Array.isArray(list)) return [];
  return list.flatMap((item) => (isJsonObject(item) && typeof item[shape.id] === "string" ? [item[shape.id] as string] : []));
}

/**
 * The constraints of a milestone on one call without effect on the world. `result` is what the call
 * returned when the reference ran, `recorded` the response the file records: the ids a search must
 * find are the recorded ones (ToolTalk's rule), those the replay found too, so the reference always
 * meets them.
 */
export function traceConstraints(tool: string, args: JsonObject, result: JsonValue, recorded: JsonValue): ConstraintPart[] {
  const snapshot = (target: JsonObject, measures?: Record<string, JsonObject>): ConstraintPart => ({
    kind: "snapshot",
    table: "SANDBOX",
    target: [target],
    ...(measures ? { measures } : {}),
  });
  if (tool === "SendEmail") {
    const to = args["to"];
    const lists = Array.isArray(to) ? orderings(to) : [to ?? null];
    return [snapshot(traceRow(lists.map((list) => ({ tool_name: tool, arguments: { to: list } }))))];
  }
  if (tool === "SendMessage") {
    return [snapshot(traceRow([{ tool_name: tool, arguments: { receiver: args["receiver"] ?? null } }]))];
  }
  if (tool in FOUND_IDS) {
    const found = new Set(foundIds(tool, result));
    const ids = [...new Set(foundIds(tool, recorded))].filter((id) => found.has(id));
    return [
      snapshot(traceRow([{ tool_name: tool, arguments: {} }])),
      ...ids.map((id) => snapshot({ sender: "execution_environment", recipient: "agent", content: id }, { content: { kind: "contains" } })),
    ];
  }
  return [snapshot(traceRow([{ tool_name: tool, arguments: args }]))];
}

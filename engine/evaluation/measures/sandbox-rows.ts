// A bus message seen as a row of upstream's SANDBOX table (reference 2.1, 2.3), which is what
// SANDBOX milestone targets are compared with: for SANDBOX, "the snapshot at index i" is the one
// message at index i.
import type { Message, RoleName } from "../../episode/types.js";
import type { ColumnType } from "../../world/types.js";
import type { MeasuredRow } from "./types.js";

/** SANDBOX columns and their kinds; list columns have no zero value (they never take part in joins). */
export const SANDBOX_COLUMN_TYPES: Readonly<Record<string, ColumnType | "list">> = {
  sandbox_message_index: "int",
  sender: "string",
  recipient: "string",
  content: "string",
  openai_tool_call_id: "string",
  openai_function_name: "string",
  conversation_active: "bool",
  tool_call_exception: "string",
  tool_trace: "list",
  visible_to: "list",
};

function sameRoles(a: readonly RoleName[], b: readonly RoleName[]): boolean {
  return a.length === b.length && a.every((role, i) => role === b[i]);
}

/**
 * The message's SANDBOX row. Upstream stores `visible_to` as null on scripted rows written
 * without one (the system prompts and the opening user message), so a scripted message whose
 * visibility is the default [sender, recipient] gets null here too; scripted rows given an
 * explicit list (the user's demonstrations) keep it.
 */
export function sandboxRow(message: Message): MeasuredRow {
  const defaultVisibility = sameRoles(message.visible_to, [message.sender, message.recipient]);
  return {
    sandbox_message_index: message.sandbox_message_index,
    sender: message.sender,
    recipient: message.recipient,
    content: message.content,
    openai_tool_call_id: message.openai_tool_call_id,
    openai_function_name: message.openai_function_name,
    conversation_active: message.conversation_active,
    tool_call_exception: message.tool_call_exception,
    tool_trace: message.tool_trace,
    visible_to: message.scripted === true && defaultVisibility ? null : message.visible_to,
  };
}

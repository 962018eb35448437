// DialogTool's dialogue actions (its Table 7, taken from SGD): what an agent's reply does. A
// reference `agent:` step may name its action (`action: Confirm`); where it does not, DialogTool's
// tasks derive it by written rules (engine/benchmarks/dialogtool/tasks/actions.ts). The scenario
// layer holds the names so the checker, the schema and the language server agree on them.

/** The actions a reply can take: the tool-related ones first, then the others. */
export const DIALOG_ACTIONS = [
  "Request",
  "Confirm",
  "Inform_Count",
  "Notify_Success",
  "Notify_Failure",
  "Inform",
  "Offer_Intent",
  "Req_more",
  "Goodbye",
] as const;

export type DialogAction = (typeof DIALOG_ACTIONS)[number];

export function isDialogAction(value: unknown): value is DialogAction {
  return DIALOG_ACTIONS.some((a) => a === value);
}

/** One line each, in our words: what the agent under test is shown, and what hover and completion say. */
export const DIALOG_ACTION_DOCS: Readonly<Record<DialogAction, string>> = {
  Request: "ask the user for a value a tool needs",
  Confirm: "ask the user to confirm before a transactional tool (a change, a deletion, a message sent) is called",
  Inform_Count: "tell the user how many results a tool found",
  Notify_Success: "tell the user that a change the agent made succeeded",
  Notify_Failure: "tell the user that a tool call failed",
  Inform: "give the user information (from a tool's result or otherwise)",
  Offer_Intent: "offer the user something further to do",
  Req_more: "ask whether the user needs anything else",
  Goodbye: "end the conversation politely",
};

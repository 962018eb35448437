// The `reference:` solution: steps the scripted agent and user replay. Besides each call's tool
// and arguments, the order must be one a conversation can have: the agent answers the opening,
// tool results go back to the agent, agent text is answered by the user, and nothing follows
// end_conversation.
import { isDialogAction } from "./dialog-actions.js";
import type { ReferenceCall, ReferenceStep } from "./model.js";
import { list, obj, str } from "./raw.js";
import { lookupTool, resolveArguments, unavailableReason, type ToolContext, type ToolLists } from "./tool-calls.js";
import type { Path } from "./yaml-source.js";

type StepKind = ReferenceStep["kind"];
/** Who speaks next in the conversation. */
type Turn = "agent" | "user" | "over";

export function resolveReferenceSteps(ctx: ToolContext, raw: unknown, lists: ToolLists): ReferenceStep[] {
  const steps: ReferenceStep[] = [];
  const kinds: (StepKind | null)[] = [];
  const callIds = new Map<string, string>();
  list(raw).forEach((item, i) => {
    checkStepKeys(ctx, ["reference", i], obj(item));
    const step = resolveStep(ctx, ["reference", i], obj(item), i, lists, callIds);
    kinds.push(step?.kind ?? kindOf(obj(item)));
    if (step) steps.push(step);
  });
  checkOrder(ctx, kinds);
  return steps;
}

const STEP_KEYS: Readonly<Record<string, StepKind>> = {
  calls: "agent_calls",
  agent: "agent_text",
  user: "user_text",
  end_conversation: "end_conversation",
};

/** Beside its one step key, a step may name DialogTool's dialogue action (an `agent:` step only). */
const ACTION_KEY = "action";

/** The kind of a step written with exactly one of the step keys, else null (the schema or checkStepKeys reports it). */
function kindOf(step: ReturnType<typeof obj>): StepKind | null {
  const keys = step ? Object.keys(step).filter((k) => k !== ACTION_KEY) : [];
  return keys.length === 1 ? (STEP_KEYS[keys[0] ?? ""] ?? null) : null;
}

/**
 * The schema lets a step have two keys so that `action:` can sit beside `agent:`; two step keys,
 * or an action on another kind of step, are reported here.
 */
function checkStepKeys(ctx: ToolContext, path: Path, step: ReturnType<typeof obj>): void {
  if (!step) return;
  const keys = Object.keys(step);
  const stepKeys = keys.filter((k) => k in STEP_KEYS);
  if (stepKeys.length > 1) {
    ctx.reporter.report(
      path,
      "reference-step-keys",
      `A step is exactly one of calls, agent, user or end_conversation, but this one has ${stepKeys.join(" and ")}; split it into separate steps.`,
    );
    return;
  }
  if (keys.includes(ACTION_KEY) && stepKeys.length === 1 && stepKeys[0] !== "agent") {
    const why = stepKeys[0] === "calls" ? "a `calls:` step's action is always a tool call" : "only the agent's replies have one";
    ctx.reporter.report([...path, ACTION_KEY], "reference-action", `\`action:\` belongs on an \`agent:\` step: ${why}.`);
  }
}

function resolveStep(
  ctx: ToolContext,
  path: Path,
  step: ReturnType<typeof obj>,
  index: number,
  lists: ToolLists,
  callIds: Map<string, string>,
): ReferenceStep | null {
  switch (kindOf(step)) {
    case "agent_text": {
      if (typeof step?.agent !== "string") return null;
      // An unknown action is reported by the schema's enum (with the list of actions).
      const action = step.action;
      return isDialogAction(action) ? { kind: "agent_text", text: step.agent, action } : { kind: "agent_text", text: step.agent };
    }
    case "user_text":
      return typeof step?.user === "string" ? { kind: "user_text", text: step.user } : null;
    case "end_conversation":
      return step?.end_conversation === true ? { kind: "end_conversation" } : null;
    case "agent_calls": {
      const calls = list(step?.calls).map((call, j) =>
        resolveCall(ctx, [...path, "calls", j], obj(call), `call_${index + 1}_${j + 1}`, lists, callIds),
      );
      return calls.length > 0 && calls.every((c): c is ReferenceCall => c !== null) ? { kind: "agent_calls", calls } : null;
    }
    default:
      return null;
  }
}

function resolveCall(
  ctx: ToolContext,
  path: Path,
  call: ReturnType<typeof obj>,
  defaultId: string,
  lists: ToolLists,
  callIds: Map<string, string>,
): ReferenceCall | null {
  const name = str(call?.tool);
  if (!call || name === null) return null;
  const tool = lookupTool(ctx, [...path, "tool"], name);
  if (!tool) return null;
  const reason = unavailableReason(tool, lists);
  if (reason !== null) {
    ctx.reporter.report([...path, "tool"], "tool-not-allowed", `The agent cannot call this tool: ${reason}.`);
  }
  const args = resolveArguments(ctx, [...path, "arguments"], tool, obj(call.arguments), "call");
  const id = str(call.id) ?? defaultId;
  const first = callIds.get(id);
  if (first !== undefined) {
    ctx.reporter.report([...path, "id"], "duplicate-call-id", `The call id "${id}" is already used (${first}); call ids must be unique.`);
  } else {
    callIds.set(id, `reference step ${Number(path[1]) + 1}`);
  }
  return { id, tool: name, arguments: args };
}

const TURN_AFTER: Readonly<Record<StepKind, Turn>> = {
  agent_calls: "agent",
  agent_text: "user",
  user_text: "agent",
  end_conversation: "over",
};

function checkOrder(ctx: ToolContext, kinds: readonly (StepKind | null)[]): void {
  let turn: Turn = "agent";
  let previous: StepKind | null = null;
  for (const [i, kind] of kinds.entries()) {
    if (kind === null) {
      turn = "agent"; // unknown step (reported by the schema): do not guess what comes next
      previous = null;
      continue;
    }
    const path = ["reference", i];
    const byAgent = kind === "agent_calls" || kind === "agent_text";
    if (turn === "over") {
      ctx.reporter.report(
        path,
        "reference-order",
        "Nothing may follow `end_conversation`: the conversation is over. Remove this step or move it earlier.",
      );
      return;
    }
    if (turn === "agent" && !byAgent) {
      const message =
        i === 0
          ? "The reference starts with the agent's turn: the user's first message is `user.opening`. Start with `calls:` or `agent:`."
          : previous === "agent_calls"
            ? "After tool calls the agent speaks again (it reads the results): add an `agent:` or `calls:` step before this one."
            : "After the user's message the agent speaks: add an `agent:` or `calls:` step before this one.";
      ctx.reporter.report(path, "reference-order", message);
    } else if (turn === "user" && byAgent) {
      ctx.reporter.report(
        path,
        "reference-order",
        "After the agent's text the user speaks: add a `user:` step or `end_conversation: true` before this one.",
      );
    }
    turn = TURN_AFTER[kind];
    previous = kind;
  }
  const last = kinds.length - 1;
  if (previous === "agent_text") {
    ctx.reporter.report(
      ["reference", last],
      "reference-order",
      "The agent's text must be answered: add a `user:` step or `end_conversation: true` after it.",
    );
  } else if (previous === "agent_calls" || previous === "user_text") {
    ctx.reporter.report(
      ["reference", last],
      "reference-incomplete",
      "The reference stops where the agent would speak next, so a scripted run ends here without `end_conversation`.",
      {
        severity: "warning",
      },
    );
  }
}

// A person playing the agent or the user (`toolsandbox play`): each turn is read as lines from a
// source the front end gives (a terminal, a pipe, a test), so the roles know nothing of terminals.
// As the agent, a line `tool(arg=value, ...)` naming a tool the agent may call is a call (one per
// turn) and any other non-empty line is said to the user; a line that looks like a call but is not
// a good one is refused with a one-line problem and the next line is read. As the user, every
// non-empty line is said to the agent. `/quit` or the end of the lines ends the episode.
import type { AgentRequest, AgentRole, AgentTurn, UserRole, UserTurn } from "../episode/role.js";
import { RoleError } from "../episode/role.js";
import { callableTools } from "../episode/tool-calls.js";
import { closestMatch, didYouMean } from "../scenario/suggest.js";
import { CallLineError, parseArguments, splitCallLine } from "../tools/call-line.js";
import type { JsonValue } from "../base/json.js";

/** How the header records a person's role. */
const HUMAN_ROLE_ID = "human";

/** The line that ends the episode. */
export const QUIT_COMMAND = "/quit";

/**
 * The next line the person typed, after showing `prompt`; null at the end of the input. Aborting
 * `signal` (the episode was cancelled) should settle it.
 */
export type LineSource = (prompt: string, signal?: AbortSignal) => Promise<string | null>;

interface HumanRoleOptions {
  readonly read: LineSource;
  /** Told a line that was refused and why (one line); the role then reads the next. */
  readonly refuse: (problem: string) => void;
}

/** The agent a person plays. Its calls get the ids call_1, call_2, ... in the order they are made. */
export function createHumanAgent(options: HumanRoleOptions): AgentRole {
  let calls = 0;
  return {
    id: HUMAN_ROLE_ID,
    respond: async (request: AgentRequest): Promise<AgentTurn> => {
      for (;;) {
        const line = await options.read("agent> ", request.signal);
        if (line === null || line.trim() === QUIT_COMMAND) {
          // Not an error of the run: the person stopped, and what was played is scored.
          throw new RoleError(
            line === null ? "the input of the person playing the agent ended" : "the person playing the agent quit",
            "script_exhausted",
          );
        }
        const text = line.trim();
        if (text === "") continue;
        const parsed = callFromLine(text, request);
        if (parsed === null) return { kind: "text", text };
        if ("problem" in parsed) {
          options.refuse(parsed.problem);
          continue;
        }
        calls++;
        return { kind: "calls", calls: [{ id: `call_${calls}`, name: parsed.name, arguments: parsed.args }] };
      }
    },
  };
}

/** The user a person plays. */
export function createHumanUser(options: HumanRoleOptions): UserRole {
  return {
    id: HUMAN_ROLE_ID,
    respond: async (request): Promise<UserTurn> => {
      for (;;) {
        const line = await options.read("user> ", request.signal);
        if (line === null || line.trim() === QUIT_COMMAND) return { kind: "end_conversation" };
        const text = line.trim();
        if (text !== "") return { kind: "text", text };
      }
    },
  };
}

type ParsedCall =
  | { readonly name: string; readonly args: Readonly<Record<string, JsonValue>> }
  | { readonly problem: string }
  /** Not a call: a message for the user. */
  | null;

/**
 * A call line checked against the tools the agent may call, by the names it calls them by. A
 * misspelt tool or argument is refused before it reaches the run, as the person meant a call.
 */
function callFromLine(text: string, request: AgentRequest): ParsedCall {
  const tools = callableTools(request.scenario, "agent");
  const call = splitCallLine(text);
  if (call === null) {
    // `tool(...` naming a tool but never closed is a call gone wrong, not a message for the user.
    const opened = /^([A-Za-z_][A-Za-z0-9_]*)\s*\(/.exec(text);
    return opened && tools.has(opened[1]!) ? { problem: `${opened[1]}: the call is not closed (end it with ")")` } : null;
  }
  const tool = tools.get(call.name);
  if (tool === undefined) {
    return { problem: `${call.name} is not a tool the agent may call here.${didYouMean(closestMatch(call.name, tools.keys()))}` };
  }
  let args: Record<string, JsonValue>;
  try {
    args = parseArguments(call.argumentText);
  } catch (e) {
    if (e instanceof CallLineError) return { problem: `${call.name}: ${e.message}` };
    throw e;
  }
  const names = tool.parameters.map((p) => p.name);
  const unknown = Object.keys(args).find((k) => !names.includes(k));
  if (unknown !== undefined) {
    const known = names.length === 0 ? "it takes none" : `it takes ${names.join(", ")}`;
    return { problem: `${call.name} has no argument ${unknown} (${known}).${didYouMean(closestMatch(unknown, names))}` };
  }
  return { name: call.name, args };
}

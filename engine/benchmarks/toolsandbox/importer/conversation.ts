// The scripted messages of an exported scenario (its SANDBOX rows) as the format's `agent:` and
// `user:` sections. Upstream scripts, in order: the execution environment's import statement, the
// agent's system prompt, each user-simulator demonstration (a SYSTEM->USER instruction and its
// dialogue, visible to the user only), the user simulator's own instruction, and the user's first
// message. Anything else is reported, never dropped silently.
import type { JsonObject, JsonValue } from "../../../base/json.js";
import { DEFAULT_AGENT_SYSTEM_PROMPT } from "../../../scenario/prompts/prompts.js";
import type { ImportWarning } from "./warnings.js";

interface ConvertedConversation {
  readonly agent: JsonObject | null;
  readonly user: JsonObject;
}

const ROLE: Readonly<Record<string, string>> = {
  SYSTEM: "system",
  USER: "user",
  AGENT: "agent",
  EXECUTION_ENVIRONMENT: "execution_environment",
};

export function roleName(value: JsonValue | undefined): string | null {
  return typeof value === "string" ? (ROLE[value] ?? null) : null;
}

function text(row: JsonObject): string {
  return typeof row.content === "string" ? row.content : "";
}

function visibleOnlyToUser(row: JsonObject): boolean {
  return Array.isArray(row.visible_to) && row.visible_to.length === 1 && row.visible_to[0] === "USER";
}

export function convertConversation(
  scenario: string,
  rows: readonly JsonObject[],
  userInstruction: string | null,
  demonstrationNames: Readonly<Record<string, string>>,
  warnings: ImportWarning[],
): ConvertedConversation {
  const warn = (index: number, message: string): void => void warnings.push({ scenario, construct: `scripted message ${index}`, message });
  const goalOf = (content: string): string =>
    userInstruction !== null && content.startsWith(userInstruction) ? content.slice(userInstruction.length) : content;
  const nameOf = new Map(Object.entries(demonstrationNames).map(([name, first]) => [first, name]));
  let systemPrompt: string | null = null;
  let preambleUsed = false;
  const demonstrations: JsonObject[] = [];
  let current: { name: string; goal: string; messages: JsonObject[] } | null = null;
  let goal: string | null = null;
  let opening: string | null = null;
  rows.forEach((row, index) => {
    const sender = roleName(row.sender);
    const recipient = roleName(row.recipient);
    if (sender === "system" && recipient === "execution_environment") return; // tool imports: our environment has every tool
    if (sender === "system" && recipient === "agent") {
      systemPrompt = text(row);
      return;
    }
    if (sender === "system" && recipient === "user") {
      preambleUsed ||= userInstruction !== null && text(row).startsWith(userInstruction);
      if (visibleOnlyToUser(row)) {
        current = { name: nameOf.get(text(row)) ?? `demonstration_${demonstrations.length + 1}`, goal: goalOf(text(row)), messages: [] };
        demonstrations.push(current as unknown as JsonObject);
      } else {
        if (goal !== null) warn(index, "a second user-simulator instruction; only the last is kept as the goal");
        goal = goalOf(text(row));
        current = null;
      }
      return;
    }
    if (current !== null && visibleOnlyToUser(row) && sender !== null && recipient !== null) {
      (current as { messages: JsonObject[] }).messages.push({ sender, recipient, content: text(row) });
      return;
    }
    if (sender === "user" && recipient === "agent" && goal !== null && opening === null && row.visible_to === null) {
      opening = text(row);
      return;
    }
    warn(index, `a scripted ${String(row.sender)}->${String(row.recipient)} message the format has no place for; it is left out`);
  });
  if (goal === null || opening === null) {
    warnings.push({ scenario, construct: "scripted messages", message: "no user-simulator instruction and first user message were found" });
  }
  const user: JsonObject = {
    ...(preambleUsed && userInstruction !== null ? { preamble: userInstruction } : {}),
    goal: goal ?? "",
    demonstrations: demonstrations.map((d) => ({ ...d })),
    opening: opening ?? "",
  };
  const prompt = systemPrompt as string | null;
  return { agent: prompt === null || prompt === DEFAULT_AGENT_SYSTEM_PROMPT ? null : { system_prompt: prompt }, user };
}

// The prompt set an import writes beside the scenarios (toolsandbox-prompts.json): upstream's own
// texts, taken from the user's checkout at import time, never from this repository. With it the
// tool schemas and the messages sent to a model are upstream's (see engine/scenario/prompts/prompt-set.ts).
import type { JsonObject } from "../../../base/json.js";
import { PROMPT_SET_FORMAT } from "../../../scenario/prompts/prompt-set.js";
import { roleName } from "./conversation.js";
import type { ExportedSuite } from "./export-data.js";

function content(row: JsonObject): string {
  return typeof row.content === "string" ? row.content : "";
}

/** The SYSTEM->AGENT text most scenarios start with: upstream's agent system prompt. */
function agentSystemPrompt(suite: ExportedSuite): string | null {
  const counts = new Map<string, number>();
  for (const s of suite.scenarios) {
    const row = (s.tables.SANDBOX ?? []).find((r) => r.sender === "SYSTEM" && r.recipient === "AGENT");
    if (row) counts.set(content(row), (counts.get(content(row)) ?? 0) + 1);
  }
  return [...counts].sort((a, b) => b[1] - a[1])[0]?.[0] ?? null;
}

/** The named demonstrations every scenario shows the simulator, in their order: the default set. */
function defaultDemonstrations(suite: ExportedSuite): string[] | null {
  const byFirst = new Map(Object.entries(suite.demonstrationNames).map(([name, first]) => [first, name]));
  const perScenario = suite.scenarios.map((s) =>
    (s.tables.SANDBOX ?? []).filter((r) => r.sender === "SYSTEM" && r.recipient === "USER").flatMap((r) => byFirst.get(content(r)) ?? []),
  );
  const [first, ...rest] = perScenario;
  if (first === undefined) return null;
  const common = first.filter((name) => rest.every((names) => names.includes(name)));
  return common.length > 0 ? common : null;
}

/** The prompt set file's content. `source` says where the texts came from. */
export function promptSetJson(suite: ExportedSuite, source: string): string {
  const instruction = suite.userInstruction;
  const demonstrations: Record<string, JsonObject> = {};
  for (const [name, rows] of Object.entries(suite.demonstrations)) {
    const [opening, ...dialogue] = rows;
    if (opening === undefined) continue;
    const text = content(opening);
    demonstrations[name] = {
      goal: instruction !== null && text.startsWith(instruction) ? text.slice(instruction.length) : text,
      messages: dialogue.flatMap((row) => {
        const sender = roleName(row.sender);
        const recipient = roleName(row.recipient);
        return sender && recipient ? [{ sender, recipient, content: content(row) }] : [];
      }),
    };
  }
  const set = {
    format: PROMPT_SET_FORMAT,
    source,
    pack: "toolsandbox",
    agent_system_prompt: agentSystemPrompt(suite),
    user_preamble: instruction,
    demonstrations,
    default_demonstrations: defaultDemonstrations(suite),
    tools: suite.toolDocstrings,
  };
  return `${JSON.stringify(set, null, 2)}\n`;
}

// Hand-built scenarios for engine tests (no YAML loader involved).
import type { JsonValue } from "../../engine/base/json.js";
import type { Message, RoleName } from "../../engine/episode/types.js";
import { DEFAULT_AGENT_SYSTEM_PROMPT } from "../../engine/scenario/prompts/prompts.js";
import type { Demonstration, ReferenceCall, ReferenceStep, Scenario } from "../../engine/scenario/model.js";
import { defaultWorld } from "../../engine/packs/toolsandbox/default-world.js";
import type { CellValue, Tables } from "../../engine/world/types.js";

const NOW = 1_700_000_000;

interface ScenarioPatch {
  readonly reference?: readonly ReferenceStep[];
  readonly setting?: Readonly<Record<string, CellValue>>;
  readonly tables?: Tables;
  readonly allow?: readonly string[] | null;
  readonly deny?: readonly string[];
  readonly demonstrations?: readonly Demonstration[];
  readonly max_messages?: number;
  readonly invalid_tool_call?: "recover" | "end";
}

export function buildScenario(patch: ScenarioPatch = {}): Scenario {
  const base = patch.tables ?? defaultWorld(NOW);
  const tables: Tables = patch.setting ? { ...base, SETTING: base.SETTING!.map((row) => ({ ...row, ...patch.setting })) } : base;
  return {
    name: "fixture",
    description: "A scenario built by hand for engine tests.",
    categories: ["SINGLE_USER_TURN"],
    clock: { now: NOW, now_iso: "2023-11-14T14:13:20-08:00", timezone: "America/Los_Angeles" },
    world: { pack: "toolsandbox", tables },
    web: { places: [], weather: [], stocks: [], exchange_rates: { base: "USD", rates: {} } },
    tools: { allow: patch.allow === undefined ? null : patch.allow, deny: patch.deny ?? [] },
    agent: { system_prompt: DEFAULT_AGENT_SYSTEM_PROMPT },
    user: {
      goal: "Turn off wifi.",
      knowledge: [{ fact: "You want wifi off", value: null, reveal: "when_asked" }],
      demonstrations: patch.demonstrations ?? [],
      opening: "Please turn off my wifi.",
    },
    max_messages: patch.max_messages ?? 30,
    milestones: [],
    minefields: [],
    reference: patch.reference ?? [],
    options: { invalid_tool_call: patch.invalid_tool_call ?? "recover" },
  };
}

export const call = (id: string, tool: string, args: Readonly<Record<string, JsonValue>> = {}): ReferenceCall => ({
  id,
  tool,
  arguments: args,
});
export const calls = (...list: ReferenceCall[]): ReferenceStep => ({ kind: "agent_calls", calls: list });
export const agentSays = (text: string): ReferenceStep => ({ kind: "agent_text", text });
export const userSays = (text: string): ReferenceStep => ({ kind: "user_text", text });
export const endConversation: ReferenceStep = { kind: "end_conversation" };

/** A bus message with the defaults a role-written message gets (visible to its two ends, no call). */
export function busMessage(index: number, sender: RoleName, recipient: RoleName, content: string, extra: Partial<Message> = {}): Message {
  return {
    sandbox_message_index: index,
    sender,
    recipient,
    content,
    visible_to: [sender, recipient],
    conversation_active: true,
    openai_tool_call_id: null,
    openai_function_name: null,
    tool_call_exception: null,
    tool_trace: null,
    ...extra,
  };
}

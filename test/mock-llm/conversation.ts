// Hand-built OpenAI message histories, laid out as upstream ToolSandbox lays them out:
// - the agent (reference 4.4): its system prompt, the opening as "user", each agent turn as one
//   "assistant" message (parallel calls merged), each tool result as a "tool" message;
// - the user simulator (reference 1.6): one system message per demonstration followed by its
//   dialogue, then the real system message, with the roles reversed (the simulated user's own
//   words are "assistant", the agent's are "user"), tool traffic left out, and end_conversation
//   offered only when the agent has just spoken.
import OpenAI from "openai";
import type { ChatCompletionMessageParam, ChatCompletionTool } from "openai/resources/chat/completions";
import { toolsFor } from "../../engine/episode/tool-calls.js";
import { loadScenario } from "../../engine/runner/scenario-files.js";
import { renderUserSystemMessage } from "../../engine/scenario/prompts/prompts.js";
import type { ReferenceStep, Scenario } from "../../engine/scenario/model.js";
import { toolByName } from "../../engine/packs/toolsandbox/tools/catalog.js";
import { openAiToolSchema } from "../../engine/tools/openai-schema.js";

export function sampleScenario(name: string): Scenario {
  const loaded = loadScenario(`sample-scenarios/${name}.scenario.yaml`);
  if (!loaded.scenario) throw new Error(`sample scenario ${name} does not load`);
  return loaded.scenario;
}

export function client(url: string, maxRetries = 0): OpenAI {
  return new OpenAI({ baseURL: `${url}/v1`, apiKey: "test", maxRetries, timeout: 10_000 });
}

/** What the tool result says does not matter to the mock; it only has to be there. */
const TOOL_RESULT = "ok";

export function agentTools(scenario: Scenario, rename: (name: string) => string = (n) => n): ChatCompletionTool[] {
  return toolsFor(scenario, "agent").map((t) => {
    const schema = openAiToolSchema(t);
    return { ...schema, function: { ...schema.function, name: rename(t.name) } };
  });
}

export function endConversationTool(): ChatCompletionTool[] {
  const tool = toolByName("end_conversation");
  if (!tool) throw new Error("end_conversation is not in the catalog");
  return [openAiToolSchema(tool)];
}

/** The agent's view after the given reference steps were played. */
export function agentHistory(
  scenario: Scenario,
  played: readonly ReferenceStep[],
  rename: (name: string) => string = (n) => n,
): ChatCompletionMessageParam[] {
  const messages: ChatCompletionMessageParam[] = [
    { role: "system", content: scenario.agent.system_prompt },
    { role: "user", content: scenario.user.opening },
  ];
  for (const step of played) {
    if (step.kind === "agent_text") messages.push({ role: "assistant", content: step.text });
    else if (step.kind === "user_text") messages.push({ role: "user", content: step.text });
    else if (step.kind === "agent_calls") {
      messages.push({
        role: "assistant",
        content: null,
        tool_calls: step.calls.map((c) => ({
          id: c.id,
          type: "function",
          function: { name: rename(c.tool), arguments: JSON.stringify(c.arguments) },
        })),
      });
      for (const c of step.calls) messages.push({ role: "tool", tool_call_id: c.id, content: TOOL_RESULT });
    }
  }
  return messages;
}

/** The user simulator's view after the given reference steps were played. */
export function userHistory(scenario: Scenario, played: readonly ReferenceStep[]): ChatCompletionMessageParam[] {
  const messages: ChatCompletionMessageParam[] = [];
  for (const demo of scenario.user.demonstrations) {
    messages.push({ role: "system", content: renderUserSystemMessage(demo.goal, []) });
    for (const m of demo.messages) messages.push({ role: m.sender === "user" ? "assistant" : "user", content: m.content });
  }
  messages.push({ role: "system", content: renderUserSystemMessage(scenario.user.goal, scenario.user.knowledge) });
  messages.push({ role: "assistant", content: scenario.user.opening });
  for (const step of played) {
    if (step.kind === "agent_text") messages.push({ role: "user", content: step.text });
    else if (step.kind === "user_text") messages.push({ role: "assistant", content: step.text });
  }
  return messages;
}

// The agent played by a model behind an OpenAI-compatible chat-completions endpoint (upstream
// OpenAIAPIAgent): the visible history, the scenario's tools as function schemas (scrambled as the
// scenario's augmentations say), and native tool calls back, several at once for parallel calls.
import type { ToolCall } from "../../episode/types.js";
import { isJsonObject } from "../../base/json.js";
import { packById } from "../../packs/registry.js";
import type { Scenario } from "../../scenario/model.js";
import type { OpenAiToolSchema } from "../../tools/openai-schema.js";
import { agentToolSchemas } from "../../scenario/augmentations/scrambling.js";
import type { AgentRequest, AgentRole, AgentTurn } from "../../episode/role.js";
import { toAgentMessages } from "./agent-messages.js";
import { ChatModel, type ChatModelOptions } from "./chat-model.js";
import type { AssistantToolCall } from "./response.js";
import { openAiRoleId, type ModelSettings } from "./settings.js";

/** A role's endpoint: its settings and key (a model of its own), or a model shared with other roles of the same settings. */
export type ModelRoleOptions = ChatModelOptions | ChatModel;

/** Per scenario, the schemas its agent is shown: every turn of every trial offers the same tools, and building them parses each docstring. */
const schemasByScenario = new WeakMap<Scenario, { readonly names: string; readonly schemas: OpenAiToolSchema[] }>();

function toolSchemas(request: AgentRequest): OpenAiToolSchema[] {
  const names = request.tools.map((t) => t.name).join("\n");
  const known = schemasByScenario.get(request.scenario);
  if (known?.names === names) return known.schemas;
  const schemas = agentToolSchemas(
    request.tools,
    request.scenario.options.augmentations ?? [],
    packById(request.scenario.world.pack).tools,
    request.scenario.tools.descriptions,
  );
  schemasByScenario.set(request.scenario, { names, schemas });
  return schemas;
}

export class OpenAiAgent implements AgentRole {
  readonly id: string;
  readonly settings: ModelSettings;
  private readonly model: ChatModel;
  /** Calls answered so far; numbers the ids of calls a server sent without one. */
  private callCount = 0;

  constructor(options: ModelRoleOptions) {
    this.model = options instanceof ChatModel ? options : new ChatModel(options);
    this.settings = this.model.settings;
    this.id = openAiRoleId(this.settings);
  }

  async respond(request: AgentRequest): Promise<AgentTurn> {
    const tools = toolSchemas(request);
    const reply = await this.model.complete(
      `agent ${this.id}`,
      toAgentMessages(request.messages),
      tools,
      request.signal,
      request.onModelCall,
    );
    // As upstream, text that comes with tool calls is not passed on: the calls are the turn.
    if (reply.toolCalls.length === 0) return { kind: "text", text: reply.content ?? "" };
    return { kind: "calls", calls: reply.toolCalls.map((call) => this.toolCall(call)) };
  }

  /**
   * The raw argument text is kept, so arguments that are not a JSON object reach the engine's
   * invalid-call handling as the model wrote them. Blank arguments, which some local servers send
   * for a call without arguments, count as none.
   */
  private toolCall(call: AssistantToolCall): ToolCall {
    this.callCount++;
    const id = call.id !== "" ? call.id : `call_${this.callCount}`;
    let parsed: unknown;
    try {
      parsed = call.arguments.trim() === "" ? {} : JSON.parse(call.arguments);
    } catch {
      parsed = undefined;
    }
    return { id, name: call.name, raw_arguments: call.arguments, ...(isJsonObject(parsed) ? { arguments: parsed } : {}) };
  }
}

// The user simulator played by a model behind an OpenAI-compatible endpoint (upstream
// OpenAIAPIUser, reference 1.6): the prompt the scenario built (instruction, goal, knowledge and
// demonstrations, as system messages) with the roles reversed, and end_conversation as its only
// tool once the agent has spoken.
import type { ModelSettings } from "../../episode/types.js";
import type { UserRequest, UserRole, UserTurn } from "../../episode/role.js";
import { RoleError } from "../../episode/role.js";
import type { ModelRoleOptions } from "./agent.js";
import { ChatModel } from "./chat-model.js";
import { openAiRoleId } from "./settings.js";
import { packById } from "../../packs/registry.js";
import { END_CONVERSATION, toUserSimulatorMessages, userSimulatorTools } from "./user-messages.js";

export class OpenAiUser implements UserRole {
  readonly id: string;
  readonly settings: ModelSettings;
  private readonly model: ChatModel;

  constructor(options: ModelRoleOptions) {
    this.model = options instanceof ChatModel ? options : new ChatModel(options);
    this.settings = this.model.settings;
    this.id = openAiRoleId(this.settings);
  }

  async respond(request: UserRequest): Promise<UserTurn> {
    const tools = userSimulatorTools(request.messages, packById(request.scenario.world.pack), request.scenario.tools.descriptions);
    const reply = await this.model.complete(
      `user ${this.id}`,
      toUserSimulatorMessages(request.messages),
      tools,
      request.signal,
      request.onModelCall,
    );
    if (reply.toolCalls.length === 0) return { kind: "text", text: reply.content ?? "" };
    const other = reply.toolCalls.find((call) => call.name !== END_CONVERSATION || tools.length === 0);
    if (other) {
      const offered = tools.length === 0 ? "no tool was offered" : `only ${END_CONVERSATION} was offered`;
      throw new RoleError(`user ${this.id}: the simulator called ${JSON.stringify(other.name)}, but ${offered}`);
    }
    return { kind: "end_conversation" };
  }
}

// One episode's world as an MCP server: the scenario's agent tools, named and described exactly as
// the in-process model agent is shown them (the prompt set and augmentations applied), plus the
// conversation: `send_message_to_user`, `get_user_message`, and the opening as a prompt. Every
// tool call becomes a request on the episode's bus through the McpAgentRole; the server only
// translates. The contract is docs/agents.md.
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv";
import {
  CallToolRequestSchema,
  type CallToolResult,
  GetPromptRequestSchema,
  type GetPromptResult,
  ListPromptsRequestSchema,
  ListToolsRequestSchema,
  McpError,
  ErrorCode,
  type Tool,
} from "@modelcontextprotocol/sdk/types.js";
import { isJsonObject, jsonTextOfDeep } from "../../base/json.js";
import { toolsFor } from "../../episode/tool-calls.js";
import { packById } from "../../packs/registry.js";
import { agentToolSchemas } from "../../scenario/augmentations/scrambling.js";
import type { Scenario } from "../../scenario/model.js";
import { agentSystemMessage } from "../../scenario/prompts/persona-prompt.js";
import type { McpAgentRole, McpAnswer } from "./agent.js";
import { GET_USER_MESSAGE_TOOL, OPENING_PROMPT, SEND_MESSAGE_TOOL } from "./conversation-tools.js";

/**
 * One schema validator for every episode's server. The SDK's Server makes its own by default, a
 * fresh Ajv instance with its formats, which cost more than the rest of an episode's set-up; the
 * server only uses it for elicitation, which ours never asks for, and it holds no episode's state.
 */
let validator: AjvJsonSchemaValidator | null = null;
const sharedValidator = (): AjvJsonSchemaValidator => {
  validator ??= new AjvJsonSchemaValidator();
  return validator;
};

export { SEND_MESSAGE_TOOL };
/** `_meta` key of a tools/call request by which a client may choose the call's id (it appears in the trajectory). */
export const CALL_ID_META = "toolsandbox/call_id";

const CONVERSATION_TOOLS: readonly Tool[] = [
  {
    name: SEND_MESSAGE_TOOL,
    description:
      "Send a message to the user and wait for their reply. Returns what the user says next, or tells you that the user ended the conversation. This is the only way the user sees anything you write.",
    inputSchema: {
      type: "object",
      properties: { content: { type: "string", description: "The message for the user." } },
      required: ["content"],
    },
  },
  {
    name: GET_USER_MESSAGE_TOOL,
    description: "Get the user's latest message to you. At the start of the conversation this is the user's request.",
    inputSchema: { type: "object", properties: {} },
  },
];

/** The tools the agent is shown, as MCP tools: the same names, descriptions and parameter schemas as the model agent's. */
function scenarioMcpTools(scenario: Scenario): Tool[] {
  const schemas = agentToolSchemas(
    toolsFor(scenario, "agent"),
    scenario.options.augmentations ?? [],
    packById(scenario.world.pack).tools,
    scenario.tools.descriptions,
  );
  return schemas.map((s) => ({ name: s.function.name, description: s.function.description, inputSchema: s.function.parameters }));
}

/** What the server tells a client when it connects: the scenario's system prompt, then how the conversation works. */
function serverInstructions(scenario: Scenario, conversation: EpisodeServerOptions["conversation"] = "mcp"): string {
  if (conversation === "outside")
    return [
      agentSystemMessage(scenario.agent),
      "",
      "The user talks to you outside this server; your reply to each of their messages is what they see. Use these tools to act.",
    ].join("\n");
  return [
    agentSystemMessage(scenario.agent),
    "",
    `You are talking with a user. Their first message is the prompt "${OPENING_PROMPT}" (also returned by the tool ${GET_USER_MESSAGE_TOOL}).`,
    `Use the other tools to act; the user sees only what you send with ${SEND_MESSAGE_TOOL}, which returns their reply.`,
    "The conversation ends when the user ends it.",
  ].join("\n");
}

function answerResult(answer: McpAnswer): CallToolResult {
  switch (answer.kind) {
    case "result":
      return { content: [{ type: "text", text: answer.text }], ...(answer.error ? { isError: true } : {}) };
    case "reply":
      return { content: [{ type: "text", text: answer.text }] };
    case "ended":
      // The user's end is a normal answer to the message it replies to; every other request it refuses.
      return { content: [{ type: "text", text: answer.text }], ...(answer.refused ? { isError: true } : {}) };
  }
}

interface EpisodeServerOptions {
  /**
   * "mcp" (default): the conversation goes through the server's own tools and prompt. "outside": it
   * goes another way (A2A, runner/a2a-agent.ts) and the server lists the scenario's tools only.
   */
  readonly conversation?: "mcp" | "outside";
}

/** A new MCP server (not yet connected) that plays `agent`'s side of the episode of `scenario`. */
export function createEpisodeServer(scenario: Scenario, agent: McpAgentRole, options: EpisodeServerOptions = {}): Server {
  const conversation = options.conversation ?? "mcp";
  const tools = scenarioMcpTools(scenario);
  const clash = conversation === "mcp" ? tools.find((t) => CONVERSATION_TOOLS.some((c) => c.name === t.name)) : undefined;
  if (clash) throw new Error(`the scenario has a tool named ${clash.name}, which is the conversation's own`);
  const server = new Server(
    { name: "toolsandbox", version: "1" },
    {
      capabilities: conversation === "mcp" ? { tools: {}, prompts: {} } : { tools: {} },
      instructions: serverInstructions(scenario, conversation),
      jsonSchemaValidator: sharedValidator(),
    },
  );
  const allTools = conversation === "mcp" ? [...tools, ...CONVERSATION_TOOLS] : tools;

  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: allTools }));

  server.setRequestHandler(CallToolRequestSchema, async (request): Promise<CallToolResult> => {
    const { name } = request.params;
    // Validated here, where the request enters: the SDK hands over whatever the client sent.
    const given: unknown = request.params.arguments;
    if (conversation === "mcp" && name === GET_USER_MESSAGE_TOOL) {
      // After the end it is refused as every other request is, instead of repeating the last message.
      const over = agent.afterEnd;
      if (over) return answerResult(over);
      return { content: [{ type: "text", text: agent.userMessage ?? scenario.user.opening }] };
    }
    if (conversation === "mcp" && name === SEND_MESSAGE_TOOL) {
      const content = isJsonObject(given) ? given.content : undefined;
      if (typeof content !== "string") {
        return {
          content: [{ type: "text", text: `${SEND_MESSAGE_TOOL} needs "content", the message for the user, as a string` }],
          isError: true,
        };
      }
      return answerResult(await agent.sendMessage(content));
    }
    const meta: unknown = request.params._meta;
    const requestedId = isJsonObject(meta) && typeof meta[CALL_ID_META] === "string" ? (meta[CALL_ID_META] as string) : undefined;
    // Arguments that are not an object reach the episode as they are, to get the in-process error text.
    const args = given === undefined ? undefined : isJsonObject(given) ? given : undefined;
    // jsonTextOfDeep, not JSON.stringify: arguments nested thousands of levels deep overflow the latter.
    const raw = given !== undefined && !isJsonObject(given) ? jsonTextOfDeep(given) : undefined;
    return answerResult(await agent.call(name, args, requestedId, raw));
  });

  if (conversation !== "mcp") return server;

  server.setRequestHandler(ListPromptsRequestSchema, () => ({
    prompts: [{ name: OPENING_PROMPT, description: "The user's first message: the conversation starts here." }],
  }));

  server.setRequestHandler(GetPromptRequestSchema, (request): GetPromptResult => {
    if (request.params.name !== OPENING_PROMPT) throw new McpError(ErrorCode.InvalidParams, `no prompt named ${request.params.name}`);
    return {
      description: "The user's first message",
      messages: [{ role: "user", content: { type: "text", text: scenario.user.opening } }],
    };
  });

  return server;
}

// An agent built with the OpenAI Agents SDK, played through a scenario with
//   toolsandbox run <scenarios> --agent "cmd:node --import tsx examples/agents/openai-agents.ts" --out runs/agents-sdk
// Its tools come from the episode's MCP server (TOOLSANDBOX_MCP_URL), its model from an
// OpenAI-compatible endpoint (OPENAI_BASE_URL, OPENAI_API_KEY, OPENAI_MODEL), through the
// Responses API, the SDK's default. The SDK's loop calls tools until the model answers in text;
// the user sees only what goes through send_message_to_user, so text the model ends a run with is
// sent there too, and the user's reply starts the next run. It stops when the user ends the
// conversation.
import OpenAI from "openai";
import {
  Agent,
  type AgentInputItem,
  MCPServerStreamableHttp,
  run,
  setDefaultOpenAIClient,
  setTracingDisabled,
  type ToolsToFinalOutputResult,
} from "@openai/agents";

const SEND_MESSAGE = "send_message_to_user";
const USER_ENDED = "The user ended the conversation";

const INSTRUCTIONS = [
  "You are a helpful assistant with tools that act on the user's phone.",
  `The user sees only what you send with the ${SEND_MESSAGE} tool, which returns their reply.`,
  "Ask them when you need more information; tell them when you are done.",
].join("\n");

async function main(): Promise<void> {
  const url = process.env.TOOLSANDBOX_MCP_URL;
  if (!url) throw new Error("TOOLSANDBOX_MCP_URL is not set: start this agent with toolsandbox run --agent cmd:...");
  // Traces would go to OpenAI's servers; this agent keeps everything on its own endpoint.
  setTracingDisabled(true);
  setDefaultOpenAIClient(new OpenAI({ baseURL: process.env.OPENAI_BASE_URL, apiKey: process.env.OPENAI_API_KEY }));

  // A reply may take the simulated user a while: allow more than the SDK's 5 s per request.
  const server = new MCPServerStreamableHttp({ url, name: "toolsandbox", cacheToolsList: true, clientSessionTimeoutSeconds: 600 });
  await server.connect();
  try {
    const opening = process.env.TOOLSANDBOX_OPENING ?? textOf(await server.callTool("get_user_message", {}));
    let ended = false;
    const agent = new Agent({
      name: "toolsandbox-agent",
      instructions: INSTRUCTIONS,
      model: process.env.OPENAI_MODEL ?? "gpt-4o",
      mcpServers: [server],
      // Stop the run as soon as the user has ended the conversation, without asking the model again.
      toolUseBehavior: (_context, results): ToolsToFinalOutputResult => {
        ended ||= results.some(
          (r) => r.type === "function_output" && r.tool.name === SEND_MESSAGE && textOf(r.output).startsWith(USER_ENDED),
        );
        return ended
          ? { isFinalOutput: true, isInterrupted: undefined, finalOutput: USER_ENDED }
          : { isFinalOutput: false, isInterrupted: undefined };
      },
    });
    let input: AgentInputItem[] = [{ role: "user", content: opening }];
    while (!ended) {
      const result = await run(agent, input, { maxTurns: 100 });
      if (ended) break;
      // The model finished in text: that text is for the user, and their reply goes on.
      const reply = textOf(await server.callTool(SEND_MESSAGE, { content: String(result.finalOutput ?? "") }));
      ended = reply.startsWith(USER_ENDED);
      input = [...result.history, { role: "user", content: reply }];
    }
  } finally {
    await server.close();
  }
}

/** The text of an MCP tool result, whether the SDK hands over the content list, one item, or a string. */
function textOf(output: unknown): string {
  if (typeof output === "string") return output;
  if (Array.isArray(output)) return output.map(textOf).join("");
  if (output !== null && typeof output === "object" && "text" in output && typeof output.text === "string") return output.text;
  return JSON.stringify(output);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : String(error));
  process.exit(1);
});

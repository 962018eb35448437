// An agent built with the Vercel AI SDK (5.x), played through a scenario with
//   toolsandbox run <scenarios> --agent "cmd:node --import tsx examples/agents/ai-sdk.ts" --out runs/ai-sdk
// Its tools come from the episode's MCP server (TOOLSANDBOX_MCP_URL, through @ai-sdk/mcp's
// Streamable HTTP client), its model from an OpenAI-compatible endpoint (OPENAI_BASE_URL,
// OPENAI_API_KEY, OPENAI_MODEL), streamed as chat completions. streamText calls tools until the
// model answers in text; the user sees only what goes through send_message_to_user, so text the
// model ends with is sent there too, and the user's reply starts the next round. It stops when the
// user ends the conversation.
import { experimental_createMCPClient as createMCPClient } from "@ai-sdk/mcp";
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import { type ModelMessage, stepCountIs, streamText, type ToolSet } from "ai";

const SEND_MESSAGE = "send_message_to_user";
const USER_ENDED = "The user ended the conversation";

const SYSTEM = [
  "You are a helpful assistant with tools that act on the user's phone.",
  `The user sees only what you send with the ${SEND_MESSAGE} tool, which returns their reply.`,
  "Ask them when you need more information; tell them when you are done.",
].join("\n");

async function main(): Promise<void> {
  const url = process.env.TOOLSANDBOX_MCP_URL;
  if (!url) throw new Error("TOOLSANDBOX_MCP_URL is not set: start this agent with toolsandbox run --agent cmd:...");
  const endpoint = createOpenAICompatible({
    name: "endpoint",
    baseURL: process.env.OPENAI_BASE_URL ?? "https://api.openai.com/v1",
    apiKey: process.env.OPENAI_API_KEY,
    includeUsage: true,
  });
  const model = endpoint.chatModel(process.env.OPENAI_MODEL ?? "gpt-4o");
  const mcp = await createMCPClient({ transport: { type: "http", url }, name: "ai-sdk-agent" });
  try {
    // @ai-sdk/mcp 0.0.x is typed against its own copy of @ai-sdk/provider-utils 3.0; the tools fit at run time.
    const tools = (await mcp.tools()) as ToolSet;
    const send = tools[SEND_MESSAGE];
    if (!send) throw new Error(`the MCP server offers no ${SEND_MESSAGE} tool`);
    const opening = process.env.TOOLSANDBOX_OPENING ?? textOf(await mcp.getPrompt({ name: "start_conversation" }));
    const messages: ModelMessage[] = [{ role: "user", content: opening }];
    let ended = false;
    while (!ended) {
      let failure: unknown = null;
      const result = streamText({
        model,
        system: SYSTEM,
        messages,
        tools,
        // Stop once the user has ended the conversation, without asking the model again.
        stopWhen: [
          ({ steps }) => (ended ||= steps.some((s) => s.toolResults.some((r) => r.toolName === SEND_MESSAGE && userEnded(r.output)))),
          stepCountIs(100),
        ],
        onError: ({ error }) => {
          failure = error;
        },
      });
      // A failed stream rejects with "no output"; the error behind it is the one to report.
      const text = await result.text.catch((error: unknown) => {
        throw failure ?? error;
      });
      if (failure !== null) throw failure;
      messages.push(...(await result.response).messages);
      if (ended) break;
      // The model finished in text: that text is for the user, and their reply goes on.
      const reply = textOf(await send.execute?.({ content: text }, { toolCallId: "final-text", messages }));
      ended = reply.startsWith(USER_ENDED);
      messages.push({ role: "user", content: reply });
    }
  } finally {
    await mcp.close();
  }
}

const userEnded = (output: unknown): boolean => textOf(output).startsWith(USER_ENDED);

/** The text of an MCP result (a tool's `content` list, or a prompt's messages). */
function textOf(value: unknown): string {
  if (typeof value === "string") return value;
  if (Array.isArray(value)) return value.map(textOf).join("");
  if (value === null || typeof value !== "object") return "";
  if ("text" in value && typeof value.text === "string") return value.text;
  if ("content" in value) return textOf(value.content);
  if ("messages" in value) return textOf(value.messages);
  return "";
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : String(error));
  process.exit(1);
});

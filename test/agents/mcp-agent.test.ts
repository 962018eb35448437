// McpAgentRole inside an Episode, without a transport: which requests become one turn, what each
// request is answered with, and what happens after the end.
import { test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { Episode } from "../../engine/episode/episode.js";
import { McpAgentRole } from "../../engine/roles/mcp/agent.js";
import { createScriptedUser } from "../../engine/roles/scripted.js";
import type { Message } from "../../engine/episode/types.js";
import { loadSample, SAMPLES } from "./helpers.js";

const CELLULAR = loadSample(join(SAMPLES, "cellular_off_adapted.scenario.yaml"));

function episodeWith(agent: McpAgentRole): { episode: Episode; played: Promise<void> } {
  const episode = new Episode({ scenario: CELLULAR, agent, user: createScriptedUser(CELLULAR), seed: 0 });
  return { episode, played: episode.run() };
}

const routes = (messages: readonly Message[]): string[] => messages.filter((m) => !m.scripted).map((m) => `${m.sender}->${m.recipient}`);

test("calls within the window are one turn; a message for the user sent with them is the next turn; the reply answers it", async () => {
  const agent = new McpAgentRole({ id: "mcp", batchWindowMs: 20 });
  const { episode, played } = episodeWith(agent);
  const first = agent.call("set_cellular_service_status", { on: false });
  const second = agent.call("set_cellular_service_status", { on: false }, "mine");
  const message = agent.sendMessage("Cellular service is now turned off.");
  const [a, b, reply] = await Promise.all([first, second, message]);
  assert.equal(a.kind, "result");
  assert.equal(b.kind, "result");
  // The scripted user has said everything: it ends the conversation.
  assert.equal(reply.kind, "ended");
  assert.match(reply.kind === "ended" ? reply.text : "", /^The user ended the conversation/);
  await played;
  assert.deepEqual(routes(episode.messages).slice(0, 5), [
    "agent->execution_environment",
    "agent->execution_environment",
    "execution_environment->agent",
    "execution_environment->agent",
    "agent->user",
  ]);
  assert.deepEqual(
    episode.messages.filter((m) => m.sender === "agent" && m.recipient === "execution_environment").map((m) => m.tool_call?.id),
    ["call_1", "mine"],
  );
  // After the end every request is answered with it at once.
  const late = await agent.call("set_cellular_service_status", { on: true });
  assert.deepEqual(late.kind, "ended");
});

test("calls further apart than the window are separate turns", async () => {
  const agent = new McpAgentRole({ id: "mcp", batchWindowMs: 5 });
  const { episode, played } = episodeWith(agent);
  await agent.call("set_cellular_service_status", { on: false });
  await agent.call("set_cellular_service_status", { on: false });
  agent.stop("agent_disconnected", "gone");
  await played;
  assert.deepEqual(routes(episode.messages), [
    "agent->execution_environment",
    "execution_environment->agent",
    "agent->execution_environment",
    "execution_environment->agent",
  ]);
  assert.deepEqual(episode.ended, { reason: "agent_disconnected", detail: "gone" });
});

test("a request waiting when the time limit ends the episode is answered with the end", async () => {
  const agent = new McpAgentRole({ id: "mcp" });
  const { played } = episodeWith(agent);
  const message = agent.sendMessage("Hello?");
  // Stopped before the episode has taken the message: it is never played, and is answered with the end.
  agent.stop("timed_out", "the agent ran past the time limit of 1 s");
  await played;
  const answer = await message;
  assert.equal(answer.kind, "ended");
  assert.match(answer.kind === "ended" ? answer.text : "", /timed_out \(the agent ran past the time limit of 1 s\)/);
});

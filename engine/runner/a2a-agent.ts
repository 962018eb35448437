// `run --agent a2a:<url>`: per episode, the episode's world as an MCP server on 127.0.0.1 (the
// scenario's tools only: the conversation goes over A2A) and the simulated user's side of an A2A
// conversation with the remote agent (roles/a2a/conversation.ts): the opening, then each reply of
// the user, sent as A2A messages of one context; each answer's text is the agent's message to the
// user, put on the bus through the episode's McpAgentRole as an MCP agent's message would be. The
// episode itself is played by playEpisode like any other. Each A2A request is the agent's model call
// in the trajectory (latency, and usage when the agent reports it). An agent that cannot be reached
// ends the episode as agent_disconnected, one that answers with an error or fails its task as
// role_error, one that runs past the time limit as timed_out.
import type { McpAgentRole } from "../roles/mcp/agent.js";
import type { A2aConversation } from "../roles/a2a/conversation.js";
import type { AgentHostContext, HostedAgent, McpAgentHost } from "./agent-host.js";
import type { BatchJob } from "./jobs.js";

interface A2aAgentSpec {
  /** The agent's base URL, or its card's URL. */
  readonly url: string;
  /** Seconds an episode may take before it ends as timed_out. */
  readonly timeLimitSeconds: number;
  readonly recordIo: boolean;
}

export function a2aAgentHost(spec: A2aAgentSpec): McpAgentHost {
  return {
    async attach(agent: McpAgentRole, job: BatchJob, context: AgentHostContext): Promise<HostedAgent> {
      // Loaded on first use, as for command agents: the MCP server side and the A2A client would
      // cost every other run of the CLI its start-up.
      const [{ serveMcpSessionsOverHttp }, { createEpisodeServer }, { A2aConversation }] = await Promise.all([
        import("../roles/mcp/http.js"),
        import("../roles/mcp/server.js"),
        import("../roles/a2a/conversation.js"),
      ]);
      const endpoint = await serveMcpSessionsOverHttp(() => createEpisodeServer(job.scenario, agent, { conversation: "outside" }), {
        port: 0,
      });
      const stop = new AbortController();
      const signal = AbortSignal.any([stop.signal, context.signal]);
      const timer = setTimeout(() => {
        agent.stop("timed_out", `the A2A agent ran past the time limit of ${spec.timeLimitSeconds} s`);
        stop.abort();
      }, spec.timeLimitSeconds * 1000);
      // Whatever ends the episode (the user, the message budget, an error) ends the conversation too.
      agent.onEnd(() => stop.abort());
      const conversation = new A2aConversation({ url: spec.url, mcpUrl: endpoint.url, recordIo: spec.recordIo });
      const talking = converse(agent, conversation, job.scenario.user.opening, signal);

      let closed: Promise<void> | null = null;
      const close = async (): Promise<void> => {
        clearTimeout(timer);
        stop.abort();
        await talking;
        await endpoint.close();
      };
      return {
        close: () => {
          closed ??= close();
          return closed;
        },
      };
    },
  };
}

/** The user's side of the A2A conversation, until the episode or the agent ends it. Never throws. */
async function converse(agent: McpAgentRole, conversation: A2aConversation, opening: string, signal: AbortSignal): Promise<void> {
  let said = opening;
  const stopped = aborted(signal);
  while (!signal.aborted) {
    const answer = await conversation.send(said, signal);
    // Aborted: the episode has its end already (or is being cancelled); nothing more goes on the bus.
    if (signal.aborted) return;
    if (answer.call) agent.reportModelCall(answer.call);
    if (answer.kind === "failed") {
      agent.stop(answer.reason, answer.detail);
      return;
    }
    // Answered with the user's reply or the end; the race only matters when the engine failed and no end will come.
    const next = await Promise.race([agent.sendMessage(answer.text), stopped]);
    if (next === null || next.kind !== "reply") return;
    said = next.text;
  }
}

/** Resolves with null once `signal` aborts. */
function aborted(signal: AbortSignal): Promise<null> {
  return new Promise((resolve) => {
    if (signal.aborted) resolve(null);
    else signal.addEventListener("abort", () => resolve(null), { once: true });
  });
}

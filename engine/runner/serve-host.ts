// `toolsandbox serve`: the episode's MCP server for a client that comes by itself (an editor's agent,
// a framework's agent, a test), over stdio or over Streamable HTTP on 127.0.0.1. The client going
// away (stdin closed, session ended, connection dropped) ends the episode as agent_disconnected;
// the time limit, when there is one, as timed_out.
import type { McpAgentRole } from "../roles/mcp/agent.js";
import type { HostedAgent, McpAgentHost } from "./agent-host.js";
import type { BatchJob } from "./jobs.js";

interface ServeHostOptions {
  /** "stdio", or the port to listen on (0: a free one). */
  readonly transport: "stdio" | { readonly port: number };
  /** Seconds from the start until the episode ends as timed_out; null: no limit. */
  readonly timeLimitSeconds: number | null;
  /** Told the endpoint once it listens (HTTP only). */
  readonly onListening?: (url: string) => void;
  /** The streams of --stdio (default: the process's own). */
  readonly stdin?: NodeJS.ReadableStream & { on(event: "end" | "close", listener: () => void): unknown };
  readonly stdout?: NodeJS.WritableStream;
}

/** After the end, how long the last answers get to reach the client before the endpoint closes. */
const LINGER_MS = 300;

export function serveHost(options: ServeHostOptions): McpAgentHost {
  return {
    async attach(agent: McpAgentRole, job: BatchJob): Promise<HostedAgent> {
      // Loaded on first use, so the CLI's other commands do not pay for the MCP SDK at start-up.
      const [{ serveMcpOverHttp }, { createEpisodeServer }] = await Promise.all([
        import("../roles/mcp/http.js"),
        import("../roles/mcp/server.js"),
      ]);
      const server = createEpisodeServer(job.scenario, agent);
      const timer =
        options.timeLimitSeconds === null
          ? null
          : setTimeout(
              () => agent.stop("timed_out", `the agent ran past the time limit of ${options.timeLimitSeconds} s`),
              options.timeLimitSeconds * 1000,
            );
      let close: () => Promise<void>;
      if (options.transport === "stdio") {
        const stdin = options.stdin ?? process.stdin;
        const { StdioServerTransport } = await import("@modelcontextprotocol/sdk/server/stdio.js");
        const transport = new StdioServerTransport(stdin as NodeJS.ReadStream, (options.stdout ?? process.stdout) as NodeJS.WriteStream);
        const gone = (): void => agent.stop("agent_disconnected", "the client closed the connection (stdin)");
        stdin.on("end", gone);
        stdin.on("close", gone);
        await server.connect(transport);
        close = async () => {
          await server.close().catch(() => undefined);
        };
      } else {
        const endpoint = await serveMcpOverHttp(server, {
          port: options.transport.port,
          onDisconnect: (why) => agent.stop("agent_disconnected", why),
        });
        options.onListening?.(endpoint.url);
        close = () => endpoint.close();
      }
      let closed: Promise<void> | null = null;
      return {
        close: () => {
          if (timer) clearTimeout(timer);
          closed ??= new Promise<void>((resolve) => setTimeout(resolve, LINGER_MS)).then(close);
          return closed;
        },
      };
    },
  };
}

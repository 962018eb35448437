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
  readonly stdin?: NodeJS.ReadableStream;
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
        const stdout = options.stdout ?? process.stdout;
        let stdinOver = false;
        const gone = (): void => {
          stdinOver = true;
          agent.stop("agent_disconnected", "the client closed the connection (stdin)");
        };
        stdin.on("end", gone);
        stdin.on("close", gone);
        stdin.on("error", (error: Error) => {
          stdinOver = true;
          agent.stop("agent_disconnected", `the connection failed (stdin: ${errorText(error)})`);
        });
        // A client that stops reading makes our writes fail (EPIPE); unheard, that error would end the process.
        stdout.on("error", (error: Error) => agent.stop("agent_disconnected", `the client stopped reading (stdout: ${errorText(error)})`));
        // The SDK's transport also closes by itself, on a line it cannot buffer: the episode ends
        // then too, with what it reported last, or it would wait for a client that can no longer reach it.
        let lastError: string | null = null;
        server.onerror = (error) => {
          lastError = errorText(error);
        };
        server.onclose = () => {
          if (!stdinOver) agent.stop("role_error", `the MCP transport closed: ${lastError ?? "for no reason it gave"}`);
        };
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

/** The SDK's words for its read buffer's overflow, said the way our lines say things. */
function errorText(error: Error): string {
  const overflow = /ReadBuffer exceeded maximum size of (\d+) bytes/.exec(error.message);
  if (overflow) return `the client sent a message longer than ${overflow[1]} bytes, more than the MCP SDK's stdio transport reads`;
  return error.message;
}

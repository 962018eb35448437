// An episode's MCP server over Streamable HTTP, on 127.0.0.1 only, at /mcp. serveMcpOverHttp: one
// session (the episode's agent). serveMcpSessionsOverHttp: any number of sessions, one server each,
// for an agent that connects anew per request it serves (A2A); none of them going away ends anything.
//
// serveMcpOverHttp: A client that ends its session (HTTP DELETE), drops the connection of a request
// it is still waiting on, or closes its event stream (GET) has gone away: `onDisconnect` says so,
// and the episode ends. A client that holds no stream and just stops calling is only caught by the
// time limit.
import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";

const MCP_PATH = "/mcp";

interface McpHttpEndpoint {
  /** The Streamable HTTP endpoint, e.g. http://127.0.0.1:40123/mcp. */
  readonly url: string;
  readonly port: number;
  close(): Promise<void>;
}

interface McpHttpOptions {
  /** 0 picks a free port. */
  readonly port: number;
  /** Called (at most once) when the client goes away; `why` is one line. */
  readonly onDisconnect: (why: string) => void;
}

export async function serveMcpOverHttp(server: Server, options: McpHttpOptions): Promise<McpHttpEndpoint> {
  let gone = false;
  const disconnect = (why: string): void => {
    if (gone) return;
    gone = true;
    options.onDisconnect(why);
  };
  let closing = false;
  const transport = new StreamableHTTPServerTransport({
    sessionIdGenerator: () => randomUUID(),
    onsessionclosed: () => disconnect("the client ended its MCP session"),
  });
  await server.connect(transport);

  const local = await listenLocally(options.port, (req, res) => {
    if (req.method === "POST") {
      // A request the client stopped waiting for: it has gone (killed, or closed its transport).
      res.on("close", () => {
        if (!res.writableFinished && !closing) disconnect("the client closed its connection before its request was answered");
      });
    } else if (req.method === "GET") {
      // The client's event stream stays open while it is connected (on 127.0.0.1 nothing else drops it).
      res.on("close", () => {
        if (res.statusCode === 200 && !closing) disconnect("the client closed its event stream");
      });
    }
    transport.handleRequest(req, res).catch((error: unknown) => failed(res, error));
  });
  return {
    url: `http://127.0.0.1:${local.port}${MCP_PATH}`,
    port: local.port,
    close: async () => {
      closing = true;
      await server.close().catch(() => undefined);
      await local.close();
    },
  };
}

/**
 * Streamable HTTP with a session per client that initializes one, each with its own server from
 * `newServer` (all of them playing the same episode). Sessions come and go freely.
 */
export async function serveMcpSessionsOverHttp(newServer: () => Server, options: { readonly port: number }): Promise<McpHttpEndpoint> {
  const sessions = new Map<string, { readonly server: Server; readonly transport: StreamableHTTPServerTransport }>();
  const local = await listenLocally(options.port, (req, res) => {
    const header = req.headers["mcp-session-id"];
    const id = Array.isArray(header) ? header[0] : header;
    if (id !== undefined) {
      const session = sessions.get(id);
      if (!session) {
        res.writeHead(404, { "content-type": "text/plain" }).end("no such MCP session (it ended, or the episode did)\n");
        return;
      }
      session.transport.handleRequest(req, res).catch((error: unknown) => failed(res, error));
      return;
    }
    // No session yet: only an initialize request starts one; the transport refuses anything else.
    const server = newServer();
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (sessionId) => {
        sessions.set(sessionId, { server, transport });
      },
      onsessionclosed: (sessionId) => {
        sessions.delete(sessionId);
        void server.close().catch(() => undefined);
      },
    });
    server
      .connect(transport)
      .then(() => transport.handleRequest(req, res))
      .then(() => {
        if (transport.sessionId === undefined) return server.close();
      })
      .catch((error: unknown) => failed(res, error));
  });
  return {
    url: `http://127.0.0.1:${local.port}${MCP_PATH}`,
    port: local.port,
    close: async () => {
      const open = [...sessions.values()];
      sessions.clear();
      await Promise.all(open.map((s) => s.server.close().catch(() => undefined)));
      await local.close();
    },
  };
}

function failed(res: ServerResponse, error: unknown): void {
  if (!res.headersSent) res.writeHead(500, { "content-type": "text/plain" });
  res.end(`${error instanceof Error ? error.message : String(error)}\n`);
}

/** An HTTP server on 127.0.0.1 that hands `handle` the requests for MCP_PATH made under our own host names. */
async function listenLocally(
  wantedPort: number,
  handle: (req: IncomingMessage, res: ServerResponse) => void,
): Promise<{ readonly port: number; close(): Promise<void> }> {
  /** Known once listening; no request arrives before. */
  let port = 0;
  const http = createServer((req: IncomingMessage, res: ServerResponse) => {
    // A page in a browser may reach 127.0.0.1 under another name (DNS rebinding): only our own names are served.
    const host = req.headers.host ?? "";
    if (host !== `127.0.0.1:${port}` && host !== `localhost:${port}`) {
      res.writeHead(403, { "content-type": "text/plain" }).end("forbidden host\n");
      return;
    }
    const path = (req.url ?? "").split("?")[0];
    if (path !== MCP_PATH) {
      res.writeHead(404, { "content-type": "text/plain" }).end(`the MCP endpoint is ${MCP_PATH}\n`);
      return;
    }
    handle(req, res);
  });
  await new Promise<void>((resolve, reject) => {
    http.once("error", reject);
    http.listen(wantedPort, "127.0.0.1", () => {
      http.off("error", reject);
      resolve();
    });
  });
  port = (http.address() as AddressInfo).port;
  return {
    port,
    close: async () => {
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}

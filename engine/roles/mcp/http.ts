// An episode's MCP server over Streamable HTTP, on 127.0.0.1 only: one session (the episode's
// agent), at /mcp. A client that ends its session (HTTP DELETE), drops the connection of a request
// it is still waiting on, or closes its event stream (GET) has gone away: `onDisconnect` says so,
// and the episode ends. A client that holds no stream and just stops calling is only caught by the
// time limit.
import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";

export const MCP_PATH = "/mcp";

export interface McpHttpEndpoint {
  /** The Streamable HTTP endpoint, e.g. http://127.0.0.1:40123/mcp. */
  readonly url: string;
  readonly port: number;
  close(): Promise<void>;
}

export interface McpHttpOptions {
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
    transport.handleRequest(req, res).catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(500, { "content-type": "text/plain" });
      res.end(`${error instanceof Error ? error.message : String(error)}\n`);
    });
  });
  await new Promise<void>((resolve, reject) => {
    http.once("error", reject);
    http.listen(options.port, "127.0.0.1", () => {
      http.off("error", reject);
      resolve();
    });
  });
  port = (http.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}${MCP_PATH}`,
    port,
    close: async () => {
      closing = true;
      await server.close().catch(() => undefined);
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}

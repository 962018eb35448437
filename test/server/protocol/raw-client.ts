// JSON-RPC over a server's stdio at the byte level, for the tests of protocol errors: it can send
// what a well-behaved client library never would (a body that is not JSON, a request before
// `initialize`, a cancellation in the same write as its request) and collects every response.
import { spawn, type ChildProcess } from "node:child_process";
import { WAIT_MS } from "./client.js";

interface RawResponse {
  readonly id: number | string | null;
  readonly result?: unknown;
  readonly error?: { readonly code: number; readonly message: string };
}

export class RawClient {
  private buffer = Buffer.alloc(0);
  private readonly responses: RawResponse[] = [];
  private readonly waiters: (() => void)[] = [];
  readonly stderr: string[] = [];

  private constructor(private readonly child: ChildProcess) {
    child.stdout!.on("data", (chunk: Buffer) => this.read(chunk));
    child.stderr!.on("data", (chunk: Buffer) => this.stderr.push(chunk.toString("utf8")));
  }

  static start(args: readonly string[]): RawClient {
    return new RawClient(spawn(process.execPath, [...args], { stdio: ["pipe", "pipe", "pipe"] }));
  }

  /** A framed body, written as is. */
  static frame(body: string): string {
    return `Content-Length: ${Buffer.byteLength(body, "utf8")}\r\n\r\n${body}`;
  }

  static message(message: Record<string, unknown>): string {
    return RawClient.frame(JSON.stringify({ jsonrpc: "2.0", ...message }));
  }

  /** Writes frames in one write (so the server reads them together). */
  write(...frames: string[]): void {
    this.child.stdin!.write(frames.join(""));
  }

  /** The response with this id (null: the first response without an id). */
  async response(id: number | string | null): Promise<RawResponse> {
    const deadline = Date.now() + WAIT_MS;
    for (;;) {
      const found = this.responses.find((r) => r.id === id);
      if (found) return found;
      if (Date.now() > deadline) throw new Error(`no response ${String(id)} within ${WAIT_MS} ms; stderr: ${this.stderr.join("")}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, 200);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  kill(): void {
    if (this.child.exitCode === null) this.child.kill();
  }

  private read(chunk: Buffer): void {
    this.buffer = Buffer.concat([this.buffer, chunk]);
    for (;;) {
      const headerEnd = this.buffer.indexOf("\r\n\r\n");
      if (headerEnd < 0) return;
      const length = Number(/Content-Length: (\d+)/i.exec(this.buffer.subarray(0, headerEnd).toString("ascii"))?.[1]);
      if (this.buffer.length < headerEnd + 4 + length) return;
      const body = this.buffer.subarray(headerEnd + 4, headerEnd + 4 + length).toString("utf8");
      this.buffer = this.buffer.subarray(headerEnd + 4 + length);
      const message = JSON.parse(body) as Record<string, unknown>;
      // Responses only: notifications (logs, diagnostics) and the server's own requests are not asked about here.
      if ("id" in message && !("method" in message)) this.responses.push(message as unknown as RawResponse);
      for (const wake of this.waiters.splice(0)) wake();
    }
  }
}

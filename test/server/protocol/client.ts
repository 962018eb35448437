// A minimal LSP client for the protocol tests: starts a built server as a child process, speaks
// JSON-RPC over its stdin/stdout (or a Node IPC channel), records what the server publishes,
// registers and logs, and bounds every wait.
import { spawn, type ChildProcess } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import {
  ConfigurationRequest,
  createProtocolConnection,
  DidChangeTextDocumentNotification,
  DidOpenTextDocumentNotification,
  ExitNotification,
  InitializedNotification,
  InitializeRequest,
  IPCMessageReader,
  IPCMessageWriter,
  LogMessageNotification,
  PublishDiagnosticsNotification,
  RegistrationRequest,
  ShutdownRequest,
  StreamMessageReader,
  StreamMessageWriter,
  type ClientCapabilities,
  type InitializeResult,
  type ProtocolConnection,
  type PublishDiagnosticsParams,
  type TextDocumentContentChangeEvent,
} from "vscode-languageserver/node";
import { requireBuild } from "../../cli/harness.js";

export const SERVER = join(process.cwd(), "dist", "server.js");
export const CLI = join(process.cwd(), "dist", "cli.js");

/** Checks, in a test file's `before` hook, that dist/ (the server and the CLI) is built and current. */
export const requireServerBuild = requireBuild;

/** Long enough for a loaded 2-core machine; short enough that a hung server fails the test. */
export const WAIT_MS = 15_000;

const CLIENT_CAPABILITIES: ClientCapabilities = {
  textDocument: {
    synchronization: { dynamicRegistration: false },
    publishDiagnostics: { versionSupport: true },
    completion: { completionItem: { snippetSupport: true, documentationFormat: ["markdown", "plaintext"] } },
    hover: { contentFormat: ["markdown", "plaintext"] },
    rename: { prepareSupport: true },
  },
  workspace: { workspaceFolders: true, didChangeWatchedFiles: { dynamicRegistration: true }, codeLens: { refreshSupport: true } },
};

export class LspClient {
  readonly published: PublishDiagnosticsParams[] = [];
  /** Methods the server registered dynamically (e.g. workspace/didChangeWatchedFiles). */
  readonly registered: { method: string; registerOptions: unknown }[] = [];
  readonly stderr: string[] = [];
  /** What the server logged (window/logMessage). */
  readonly logs: string[] = [];
  /** How many times the server asked the client to ask for its code lenses again (workspace/codeLens/refresh). */
  lensRefreshes = 0;
  /**
   * The settings the client answers workspace/configuration with, by section ("toolsandbox.x").
   * Null: the client does not offer configuration (as most test clients), so the server never asks.
   */
  settings: Record<string, unknown> | null = null;
  /** The sections the server asked for, in order. */
  readonly configurationAsked: string[] = [];
  private readonly configurationWaiters: (() => void)[] = [];
  private readonly waiters: { test: (p: PublishDiagnosticsParams) => boolean; resolve: (p: PublishDiagnosticsParams) => void }[] = [];
  private readonly registrationWaiters: (() => void)[] = [];
  private readonly exited: Promise<number | null>;

  private constructor(
    private readonly child: ChildProcess,
    readonly connection: ProtocolConnection,
  ) {
    child.stderr?.on("data", (chunk: Buffer) => this.stderr.push(chunk.toString("utf8")));
    this.exited = new Promise((resolve) => child.on("exit", (code) => resolve(code)));
    connection.onNotification(PublishDiagnosticsNotification.type, (params) => {
      this.published.push(params);
      for (const waiter of this.waiters.splice(0)) {
        if (waiter.test(params)) waiter.resolve(params);
        else this.waiters.push(waiter);
      }
    });
    connection.onNotification(LogMessageNotification.type, (params) => {
      this.logs.push(params.message);
    });
    // The server may ask to register file watchers; the client accepts and records them.
    connection.onRequest(RegistrationRequest.type, (params) => {
      this.registered.push(...params.registrations.map((r) => ({ method: r.method, registerOptions: r.registerOptions as unknown })));
      for (const resolve of this.registrationWaiters.splice(0)) resolve();
      return undefined;
    });
    connection.onRequest("workspace/workspaceFolders", () => null);
    connection.onRequest("workspace/codeLens/refresh", () => {
      this.lensRefreshes++;
      return null;
    });
    connection.onRequest(ConfigurationRequest.type, (params) => {
      const answer = params.items.map((item) => this.settings?.[item.section ?? ""] ?? null);
      this.configurationAsked.push(...params.items.map((item) => item.section ?? ""));
      // Resolved after the answer is on its way, so a request sent next reaches the server after it.
      setImmediate(() => {
        for (const resolve of this.configurationWaiters.splice(0)) resolve();
      });
      return answer;
    });
    connection.listen();
  }

  /**
   * Starts `node <args...>`, e.g. [SERVER, "--stdio"] or [CLI, "lsp", "--stdio"], and speaks over
   * its stdin/stdout; with "ipc", over a Node IPC channel (as VS Code does; pass --node-ipc).
   */
  /** The server's process id (for reading its peak memory from /proc). */
  get pid(): number | undefined {
    return this.child.pid;
  }

  static start(args: readonly string[], transport: "stdio" | "ipc" = "stdio"): LspClient {
    const child = spawn(process.execPath, [...args], { stdio: ["pipe", "pipe", "pipe", ...(transport === "ipc" ? ["ipc" as const] : [])] });
    const connection =
      transport === "ipc"
        ? createProtocolConnection(new IPCMessageReader(child), new IPCMessageWriter(child))
        : createProtocolConnection(new StreamMessageReader(child.stdout!), new StreamMessageWriter(child.stdin!));
    return new LspClient(child, connection);
  }

  /** `workspaceEdit`: what the client says it can apply (e.g. snippet edits), besides the defaults. */
  async initialize(rootPath: string | null = null, workspaceEdit: Record<string, unknown> | null = null): Promise<InitializeResult> {
    const rootUri = rootPath === null ? null : pathToFileURL(rootPath).href;
    const base: ClientCapabilities =
      workspaceEdit === null
        ? CLIENT_CAPABILITIES
        : { ...CLIENT_CAPABILITIES, workspace: { ...CLIENT_CAPABILITIES.workspace, workspaceEdit } };
    const result = await this.request(
      this.connection.sendRequest(InitializeRequest.type, {
        processId: process.pid,
        rootUri,
        capabilities:
          this.settings === null
            ? base
            : { ...base, workspace: { ...base.workspace, configuration: true, didChangeConfiguration: { dynamicRegistration: true } } },
        workspaceFolders: rootUri === null ? null : [{ uri: rootUri, name: "workspace" }],
      }),
      "initialize",
    );
    await this.connection.sendNotification(InitializedNotification.type, {});
    return result;
  }

  open(uri: string, text: string, version = 1): Promise<void> {
    return this.connection.sendNotification(DidOpenTextDocumentNotification.type, {
      textDocument: { uri, languageId: "toolsandbox-scenario", version, text },
    });
  }

  change(uri: string, version: number, changes: TextDocumentContentChangeEvent[]): Promise<void> {
    return this.connection.sendNotification(DidChangeTextDocumentNotification.type, {
      textDocument: { uri, version },
      contentChanges: changes,
    });
  }

  /** The first publishDiagnostics (already received or still to come) that passes `test`. */
  diagnostics(test: (p: PublishDiagnosticsParams) => boolean, what: string): Promise<PublishDiagnosticsParams> {
    const seen = this.published.find(test);
    if (seen) return Promise.resolve(seen);
    return this.within(new Promise((resolve) => this.waiters.push({ test, resolve })), what);
  }

  /** Resolves once the server has registered some capability (it does so after `initialized`). */
  registration(): Promise<void> {
    if (this.registered.length > 0) return Promise.resolve();
    return this.within(new Promise<void>((resolve) => this.registrationWaiters.push(resolve)), "a capability registration");
  }

  /** The server's registration of `method`, waiting for it if it has not come yet. */
  async registrationOf(method: string): Promise<{ method: string; registerOptions: unknown }> {
    for (;;) {
      const found = this.registered.find((r) => r.method === method);
      if (found) return found;
      await this.within(new Promise<void>((resolve) => this.registrationWaiters.push(resolve)), `a registration of ${method}`);
    }
  }

  /** Resolves once the server has asked for settings `count` times in all (workspace/configuration). */
  configurationRequests(count: number): Promise<void> {
    const asked = (): boolean => this.configurationAsked.length >= count;
    if (asked()) return Promise.resolve();
    return this.within(
      new Promise<void>((resolve) => {
        const check = (): void => (asked() ? resolve() : void this.configurationWaiters.push(check));
        this.configurationWaiters.push(check);
      }),
      `configuration request ${count}`,
    );
  }

  /** A request's answer, failing the test when none comes in time. */
  request<T>(answer: Promise<T>, what: string): Promise<T> {
    return this.within(answer, what);
  }

  /** shutdown, exit, and the process's exit code. */
  async shutdown(): Promise<number | null> {
    await this.request(this.connection.sendRequest(ShutdownRequest.type), "shutdown");
    await this.connection.sendNotification(ExitNotification.type);
    return this.within(this.exited, "the server to exit", true);
  }

  /** Ends the process whatever state it is in (the `after` hook). */
  kill(): void {
    this.connection.dispose();
    if (this.child.exitCode === null) this.child.kill();
  }

  /** `promise`, or a failure naming `what` when the time is up or the server exits first. */
  private within<T>(promise: Promise<T>, what: string, exitExpected = false): Promise<T> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new Error(`no answer within ${WAIT_MS} ms waiting for ${what}; server stderr: ${this.stderr.join("")}`)),
        WAIT_MS,
      );
    });
    const exit = exitExpected
      ? []
      : [
          this.exited.then((code): never => {
            throw new Error(`the server exited (code ${code}) while waiting for ${what}; stderr: ${this.stderr.join("")}`);
          }),
        ];
    return Promise.race([promise, timeout, ...exit]).finally(() => clearTimeout(timer));
  }
}

/**
 * A temporary workspace laid out like the repository: documents go in the folder returned
 * (`<root>/scenarios`), and `<root>/schemas/scenario.schema.json` is there, so the samples'
 * `$schema=../schemas/...` modeline finds its file. Remove `dirname(folder)` when done.
 */
export function sampleWorkspace(prefix: string): string {
  const root = mkdtempSync(join(tmpdir(), prefix));
  mkdirSync(join(root, "schemas"));
  copyFileSync("schemas/scenario.schema.json", join(root, "schemas", "scenario.schema.json"));
  const folder = join(root, "scenarios");
  mkdirSync(folder);
  return folder;
}

/** The file: URI of a path. */
export const uriOf = (path: string): string => pathToFileURL(path).href;

/** The position of the `nth` occurrence of `needle` in `text`, moved `delta` characters into it. */
export function positionOf(text: string, needle: string, nth = 0, delta = 0): { line: number; character: number } {
  let offset = -1;
  for (let i = 0; i <= nth; i++) {
    offset = text.indexOf(needle, offset + 1);
    if (offset < 0) throw new Error(`"${needle}" occurs fewer than ${nth + 1} times`);
  }
  const before = text.slice(0, offset + delta);
  const line = before.split("\n").length - 1;
  return { line, character: before.length - (before.lastIndexOf("\n") + 1) };
}

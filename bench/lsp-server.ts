// A language server under bench:lsp: started as a real process over stdio, driven by a minimal
// client that times what it is asked to time and reads the process's peak memory.
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { readFileSync } from "node:fs";
import { performance } from "node:perf_hooks";
import { pathToFileURL } from "node:url";
import {
  CompletionRequest,
  ConfigurationRequest,
  createProtocolConnection,
  DidChangeConfigurationNotification,
  DidChangeTextDocumentNotification,
  DidCloseTextDocumentNotification,
  DidOpenTextDocumentNotification,
  ExitNotification,
  InitializedNotification,
  InitializeRequest,
  PublishDiagnosticsNotification,
  RegistrationRequest,
  ShutdownRequest,
  StreamMessageReader,
  StreamMessageWriter,
  type CompletionItem,
  type CompletionList,
  type Position,
  type ProtocolConnection,
  type PublishDiagnosticsParams,
  type TextDocumentContentChangeEvent,
} from "vscode-languageserver/node";

const WAIT_MS = 120_000;

export interface ServerSpec {
  readonly name: string;
  readonly args: readonly string[];
  readonly languageId: string;
  /** What the server answers to workspace/configuration, per section. */
  readonly settings: (documentUri: string) => Readonly<Record<string, unknown>>;
}

export class BenchServer {
  private readonly waiters: ((p: PublishDiagnosticsParams) => void)[] = [];
  private version = 1;

  private constructor(
    readonly spec: ServerSpec,
    private readonly child: ChildProcessWithoutNullStreams,
    private readonly connection: ProtocolConnection,
  ) {}

  static async start(spec: ServerSpec, root: string, documentUri: string): Promise<BenchServer> {
    const child = spawn(process.execPath, [...spec.args], { stdio: ["pipe", "pipe", "pipe"] });
    child.stderr.resume();
    const connection = createProtocolConnection(new StreamMessageReader(child.stdout), new StreamMessageWriter(child.stdin));
    const server = new BenchServer(spec, child, connection);
    connection.onNotification(PublishDiagnosticsNotification.type, (p) => {
      if (p.uri === documentUri) for (const resolve of server.waiters.splice(0)) resolve(p);
    });
    const settings = spec.settings(documentUri);
    connection.onRequest(ConfigurationRequest.type, (params) => params.items.map((item) => settings[item.section ?? ""] ?? null));
    connection.onRequest(RegistrationRequest.type, () => undefined);
    connection.listen();
    const rootUri = pathToFileURL(root).href;
    await within(
      connection.sendRequest(InitializeRequest.type, {
        processId: process.pid,
        rootUri,
        workspaceFolders: [{ uri: rootUri, name: "bench" }],
        capabilities: {
          workspace: { configuration: true, workspaceFolders: true, didChangeConfiguration: { dynamicRegistration: true } },
          textDocument: {
            publishDiagnostics: { versionSupport: true },
            completion: { completionItem: { snippetSupport: true, documentationFormat: ["markdown", "plaintext"] } },
          },
        },
      }),
      `${spec.name}: initialize`,
    );
    await connection.sendNotification(InitializedNotification.type, {});
    await connection.sendNotification(DidChangeConfigurationNotification.type, { settings });
    return server;
  }

  /** Opens the document and returns its first diagnostics. */
  async open(uri: string, text: string): Promise<PublishDiagnosticsParams> {
    this.version = 1;
    const published = this.nextDiagnostics(`${this.spec.name}: diagnostics after open`);
    await this.connection.sendNotification(DidOpenTextDocumentNotification.type, {
      textDocument: { uri, languageId: this.spec.languageId, version: this.version, text },
    });
    return published;
  }

  async close(uri: string): Promise<void> {
    await this.connection.sendNotification(DidCloseTextDocumentNotification.type, { textDocument: { uri } });
  }

  /** Sends one change without waiting for anything; returns its version. */
  async send(uri: string, change: TextDocumentContentChangeEvent): Promise<number> {
    const version = ++this.version;
    await this.connection.sendNotification(DidChangeTextDocumentNotification.type, {
      textDocument: { uri, version },
      contentChanges: [change],
    });
    return version;
  }

  /** Replaces `length` characters at `at` and waits for the diagnostics; returns them and the latency. */
  async change(uri: string, at: Position, length: number, text: string): Promise<{ ms: number; diagnostics: PublishDiagnosticsParams }> {
    const start = performance.now();
    const published = this.nextDiagnostics(`${this.spec.name}: diagnostics after a change`, this.version + 1);
    await this.send(uri, replacement(at, length, text));
    const diagnostics = await published;
    return { ms: performance.now() - start, diagnostics };
  }

  /** The diagnostics of the version sent last (or, for a server that sends no versions, the next ones). */
  settled(): Promise<PublishDiagnosticsParams> {
    return this.nextDiagnostics(`${this.spec.name}: diagnostics of version ${this.version}`, this.version);
  }

  async complete(uri: string, position: Position): Promise<{ ms: number; labels: string[] }> {
    const start = performance.now();
    const answer = await within(
      this.connection.sendRequest(CompletionRequest.type, { textDocument: { uri }, position }),
      `${this.spec.name}: completion`,
    );
    const ms = performance.now() - start;
    return { ms, labels: itemsOf(answer).map((i) => i.label) };
  }

  /** The process's peak resident memory so far, in MB (Linux: VmHWM), or null where unknown. */
  peakMemoryMb(): number | null {
    try {
      const status = readFileSync(`/proc/${this.child.pid}/status`, "utf8");
      const kb = /^VmHWM:\s+(\d+) kB/m.exec(status)?.[1];
      return kb === undefined ? null : Number(kb) / 1024;
    } catch {
      return null;
    }
  }

  async stop(): Promise<void> {
    try {
      await within(this.connection.sendRequest(ShutdownRequest.type), `${this.spec.name}: shutdown`);
      await this.connection.sendNotification(ExitNotification.type);
    } finally {
      this.connection.dispose();
      if (this.child.exitCode === null) this.child.kill();
    }
  }

  /**
   * The next publish for the document; for a server that sends versions, the one for `version`
   * (yaml-language-server sends none, and publishes once per debounced check).
   */
  private nextDiagnostics(what: string, version?: number): Promise<PublishDiagnosticsParams> {
    return within(
      new Promise<PublishDiagnosticsParams>((resolve) => {
        const wait = (p: PublishDiagnosticsParams): void => {
          if (version === undefined || p.version === undefined || p.version === version) resolve(p);
          else this.waiters.push(wait);
        };
        this.waiters.push(wait);
      }),
      what,
    );
  }
}

export function replacement(at: Position, length: number, text: string): TextDocumentContentChangeEvent {
  return { range: { start: at, end: { line: at.line, character: at.character + length } }, text };
}

function itemsOf(answer: CompletionList | CompletionItem[] | null): CompletionItem[] {
  if (!answer) return [];
  return Array.isArray(answer) ? answer : answer.items;
}

function within<T>(promise: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`bench:lsp: no answer within ${WAIT_MS} ms (${what})`)), WAIT_MS);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

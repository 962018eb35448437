// Our language server against yaml-language-server (Red Hat's, from npm, given our JSON Schema),
// both started as real processes over stdio in one run. For generated valid scenarios of 100,
// 1,000 and 10,000 lines it measures, per server:
//   - change -> diagnostics: from sending a didChange (one word of a milestone's `kind` broken,
//     or mended, in turn) to receiving the publishDiagnostics for it; each server's own debounce
//     is part of it, as it is for the person typing;
//   - completion: from sending a completion request (the value of a milestone's `table:`) to its
//     answer.
// Medians of several repetitions after warm-up. Asserts that both servers report the broken
// word (so yaml-language-server really validates against the schema), and exits 1 when ours is
// not faster on every row.
//
//   npm run bench:lsp                 (9 repetitions)
//   npm run bench:lsp -- 21           (21 repetitions)
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
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
} from "vscode-languageserver/node";
import { scenarioOfLines, type BenchDocument } from "./lsp-documents.js";
import { reportMachine } from "./machine.js";

const SIZES = [100, 1_000, 10_000];
const WARMUP = 5;
const SCHEMA = join(process.cwd(), "schemas", "scenario.schema.json");
const WAIT_MS = 60_000;

function repetitionsFromArgs(): number {
  const arg = process.argv[2];
  if (arg === undefined) return 9;
  const n = Number(arg);
  if (!Number.isInteger(n) || n < 1) {
    console.error(`bench:lsp: the repetition count must be a positive integer, got "${arg}"`);
    process.exit(2);
  }
  return n;
}

// ---------------------------------------------------------------------------------------------
// A server under test

interface ServerSpec {
  readonly name: string;
  readonly args: readonly string[];
  readonly languageId: string;
  /** What the server answers to workspace/configuration, per section. */
  readonly settings: (documentUri: string) => Readonly<Record<string, unknown>>;
}

class Server {
  private readonly waiters: ((p: PublishDiagnosticsParams) => void)[] = [];
  private version = 1;

  private constructor(
    readonly spec: ServerSpec,
    private readonly child: ChildProcessWithoutNullStreams,
    private readonly connection: ProtocolConnection,
  ) {}

  static async start(spec: ServerSpec, root: string, documentUri: string): Promise<Server> {
    const child = spawn(process.execPath, [...spec.args], { stdio: ["pipe", "pipe", "pipe"] });
    child.stderr.resume();
    const connection = createProtocolConnection(new StreamMessageReader(child.stdout), new StreamMessageWriter(child.stdin));
    const server = new Server(spec, child, connection);
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

  /** Replaces `length` characters at `at` and waits for the diagnostics; returns them and the latency. */
  async change(uri: string, at: Position, length: number, text: string): Promise<{ ms: number; diagnostics: PublishDiagnosticsParams }> {
    const version = ++this.version;
    const range = { start: at, end: { line: at.line, character: at.character + length } };
    const start = performance.now();
    const published = this.nextDiagnostics(`${this.spec.name}: diagnostics after a change`, version);
    await this.connection.sendNotification(DidChangeTextDocumentNotification.type, {
      textDocument: { uri, version },
      contentChanges: [{ range, text }],
    });
    const diagnostics = await published;
    return { ms: performance.now() - start, diagnostics };
  }

  async complete(uri: string, position: Position): Promise<{ ms: number; labels: string[] }> {
    const start = performance.now();
    const answer = await within(this.connection.sendRequest(CompletionRequest.type, { textDocument: { uri }, position }), `${this.spec.name}: completion`);
    const ms = performance.now() - start;
    return { ms, labels: itemsOf(answer).map((i) => i.label) };
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

// ---------------------------------------------------------------------------------------------
// Measuring

const OURS: ServerSpec = {
  name: "toolsandbox",
  args: [join(process.cwd(), "dist", "server.js"), "--stdio"],
  languageId: "toolsandbox-scenario",
  settings: () => ({}),
};

const YAML_LANGUAGE_SERVER: ServerSpec = {
  name: "yaml-language-server",
  args: [require.resolve("yaml-language-server/bin/yaml-language-server"), "--stdio"],
  languageId: "yaml",
  settings: (documentUri) => ({
    yaml: {
      validate: true,
      completion: true,
      hover: true,
      schemaStore: { enable: false },
      schemas: { [pathToFileURL(SCHEMA).href]: [documentUri] },
    },
    http: {},
    "[yaml]": {},
    editor: {},
  }),
};

interface Measured {
  readonly diagnosticsMs: number;
  readonly completionMs: number;
}

const BROKEN_KIND = "snapshoot";

async function measure(server: Server, uri: string, doc: BenchDocument, repetitions: number): Promise<Measured> {
  const opened = await server.open(uri, doc.text);
  if (opened.diagnostics.length > 0) {
    throw new Error(`${server.spec.name}: the generated ${doc.lines}-line document should be clean, got: ${opened.diagnostics[0]?.message}`);
  }
  const at = { line: doc.editLine, character: doc.editCharacter };
  const diagnostics: number[] = [];
  const completions: number[] = [];
  for (let i = 0; i < WARMUP + repetitions; i++) {
    // Break the word, then mend it: every change alters what is reported.
    const broken = await server.change(uri, at, "snapshot".length, BROKEN_KIND);
    const onEdit = broken.diagnostics.diagnostics.filter((d) => d.range.start.line === doc.editLine);
    if (onEdit.length === 0) throw new Error(`${server.spec.name}: no diagnostic on the broken \`kind\` (line ${doc.editLine + 1})`);
    const mended = await server.change(uri, at, BROKEN_KIND.length, "snapshot");
    if (mended.diagnostics.diagnostics.some((d) => d.severity === 1)) {
      throw new Error(`${server.spec.name}: errors left after mending: ${mended.diagnostics.diagnostics[0]?.message}`);
    }
    const completed = await server.complete(uri, doc.completionAt);
    if (!completed.labels.includes("SETTING")) throw new Error(`${server.spec.name}: no SETTING among the completions of \`table:\``);
    if (i < WARMUP) continue;
    diagnostics.push(broken.ms, mended.ms);
    completions.push(completed.ms);
  }
  await server.close(uri);
  return { diagnosticsMs: median(diagnostics), completionMs: median(completions) };
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

// ---------------------------------------------------------------------------------------------
// Report

interface Row {
  readonly lines: number;
  readonly ours: Measured;
  readonly theirs: Measured;
}

function printTable(rows: readonly Row[]): void {
  const ms = (n: number): string => `${n.toFixed(1)} ms`;
  const ratio = (theirs: number, ours: number): string => `${(theirs / ours).toFixed(1)}x`;
  const header = ["lines", "diagnostics: ours", "yaml-ls", "ratio", "completion: ours", "yaml-ls", "ratio"];
  const body = rows.map((r) => [
    r.lines.toLocaleString("en-US"),
    ms(r.ours.diagnosticsMs),
    ms(r.theirs.diagnosticsMs),
    ratio(r.theirs.diagnosticsMs, r.ours.diagnosticsMs),
    ms(r.ours.completionMs),
    ms(r.theirs.completionMs),
    ratio(r.theirs.completionMs, r.ours.completionMs),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((row) => row[i]!.length)));
  const line = (cells: readonly string[]): string => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join("  ");
  console.log(line(header));
  for (const row of body) console.log(line(row));
  console.log("\nratio = yaml-language-server's median / ours (above 1: ours is faster).");
}

async function main(): Promise<number> {
  reportMachine();
  const repetitions = repetitionsFromArgs();
  const dir = mkdtempSync(join(tmpdir(), "toolsandbox-bench-lsp-"));
  const servers: Server[] = [];
  try {
    const docs = SIZES.map((size) => {
      const doc = scenarioOfLines(size);
      const path = join(dir, `bench-${size}.scenario.yaml`);
      writeFileSync(path, doc.text);
      return { doc, uri: pathToFileURL(path).href };
    });
    const rows: Row[] = [];
    for (const { doc, uri } of docs) {
      // One server process per pair of measurements, so neither inherits the other's garbage.
      const ours = await Server.start(OURS, dir, uri);
      const theirs = await Server.start(YAML_LANGUAGE_SERVER, dir, uri);
      servers.push(ours, theirs);
      // One at a time: the two never compete for the CPU.
      const oursMeasured = await measure(ours, uri, doc, repetitions);
      const theirsMeasured = await measure(theirs, uri, doc, repetitions);
      rows.push({ lines: doc.lines, ours: oursMeasured, theirs: theirsMeasured });
      await Promise.all([ours.stop(), theirs.stop()]);
      servers.length = 0;
    }
    console.log(`Median of ${repetitions} repetitions (${repetitions * 2} changes) after ${WARMUP} warm-up rounds, each server over stdio:\n`);
    printTable(rows);
    const slower = rows.filter((r) => r.ours.diagnosticsMs >= r.theirs.diagnosticsMs || r.ours.completionMs >= r.theirs.completionMs);
    if (slower.length > 0) {
      // A bench reports; it never fails a build (the machines are noisy).
      console.error(`\nbench:lsp: ours is not faster on ${slower.map((r) => `${r.lines} lines`).join(", ")}`);
    }
    return 0;
  } finally {
    await Promise.allSettled(servers.map((s) => s.stop()));
    rmSync(dir, { recursive: true, force: true });
  }
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (e: unknown) => {
    console.error(e instanceof Error ? e.message : String(e));
    process.exitCode = 1;
  },
);

// The sandbox's child process (bundled as dist/creation-sandbox.cjs): loads Pyodide, takes away
// everything that reaches past the process, then runs the model's code on the host's calls.
// The host starts it under Node's permission model (reads only in Pyodide's folder, no writes, no
// child processes, no workers), with code generation from strings disallowed, a heap limit and an
// empty environment; the host alone keeps the time and memory limits and kills it (sandbox.ts).
// This file adds what the permission model does not cover: the network, the JavaScript globals
// and Node's file functions that Python could reach through Pyodide's bridge, and the bridge's own
// handles. Protocol messages (sandbox-protocol.ts) go to descriptor 3, written through a function
// taken before any model code exists; stdout is a log the host does not read.
import fs, { constants as fsConstants } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import dgram from "node:dgram";
import dns from "node:dns";
import http from "node:http";
import http2 from "node:http2";
import https from "node:https";
import net from "node:net";
import tls from "node:tls";
import { PROTOCOL_FD, readJob, type CallOutcome, type ChildMessage } from "./sandbox-protocol.js";
import { BLOCKED_MODULES, SANDBOX_PYTHON } from "./sandbox-python.js";

// Kept here before anything else runs: the protocol's only way out of this process.
const proc = globalThis.process;
const writeSync = fs.writeSync;
const sendLine = (line: string): void => {
  const bytes = Buffer.from(`${line}\n`);
  let written = 0;
  while (written < bytes.length) {
    try {
      written += writeSync(PROTOCOL_FD, bytes, written, bytes.length - written);
    } catch (error) {
      // A full pipe: the host reads it while this side waits.
      if ((error as NodeJS.ErrnoException).code !== "EAGAIN") throw error;
    }
  }
};
const send = (message: ChildMessage): void => sendLine(JSON.stringify(message));

type PyCallable = (...args: string[]) => unknown;
interface EmscriptenFs {
  ErrnoError: new (errno: number) => Error;
  [name: string]: unknown;
}
interface Pyodide {
  runPython(code: string): unknown;
  globals: { get(name: string): unknown };
  FS: EmscriptenFs;
  _module: Record<string, unknown>;
  setStdout(options: { batched: (text: string) => void }): void;
  setStderr(options: { batched: (text: string) => void }): void;
}
type LoadPyodide = (options: Record<string, unknown>) => Promise<Pyodide>;

const [pyodideDir = "", wasmLimitText = ""] = proc.argv.slice(2);
const wasmLimitBytes = Number(wasmLimitText);
// Emscripten copies argv into the interpreter (the program name becomes the environment's `_`):
// it gets a name that says nothing about the host.
proc.argv = [proc.argv[0] ?? "node", "sandbox"];

const discard = (): void => undefined;

/** Every way of opening a connection that Node's own modules export, made to throw. */
function closeTheNetwork(): void {
  const refuse = (): never => {
    throw new Error("the network is not available in the sandbox");
  };
  const modules: Record<string, unknown>[] = [net, tls, dgram, http, https, http2, dns, dns.promises].map(
    (m) => m as unknown as Record<string, unknown>,
  );
  for (const m of modules)
    for (const name of [
      "connect",
      "createConnection",
      "request",
      "get",
      "createSocket",
      "createServer",
      "lookup",
      "resolve",
      "resolve4",
      "resolve6",
    ])
      if (typeof m[name] === "function") Object.defineProperty(m, name, { value: refuse, writable: false, configurable: false });
  for (const proto of [net.Socket.prototype, net.Server.prototype] as unknown as Record<string, unknown>[])
    for (const name of ["connect", "listen"]) Object.defineProperty(proto, name, { value: refuse, writable: false, configurable: false });
}

/**
 * Node's file functions, once Pyodide has read its files: every one throws. Model code that reaches
 * Emscripten's NODEFS through the bridge can then write to no descriptor (1, 2, the protocol's).
 */
function closeTheFiles(): void {
  const refuse = (): never => {
    throw new Error("files are not available in the sandbox");
  };
  for (const m of [fs, fs.promises] as unknown as Record<string, unknown>[])
    for (const name of Object.keys(m))
      if (typeof m[name] === "function") Object.defineProperty(m, name, { value: refuse, writable: false, configurable: false });
}

/** WebAssembly memory may grow up to the limit; past it Emscripten sees a failed allocation (MemoryError). */
function limitWasmMemory(limit: number): void {
  // Node has WebAssembly, but TypeScript declares it only in the DOM lib, which the engine does not
  // see (tsconfig.json): the one member used here, typed here.
  interface WasmMemory {
    readonly buffer: ArrayBuffer;
    grow(pages: number): number;
  }
  const { prototype } = (globalThis as unknown as { WebAssembly: { Memory: { prototype: WasmMemory } } }).WebAssembly.Memory;
  const grow = prototype.grow;
  const limited = function (this: WasmMemory, pages: number): number {
    if (this.buffer.byteLength + pages * 65536 > limit) throw new RangeError("the sandbox's memory limit is reached");
    return grow.call(this, pages);
  };
  Object.defineProperty(prototype, "grow", { value: limited, writable: false, configurable: false });
}

/**
 * The globals that reach the network: gone before Pyodide loads, so that it loads from its files or
 * not at all (nothing may be fetched from a CDN).
 */
const NETWORK_GLOBALS = ["fetch", "WebSocket", "EventSource", "XMLHttpRequest", "navigator", "Request", "Response", "Headers", "FormData"];
/** The globals Pyodide needs to load and model code must not reach: gone once it has loaded. */
const PROCESS_GLOBALS = ["process", "BroadcastChannel", "MessageChannel", "MessagePort"];

function removeGlobals(names: readonly string[]): void {
  const globals = globalThis as unknown as Record<string, unknown>;
  for (const name of names) delete globals[name];
}

/** Emscripten's error number for EPERM. */
const EMSCRIPTEN_EPERM = 63;

/**
 * Pyodide's own printing goes nowhere, and the in-memory file system's modes cannot be changed
 * back: Python's chmod ends in these functions.
 */
function quietAndFrozen(pyodide: Pyodide): void {
  pyodide.setStdout({ batched: discard });
  pyodide.setStderr({ batched: discard });
  for (const name of ["print", "printErr"]) pyodide._module[name] = discard;
  const console = globalThis.console as unknown as Record<string, unknown>;
  for (const name of Object.keys(console)) if (typeof console[name] === "function") console[name] = discard;
  const FS = pyodide.FS;
  const refuse = (): never => {
    throw new FS.ErrnoError(EMSCRIPTEN_EPERM);
  };
  for (const name of ["chmod", "fchmod", "lchmod"])
    Object.defineProperty(FS, name, { value: refuse, writable: false, configurable: false });
}

async function loadPython(): Promise<{ define: PyCallable; call: PyCallable }> {
  // Emscripten's NODEFS asks for the fs constants through process.binding, which the permission
  // model refuses: hand over those constants and nothing else.
  Object.defineProperty(proc, "binding", {
    value: (name: string) => {
      if (name === "constants") return { fs: fsConstants };
      throw new Error("process.binding is not available in the sandbox");
    },
  });
  const imported = (await import(pathToFileURL(join(pyodideDir, "pyodide.mjs")).href)) as { loadPyodide?: unknown };
  if (typeof imported.loadPyodide !== "function") throw new Error("pyodide.mjs exports no loadPyodide");
  const loadPyodide = imported.loadPyodide as LoadPyodide;
  const pyodide = await loadPyodide({ indexURL: `${pyodideDir}/`, jsglobals: {}, env: {}, stdout: discard, stderr: discard });
  pyodide.runPython(SANDBOX_PYTHON);
  const define = pyodide.globals.get("_define");
  const call = pyodide.globals.get("_call");
  if (typeof define !== "function" || typeof call !== "function") throw new Error("the sandbox's Python runner did not load");
  // The mode changes come first: the lock-down's own chmod must still work.
  pyodide.runPython(`_lock_down(${JSON.stringify(BLOCKED_MODULES)})`);
  quietAndFrozen(pyodide);
  closeTheFiles();
  removeGlobals(PROCESS_GLOBALS);
  return { define: define as PyCallable, call: call as PyCallable };
}

/**
 * The runner's answer as the JSON text it wrote, passed on unparsed: parsing it here and writing it
 * again would turn what JavaScript cannot hold (10**400, Infinity) into null before the host saw it.
 * Python's json.dumps writes one line of ASCII.
 */
function outcomeText(text: unknown): string {
  if (typeof text === "string" && !text.includes("\n")) {
    try {
      const parsed = JSON.parse(text) as { kind?: unknown };
      if (parsed.kind === "returned" || parsed.kind === "raised") return text;
    } catch {
      // falls through: reported as below
    }
  }
  return JSON.stringify(failure("the runner's answer could not be read"));
}

const failure = (message: string): CallOutcome => ({ kind: "raised", exception: "SandboxError", message });

function firstLine(stream: NodeJS.ReadStream): Promise<string> {
  return new Promise((resolve) => {
    let buffered = "";
    stream.setEncoding("utf8");
    stream.on("data", (chunk: string) => {
      buffered += chunk;
      const end = buffered.indexOf("\n");
      if (end >= 0) resolve(buffered.slice(0, end));
    });
    stream.on("end", () => resolve(buffered));
  });
}

async function main(): Promise<void> {
  closeTheNetwork();
  removeGlobals(NETWORK_GLOBALS);
  if (Number.isFinite(wasmLimitBytes) && wasmLimitBytes > 0) limitWasmMemory(wasmLimitBytes);
  const { define, call } = await loadPython();
  send({ type: "ready" });
  const job = readJob(await firstLine(proc.stdin));
  if (!job) throw new Error("the host's job line is not valid");
  const problem = define(job.code, job.functionName);
  if (typeof problem === "string" && problem !== "") send({ type: "load_failed", reason: problem });
  else {
    send({ type: "defined" });
    for (const c of job.calls) {
      let outcome: string;
      try {
        outcome = outcomeText(call(JSON.stringify(c.arguments), JSON.stringify(c.world)));
      } catch (error) {
        outcome = JSON.stringify(failure((error instanceof Error ? error.message : String(error)).split("\n")[0] ?? ""));
      }
      sendLine(`{"type":"call","id":${JSON.stringify(c.id)},"outcome":${outcome}}`);
    }
  }
  send({ type: "done" });
  proc.stdin.destroy();
}

main().then(
  // Every line went out synchronously: nothing is left to flush.
  () => proc.exit(0),
  (error: unknown) => {
    proc.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    proc.exit(1);
  },
);

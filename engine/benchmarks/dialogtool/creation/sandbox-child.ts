// The sandbox's child process (bundled as dist/creation-sandbox.cjs): loads Pyodide, takes away
// everything that reaches past the process, then runs the model's code on the host's calls.
// The host starts it under Node's permission model (reads only in Pyodide's folder, no writes, no
// child processes, no workers), with code generation from strings disallowed, a heap limit and an
// empty environment, and kills it after a time limit. This file adds what the permission model
// does not cover: the network, and the JavaScript globals Python could reach through Pyodide's
// bridge. Every line of stdout is one message to the host (sandbox-protocol.ts).
import { constants as fsConstants } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import dgram from "node:dgram";
import dns from "node:dns";
import http from "node:http";
import http2 from "node:http2";
import https from "node:https";
import net from "node:net";
import tls from "node:tls";
import { readJob, type CallOutcome, type ChildMessage } from "./sandbox-protocol.js";
import { BLOCKED_MODULES, SANDBOX_PYTHON } from "./sandbox-python.js";

// Kept here before the global goes: the only way out of this process is its stdout.
const proc = globalThis.process;
const send = (message: ChildMessage): void => void proc.stdout.write(`${JSON.stringify(message)}\n`);

type PyCallable = (...args: string[]) => unknown;
interface Pyodide {
  runPython(code: string): unknown;
  globals: { get(name: string): unknown };
}
type LoadPyodide = (options: Record<string, unknown>) => Promise<Pyodide>;

const [pyodideDir = "", wasmLimitText = ""] = proc.argv.slice(2);
const wasmLimitBytes = Number(wasmLimitText);

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

/** WebAssembly memory may grow up to the limit; past it Emscripten sees a failed allocation (MemoryError). */
function limitWasmMemory(limit: number): void {
  const grow = WebAssembly.Memory.prototype.grow;
  const limited = function (this: WebAssembly.Memory, pages: number): number {
    if (this.buffer.byteLength + pages * 65536 > limit) throw new RangeError("the sandbox's memory limit is reached");
    return grow.call(this, pages);
  };
  Object.defineProperty(WebAssembly.Memory.prototype, "grow", { value: limited, writable: false, configurable: false });
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
  const quiet = { batched: () => undefined };
  const pyodide = await loadPyodide({ indexURL: `${pyodideDir}/`, jsglobals: {}, env: {}, stdout: quiet.batched, stderr: quiet.batched });
  pyodide.runPython(SANDBOX_PYTHON);
  const define = pyodide.globals.get("_define");
  const call = pyodide.globals.get("_call");
  if (typeof define !== "function" || typeof call !== "function") throw new Error("the sandbox's Python runner did not load");
  pyodide.runPython(`_lock_down(${JSON.stringify(BLOCKED_MODULES)})`);
  removeGlobals(PROCESS_GLOBALS);
  return { define: define as PyCallable, call: call as PyCallable };
}

function readOutcome(text: unknown): CallOutcome {
  if (typeof text === "string") {
    try {
      const parsed = JSON.parse(text) as CallOutcome;
      if (parsed.kind === "returned" || parsed.kind === "raised") return parsed;
    } catch {
      // falls through: reported as below
    }
  }
  return { kind: "raised", exception: "SandboxError", message: "the runner's answer could not be read" };
}

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
      let outcome: CallOutcome;
      try {
        outcome = readOutcome(call(JSON.stringify(c.arguments), JSON.stringify(c.world)));
      } catch (error) {
        outcome = {
          kind: "raised",
          exception: "SandboxError",
          message: (error instanceof Error ? error.message : String(error)).split("\n")[0] ?? "",
        };
      }
      send({ type: "call", id: c.id, outcome });
    }
  }
  send({ type: "done" });
  proc.stdin.destroy();
}

main().then(
  // Exits once stdout has taken every line (a pipe's writes are not synchronous everywhere).
  () => void proc.stdout.write("", () => proc.exit(0)),
  (error: unknown) => {
    proc.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    proc.exit(1);
  },
);

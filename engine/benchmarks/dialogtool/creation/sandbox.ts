// Runs model-written Python on some calls, in a child process that can do nothing but compute
// (sandbox-child.ts says what it takes away). This side starts it locked down, sends the job,
// reads its answers line by line, checking each, and kills it when it overruns a time limit or
// misbehaves. Model code never runs in this process.
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";
import { readChildMessage, type CallOutcome, type SandboxCall } from "./sandbox-protocol.js";

export interface SandboxPaths {
  /** The bundled child (dist/creation-sandbox.cjs). */
  readonly childScript: string;
  /** The folder of the `pyodide` package: the only one the child may read. */
  readonly pyodideDir: string;
}

export interface SandboxLimits {
  /** Starting Pyodide. */
  readonly loadSeconds: number;
  /** Running the code's top level (defining the function), and each call. */
  readonly callSeconds: number;
  /** WebAssembly memory (Python's heap). */
  readonly wasmMemoryMb: number;
  /** V8's heap (--max-old-space-size). */
  readonly jsHeapMb: number;
}

export const DEFAULT_SANDBOX_LIMITS: SandboxLimits = { loadSeconds: 60, callSeconds: 5, wasmMemoryMb: 512, jsHeapMb: 256 };

/** A call's fate: what the function did, or why it has no answer (the sandbox was stopped first). */
export type SandboxCallResult = CallOutcome | { readonly kind: "not_run"; readonly reason: string };

export interface SandboxRun {
  /** Why the function could not be defined (syntax error, refused import, missing name), or null. */
  readonly loadFailure: string | null;
  /** Why the sandbox was stopped before it finished (killed, crashed), or null. */
  readonly stopped: string | null;
  readonly calls: ReadonlyMap<string, SandboxCallResult>;
}

const MAX_LINE_BYTES = 1 << 20;

/**
 * Where the child and Pyodide are: beside the bundle (`npm run build` puts them there), else
 * Pyodide from node_modules. The child script has no source fallback: tests bundle it themselves.
 */
export function defaultSandboxPaths(): SandboxPaths {
  const childScript = join(__dirname, "creation-sandbox.cjs");
  const bundled = join(__dirname, "pyodide");
  if (existsSync(join(bundled, "pyodide.mjs"))) return { childScript, pyodideDir: bundled };
  try {
    return { childScript, pyodideDir: dirname(createRequire(join(__dirname, "noop.js")).resolve("pyodide/package.json")) };
  } catch {
    return { childScript, pyodideDir: bundled };
  }
}

/** What is missing for the sandbox to start, or null. */
export function sandboxProblem(paths: SandboxPaths): string | null {
  if (!existsSync(paths.childScript)) return `the sandbox's child script is missing: ${paths.childScript} (build with npm run build)`;
  const missing = PYODIDE_FILES.filter((f) => !existsSync(join(paths.pyodideDir, f)));
  if (missing.length > 0)
    return `Pyodide is incomplete in ${paths.pyodideDir}: ${missing.join(", ")} missing (npm install, then npm run build)`;
  return null;
}

/** What the child reads of Pyodide: its loader, the WebAssembly interpreter and the standard library. */
export const PYODIDE_FILES: readonly string[] = [
  "pyodide.mjs",
  "pyodide.asm.mjs",
  "pyodide.asm.wasm",
  "python_stdlib.zip",
  "pyodide-lock.json",
];

/**
 * The child's command line: Node's permission model lets it read Pyodide's files and its own
 * script, nothing else (not even packages beside Pyodide), and write nowhere.
 */
export function sandboxArguments(paths: SandboxPaths, limits: SandboxLimits): string[] {
  const pyodideDir = resolve(paths.pyodideDir);
  return [
    "--experimental-permission",
    ...PYODIDE_FILES.map((f) => `--allow-fs-read=${join(pyodideDir, f)}`),
    `--allow-fs-read=${resolve(paths.childScript)}`,
    "--disallow-code-generation-from-strings",
    `--max-old-space-size=${limits.jsHeapMb}`,
    "--no-warnings",
    resolve(paths.childScript),
    pyodideDir,
    String(limits.wasmMemoryMb * 1024 * 1024),
  ];
}

/** Defines `functionName` from `code` in a fresh sandbox and makes each call; never throws for what the code does. */
export function runInSandbox(
  code: string,
  functionName: string,
  calls: readonly SandboxCall[],
  paths: SandboxPaths,
  limits: SandboxLimits = DEFAULT_SANDBOX_LIMITS,
): Promise<SandboxRun> {
  const problem = sandboxProblem(paths);
  if (problem !== null) return Promise.reject(new Error(problem));
  const child = spawn(process.execPath, sandboxArguments(paths, limits), { env: {}, stdio: ["pipe", "pipe", "pipe"] });
  const results = new Map<string, SandboxCallResult>();
  let loadFailure: string | null = null;
  let stopped: string | null = null;
  let finished = false;
  let defined = false;
  let stderrTail = "";
  let timer: NodeJS.Timeout | undefined;
  const stop = (reason: string): void => {
    if (stopped === null && !finished) stopped = reason;
    child.kill("SIGKILL");
  };
  const deadline = (seconds: number, what: string): void => {
    clearTimeout(timer);
    timer = setTimeout(() => stop(`killed: ${what} took longer than ${seconds} s`), seconds * 1000);
  };
  const pending = calls.map((c) => c.id);

  return new Promise((settle) => {
    deadline(limits.loadSeconds, "starting the sandbox");
    let buffered = "";
    child.stdout.setEncoding("utf8");
    child.stdout.on("data", (chunk: string) => {
      buffered += chunk;
      let end: number;
      while ((end = buffered.indexOf("\n")) >= 0) {
        const line = buffered.slice(0, end);
        buffered = buffered.slice(end + 1);
        onLine(line);
      }
      if (buffered.length > MAX_LINE_BYTES) stop("killed: the sandbox sent a line over 1 MiB");
    });
    child.stderr.setEncoding("utf8");
    child.stderr.on("data", (chunk: string) => void (stderrTail = (stderrTail + chunk).slice(-4096)));
    child.stdin.on("error", () => undefined);
    child.on("error", (error) => stop(`the sandbox could not start: ${error.message}`));

    function onLine(line: string): void {
      if (stopped !== null) return;
      const message = readChildMessage(line);
      if (message === null) {
        stop("killed: the sandbox sent a line that is not a protocol message");
        return;
      }
      switch (message.type) {
        case "ready":
          child.stdin.end(`${JSON.stringify({ type: "job", code, functionName, calls })}\n`);
          // The code's top level runs now: as long as a call may take.
          deadline(limits.callSeconds, "defining the function");
          return;
        case "defined":
          defined = true;
          deadline(limits.callSeconds, "a call");
          return;
        case "load_failed":
          loadFailure = message.reason;
          return;
        case "call":
          if (pending[0] !== message.id) {
            stop("killed: the sandbox answered a call it was not asked");
            return;
          }
          pending.shift();
          results.set(message.id, message.outcome);
          deadline(limits.callSeconds, "a call");
          return;
        case "done":
          finished = true;
          clearTimeout(timer);
      }
    }

    child.on("close", (exitCode, signal) => {
      clearTimeout(timer);
      if (!finished && stopped === null) {
        const lines = stderrTail
          .split("\n")
          .map((l) => l.trim())
          .filter((l) => l !== "");
        const cause = lines.find((l) => /^\w*Error\b/.test(l)) ?? lines[0] ?? "";
        stopped = `the sandbox stopped (${signal ?? `exit code ${exitCode}`})${cause ? `: ${cause.slice(0, 200)}` : ""}`;
      }
      // The first call without an answer was running when the sandbox stopped; the rest never ran.
      const reason = loadFailure !== null ? `not run: ${loadFailure}` : `not run: ${stopped ?? "no answer"}`;
      pending.forEach((id, i) => {
        const running = i === 0 && defined && stopped !== null;
        results.set(id, { kind: "not_run", reason: running ? (stopped ?? reason) : reason });
      });
      settle({ loadFailure, stopped, calls: results });
    });
  });
}

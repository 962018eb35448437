// Runs model-written Python on some calls, in a child process that can do nothing but compute
// (sandbox-child.ts says what it takes away). This side starts it locked down, sends the job and
// reads its answers from their own descriptor, accepting them only in the one order the job allows;
// it alone keeps the time and memory limits, which nothing the child sends can move, and kills the
// child when it overruns one or breaks the protocol. Model code never runs in this process.
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";
import type { Readable } from "node:stream";
import { type MemoryEnforcement, watchMemory } from "./sandbox-memory.js";
import { type CheckedOutcome, oneLine, PROTOCOL_FD, type ReceivedMessage, readChildMessage, type SandboxCall } from "./sandbox-protocol.js";

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
  /** WebAssembly memory (Python's heap): past it Python sees MemoryError. */
  readonly wasmMemoryMb: number;
  /** V8's heap (--max-old-space-size). */
  readonly jsHeapMb: number;
  /** The child's whole memory, enforced from outside it (sandbox-memory.ts): past it the child is killed. */
  readonly memoryMb: number;
}

export const DEFAULT_SANDBOX_LIMITS: SandboxLimits = { loadSeconds: 60, callSeconds: 5, wasmMemoryMb: 512, jsHeapMb: 256, memoryMb: 1024 };

/** After its last message, the child has this long to exit before it is killed. */
const EXIT_GRACE_SECONDS = 1;

/**
 * The whole tool's deadline, fixed when the child starts: loading, then the top level and each
 * call at most `callSeconds`, then the grace to finish.
 */
const toolSeconds = (limits: SandboxLimits, calls: number): number =>
  limits.loadSeconds + (calls + 1) * limits.callSeconds + EXIT_GRACE_SECONDS;

/** A call's fate: what the function did, why its answer was refused, or why it has none (the sandbox was stopped first). */
export type SandboxCallResult = CheckedOutcome | { readonly kind: "not_run"; readonly reason: string };

export interface SandboxMemory {
  readonly limitMb: number;
  readonly enforcement: MemoryEnforcement;
  /** The highest memory the host read: resident + swap + page tables (MiB, 0 when it could read none). */
  readonly peakMb: number;
}

export interface SandboxRun {
  /** Why the function could not be defined (syntax error, refused import, missing name), or null. */
  readonly loadFailure: string | null;
  /** Why the sandbox was stopped (killed, crashed, a protocol violation), or null. */
  readonly stopped: string | null;
  readonly calls: ReadonlyMap<string, SandboxCallResult>;
  readonly memory: SandboxMemory;
  /** From spawning the child to its "ready" (Pyodide loaded and locked down), or null when it never came. */
  readonly startupMs: number | null;
  /** From "ready" (the job sent) to the child's end: the part the call limits bound. Null when it never came. */
  readonly runMs: number | null;
}

/** The longest line the host reads from the child, in bytes without its newline: 1 MiB. */
export const MAX_LINE_BYTES = 1 << 20;

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
const PYODIDE_FILES: readonly string[] = ["pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json"];

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

/** What the host waits for next: the only message it accepts. */
type Expected = "ready" | "defined" | "call" | "done" | "exit";

function describe(message: ReceivedMessage): string {
  return message.type === "call" ? `the result of ${JSON.stringify(message.id).slice(0, 60)}` : `"${message.type}"`;
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
  const started = performance.now();
  // stdin: the job; stdout: the child's log, which nobody reads; stderr: why it crashed; fd 3: the protocol.
  const child = spawn(process.execPath, sandboxArguments(paths, limits), { env: {}, stdio: ["pipe", "ignore", "pipe", "pipe"] });
  const protocol = child.stdio[PROTOCOL_FD] as Readable;
  const results = new Map<string, SandboxCallResult>();
  let loadFailure: string | null = null;
  let stopped: string | null = null;
  let startupMs: number | null = null;
  let expected: Expected = "ready";
  let next = 0;
  let stderrTail = "";
  let stepTimer: NodeJS.Timeout | undefined;
  let exitTimer: NodeJS.Timeout | undefined;
  const stop = (reason: string): void => {
    if (stopped === null) stopped = reason;
    child.kill("SIGKILL");
  };
  const toolLimit = toolSeconds(limits, calls.length);
  const toolTimer = setTimeout(() => stop(`killed: the tool took longer than ${toolLimit} s in all`), toolLimit * 1000);
  /** The current step's own limit: starts when the host accepted the previous step's message. */
  const step = (seconds: number, what: string): void => {
    clearTimeout(stepTimer);
    stepTimer = setTimeout(() => stop(`killed: ${what} took longer than ${seconds} s`), seconds * 1000);
  };
  const memory = child.pid === undefined ? null : watchMemory(child.pid, limits.memoryMb * 1024 * 1024, (reason) => stop(reason));

  return new Promise((settle) => {
    step(limits.loadSeconds, "starting the sandbox");
    // Lines are cut from bytes, and each is measured before it is taken: a line of MAX_LINE_BYTES
    // (its newline not counted) is read, one byte more is a violation, whatever the chunks were.
    let pending: Buffer[] = [];
    let pendingBytes = 0;
    protocol.on("data", (chunk: Buffer) => {
      let start = 0;
      while (stopped === null) {
        const end = chunk.indexOf(0x0a, start);
        const piece = chunk.subarray(start, end < 0 ? chunk.length : end);
        if (pendingBytes + piece.length > MAX_LINE_BYTES) {
          stop("killed: protocol violation (a line over 1 MiB)");
          return;
        }
        if (end < 0) {
          pending.push(piece);
          pendingBytes += piece.length;
          return;
        }
        const line = Buffer.concat([...pending, piece]).toString("utf8");
        pending = [];
        pendingBytes = 0;
        start = end + 1;
        onLine(line);
      }
    });
    protocol.on("error", () => undefined);
    child.stderr?.setEncoding("utf8");
    child.stderr?.on("data", (chunk: string) => void (stderrTail = (stderrTail + chunk).slice(-4096)));
    child.stdin?.on("error", () => undefined);
    child.on("error", (error) => stop(`the sandbox could not start: ${oneLine(error.message)}`));

    const violation = (got: string): void => stop(`killed: protocol violation (expected ${expectation()}, got ${got})`);
    const expectation = (): string => {
      if (expected === "call") return `the result of ${JSON.stringify(calls[next]?.id ?? "").slice(0, 60)}`;
      if (expected === "exit") return "no more messages";
      return expected === "defined" ? '"defined" or "load_failed"' : `"${expected}"`;
    };
    const afterLastCall = (): void => {
      expected = "done";
      step(EXIT_GRACE_SECONDS, "ending");
    };

    function onLine(line: string): void {
      if (stopped !== null) return;
      const message = readChildMessage(line);
      if (message === null) violation("a line that is not a protocol message");
      else if (!accept(message)) violation(describe(message));
    }

    /** Takes the message the host waits for, and starts the next step's limit; false for any other. */
    function accept(message: ReceivedMessage): boolean {
      if (expected === "ready" && message.type === "ready") {
        startupMs = performance.now() - started;
        child.stdin?.end(`${JSON.stringify({ type: "job", code, functionName, calls })}\n`);
        expected = "defined";
        // The code's top level runs now: as long as a call may take.
        step(limits.callSeconds, "defining the function");
      } else if (expected === "defined" && message.type === "defined") {
        if (calls.length === 0) afterLastCall();
        else {
          expected = "call";
          step(limits.callSeconds, "a call");
        }
      } else if (expected === "defined" && message.type === "load_failed") {
        loadFailure = message.reason;
        afterLastCall();
      } else if (expected === "call" && message.type === "call" && message.id === calls[next]?.id) {
        results.set(message.id, message.outcome);
        next++;
        if (next === calls.length) afterLastCall();
        else step(limits.callSeconds, "a call");
      } else if (expected === "done" && message.type === "done") {
        expected = "exit";
        clearTimeout(stepTimer);
        exitTimer = setTimeout(
          () => stop(`killed: the sandbox did not exit within ${EXIT_GRACE_SECONDS} s of its last message`),
          EXIT_GRACE_SECONDS * 1000,
        );
      } else return false;
      return true;
    }

    child.on("close", (exitCode, signal) => {
      clearTimeout(toolTimer);
      clearTimeout(stepTimer);
      clearTimeout(exitTimer);
      const memoryKill = memory?.killedFor() ?? null;
      memory?.stop();
      if (stopped === null && memoryKill !== null) stopped = memoryKill;
      if (stopped === null && (expected !== "exit" || exitCode !== 0)) {
        const lines = stderrTail
          .split("\n")
          .map((l) => l.trim())
          .filter((l) => l !== "");
        const cause = lines.find((l) => /^\w*Error\b/.test(l)) ?? lines[0] ?? "";
        stopped = oneLine(`the sandbox stopped (${signal ?? `exit code ${exitCode}`})${cause ? `: ${cause.slice(0, 200)}` : ""}`);
      }
      // A child stopped after its last message still misbehaved: none of its answers counts.
      if (stopped !== null && expected === "exit") {
        results.clear();
        next = 0;
      }
      // The call the child was in when it stopped fails with the reason; the calls after it were never run.
      const reason = loadFailure !== null ? `not run: ${loadFailure}` : `not run: ${stopped ?? "no answer"}`;
      const running = stopped !== null && (expected === "call" || expected === "exit") ? next : -1;
      calls.forEach((c, i) => {
        if (!results.has(c.id)) results.set(c.id, { kind: "not_run", reason: i === running ? (stopped ?? reason) : reason });
      });
      settle({
        loadFailure,
        stopped,
        calls: results,
        startupMs: startupMs === null ? null : Math.round(startupMs),
        runMs: startupMs === null ? null : Math.round(performance.now() - started - startupMs),
        memory: {
          limitMb: limits.memoryMb,
          enforcement: memory?.enforcement ?? "none (no /proc)",
          peakMb: Math.round((memory?.peakBytes() ?? 0) / (1024 * 1024)),
        },
      });
    });
  });
}

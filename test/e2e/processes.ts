// Child processes the end-to-end tests start (code-server, mock-llm): each in its own process
// group, so stopping it also stops what it started (the extension host, the language server, the
// file watcher). Groups still alive when the test process is interrupted or exits are killed too.
import { spawn, type ChildProcess } from "node:child_process";
import { createWriteStream } from "node:fs";
import { createServer } from "node:net";

const liveGroups = new Set<number>();
/** Synchronous clean-ups (temporary folders) for an interrupted run; `after` hooks do them otherwise. */
const exitCleanups = new Set<() => void>();

/** Registers `cleanup` to run if the process exits or is interrupted first; returns its unregistration. */
export function onExit(cleanup: () => void): () => void {
  installHandlers();
  exitCleanups.add(cleanup);
  return () => exitCleanups.delete(cleanup);
}

function killGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    // Already gone.
  }
}

let handlersInstalled = false;
function installHandlers(): void {
  if (handlersInstalled) return;
  handlersInstalled = true;
  const cleanUp = (): void => {
    for (const pid of liveGroups) killGroup(pid, "SIGKILL");
    liveGroups.clear();
    for (const cleanup of exitCleanups) {
      try {
        cleanup();
      } catch {
        // Best effort: the process is going away.
      }
    }
    exitCleanups.clear();
  };
  process.on("exit", cleanUp);
  for (const [signal, code] of [
    ["SIGINT", 130],
    ["SIGTERM", 143],
    ["SIGHUP", 129],
  ] as const) {
    process.once(signal, () => {
      cleanUp();
      process.exit(code);
    });
  }
}

export interface GroupProcess {
  readonly child: ChildProcess;
  /** Resolves with the exit code (or signal) once the process has exited. */
  readonly exited: Promise<string>;
  /** SIGTERM to the whole group, SIGKILL after `graceMs` if the leader is still there. */
  stop(graceMs?: number): Promise<void>;
}

/** Starts `command` as the leader of a new process group, its output appended to `logFile`. */
export function startGroup(
  command: string,
  args: readonly string[],
  options: { env: NodeJS.ProcessEnv; cwd?: string; logFile: string },
): GroupProcess {
  installHandlers();
  const log = createWriteStream(options.logFile, { flags: "a" });
  const child = spawn(command, args, { env: options.env, cwd: options.cwd, detached: true, stdio: ["ignore", "pipe", "pipe"] });
  child.stdout?.pipe(log);
  child.stderr?.pipe(log);
  const pid = child.pid;
  if (pid === undefined) throw new Error(`cannot start ${command}`);
  liveGroups.add(pid);
  const exited = new Promise<string>((resolve) => {
    child.once("exit", (code, signal) => resolve(signal ?? String(code)));
    child.once("error", (e) => resolve(`error: ${e.message}`));
  });
  void exited.then(() => liveGroups.delete(pid));
  return {
    child,
    exited,
    async stop(graceMs = 5000) {
      if (!liveGroups.has(pid)) return;
      killGroup(pid, "SIGTERM");
      const timer = new Promise<"timeout">((resolve) => setTimeout(() => resolve("timeout"), graceMs).unref());
      if ((await Promise.race([exited, timer])) === "timeout") {
        killGroup(pid, "SIGKILL");
        await exited;
      }
      // Children that ignored SIGTERM (or outlived the leader) go with the group.
      killGroup(pid, "SIGKILL");
      liveGroups.delete(pid);
      await new Promise<void>((resolve) => log.end(resolve));
    },
  };
}

/** A TCP port that was free a moment ago on 127.0.0.1. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => (address !== null && typeof address === "object" ? resolve(address.port) : reject(new Error("no port"))));
    });
  });
}

/** Polls `url` until it answers 200, the process exits, or `timeoutMs` passes. */
export async function waitForHttpOk(url: string, process: GroupProcess, timeoutMs: number, describe: () => string): Promise<void> {
  let exitedWith: string | undefined;
  void process.exited.then((status) => (exitedWith = status));
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (exitedWith !== undefined) throw new Error(`exited (${exitedWith}) before ${url} answered\n${describe()}`);
    try {
      const response = await fetch(url);
      if (response.status === 200) return;
    } catch {
      // Not listening yet.
    }
    if (Date.now() > deadline) throw new Error(`${url} did not answer 200 within ${timeoutMs} ms\n${describe()}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

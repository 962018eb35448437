// `run --agent cmd:'<command line>'`: per episode, the episode's MCP server on 127.0.0.1 and the
// command started (no shell) in a process group of its own, with the endpoint in its environment:
//   TOOLSANDBOX_MCP_URL     the Streamable HTTP endpoint
//   TOOLSANDBOX_MCP_CONFIG  a JSON file {"mcpServers":{"toolsandbox":{"url":...}}}, as MCP clients read
//   TOOLSANDBOX_OPENING     the user's first message
// Its stdout and stderr go to <trajectory name>.agent-stdout.log and .agent-stderr.log beside the
// trajectory. It may run for the time limit; then, or once the episode has ended and a short grace
// has passed, its whole process group is killed.
import { type ChildProcess, spawn } from "node:child_process";
import { closeSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openForWriting } from "../base/output-files.js";
import type { McpAgentRole } from "../roles/mcp/agent.js";
import type { AgentHostContext, HostedAgent, McpAgentHost } from "./agent-host.js";
import type { BatchJob } from "./jobs.js";

export const DEFAULT_COMMAND_TIME_LIMIT_SECONDS = 600;
/** How long a command may take to exit by itself once its episode has ended, before its group is killed. */
const EXIT_GRACE_MS = 2000;
const TERM_GRACE_MS = 1000;

interface CommandAgentSpec {
  readonly argv: readonly string[];
  readonly timeLimitSeconds: number;
  /** The folder the command starts in (default: this process's). */
  readonly cwd?: string;
}

/**
 * Splits a command line into arguments the way a POSIX shell splits words, and nothing more: single
 * quotes keep everything, double quotes keep everything but \" and \\, a backslash outside quotes
 * keeps the next character. No variables, globs, pipes or redirections: the command runs without a shell.
 */
export function splitCommandLine(line: string): { readonly argv: string[]; readonly problem: string | null } {
  const argv: string[] = [];
  let word: string | null = null;
  let i = 0;
  while (i < line.length) {
    const c = line.charAt(i);
    if (c === " " || c === "\t" || c === "\n") {
      if (word !== null) argv.push(word);
      word = null;
      i++;
    } else if (c === "'") {
      const end = line.indexOf("'", i + 1);
      if (end < 0) return { argv, problem: "a single quote is not closed" };
      word = (word ?? "") + line.slice(i + 1, end);
      i = end + 1;
    } else if (c === '"') {
      let text = "";
      i++;
      while (i < line.length && line[i] !== '"') {
        if (line[i] === "\\" && (line[i + 1] === '"' || line[i + 1] === "\\")) i++;
        text += line[i];
        i++;
      }
      if (i >= line.length) return { argv, problem: "a double quote is not closed" };
      word = (word ?? "") + text;
      i++;
    } else if (c === "\\" && i + 1 < line.length) {
      word = (word ?? "") + line[i + 1];
      i += 2;
    } else {
      word = (word ?? "") + c;
      i++;
    }
  }
  if (word !== null) argv.push(word);
  return { argv, problem: argv.length === 0 ? "the command line is empty" : null };
}

/** The files of a job's command beside its trajectory: `<base>.agent-stdout.log`, `<base>.agent-stderr.log`. */
function commandLogPaths(outDir: string, trajectory: string): { readonly stdout: string; readonly stderr: string } {
  const base = join(outDir, trajectory.replace(/\.trajectory\.jsonl$/, ""));
  return { stdout: `${base}.agent-stdout.log`, stderr: `${base}.agent-stderr.log` };
}

function killGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined) return;
  try {
    // The negative pid is the process group the command leads (spawned detached).
    process.kill(-child.pid, signal);
  } catch {
    // ESRCH: the group is gone already.
  }
}

const delay = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms).unref());

export function commandAgentHost(spec: CommandAgentSpec): McpAgentHost {
  return {
    async attach(agent: McpAgentRole, job: BatchJob, context: AgentHostContext): Promise<HostedAgent> {
      // Loaded on first use: the MCP SDK's server side costs every other run of the CLI its start-up.
      const [{ serveMcpOverHttp }, { createEpisodeServer }] = await Promise.all([
        import("../roles/mcp/http.js"),
        import("../roles/mcp/server.js"),
      ]);
      const server = createEpisodeServer(job.scenario, agent);
      const endpoint = await serveMcpOverHttp(server, {
        port: 0,
        onDisconnect: (why) => agent.stop("agent_disconnected", why),
      });
      const configDir = mkdtempSync(join(tmpdir(), "toolsandbox-mcp-"));
      const configPath = join(configDir, "mcp.json");
      writeFileSync(configPath, `${JSON.stringify({ mcpServers: { toolsandbox: { type: "http", url: endpoint.url } } }, null, 2)}\n`);
      const logs = commandLogPaths(context.outDir, job.trajectory);
      const outFd = openForWriting(logs.stdout);
      const errFd = openForWriting(logs.stderr);
      const [file = "", ...args] = spec.argv;
      const child = spawn(file, args, {
        detached: true,
        ...(spec.cwd === undefined ? {} : { cwd: spec.cwd }),
        stdio: ["ignore", outFd, errFd],
        env: {
          ...process.env,
          TOOLSANDBOX_MCP_URL: endpoint.url,
          TOOLSANDBOX_MCP_CONFIG: configPath,
          TOOLSANDBOX_OPENING: job.scenario.user.opening,
        },
      });
      // The child has its own copies of the descriptors.
      closeSync(outFd);
      closeSync(errFd);
      const exited = new Promise<void>((resolve) => {
        child.once("error", (error) => {
          agent.stop("role_error", `could not start ${file}: ${error.message}`);
          resolve();
        });
        child.once("exit", (code, signal) => {
          agent.stop(
            "agent_disconnected",
            `the command exited (${code === null ? `signal ${signal}` : `code ${code}`}) before the conversation ended; its stderr is in ${logs.stderr}`,
          );
          resolve();
        });
      });
      let exitedYet = false;
      void exited.then(() => {
        exitedYet = true;
      });
      const timer = setTimeout(() => {
        agent.stop("timed_out", `the command ran past its time limit of ${spec.timeLimitSeconds} s and was killed`);
        killGroup(child, "SIGKILL");
      }, spec.timeLimitSeconds * 1000);
      const onAbort = (): void => killGroup(child, "SIGTERM");
      context.signal.addEventListener("abort", onAbort, { once: true });

      let closed: Promise<void> | null = null;
      const close = async (): Promise<void> => {
        clearTimeout(timer);
        context.signal.removeEventListener("abort", onAbort);
        if (!exitedYet) await Promise.race([exited, delay(EXIT_GRACE_MS)]);
        if (!exitedYet) {
          killGroup(child, "SIGTERM");
          await Promise.race([exited, delay(TERM_GRACE_MS)]);
        }
        // Whatever the command left running in its group goes too.
        killGroup(child, "SIGKILL");
        await endpoint.close();
        rmSync(configDir, { recursive: true, force: true });
      };
      return {
        close: () => {
          closed ??= close();
          return closed;
        },
      };
    },
  };
}

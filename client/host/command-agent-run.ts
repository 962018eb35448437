// "Run Scenario with Agent…": the agent is a program from `toolsandbox.agents`, played as
// `run --agent cmd:` plays it (engine/runner/command-agent.ts): per run, the episode's MCP server
// on 127.0.0.1 and the command started in the workspace folder with the endpoint in its
// environment, its output kept beside the trajectory, its process group killed at the end. Here only
// the roles and the `around` hook the live run (live-run.ts, the runner's one episode loop) takes.
// No VS Code here, so it is tested under node.
import { basename, dirname } from "node:path";
import { errorMessage } from "../../engine/base/text.js";
import type { AgentRole } from "../../engine/episode/role.js";
import { outsideAgent } from "../../engine/runner/play.js";
import { COMMAND_PREFIX, createRoles, roleSpec } from "../../engine/runner/role-specs.js";
import type { Scenario } from "../../engine/scenario/model.js";
import type { CommandAgentSetting } from "./settings.js";

export interface CommandAgentRun {
  readonly agent: AgentRole;
  /** Starts the command (and its MCP server) before the episode; what it returns takes them down. */
  readonly around: (signal: AbortSignal) => Promise<() => Promise<void>>;
}

interface CommandAgentRunOptions {
  readonly scenario: Scenario;
  readonly scenarioFile: string;
  readonly setting: CommandAgentSetting;
  /** The folder the command starts in (the scenario's workspace folder). */
  readonly cwd: string;
  /** The trajectory file the run writes; the command's stdout and stderr go beside it. */
  readonly file: string;
  readonly seed: number;
}

/** The agent of one run, or a one-line problem naming the setting (a command line that does not split). */
export function commandAgentRun(options: CommandAgentRunOptions): CommandAgentRun | { readonly problem: string } {
  const { scenario, setting } = options;
  let spec: ReturnType<typeof roleSpec>;
  try {
    spec = roleSpec(
      "agent",
      `${COMMAND_PREFIX}${setting.command}`,
      { commandCwd: options.cwd, ...(setting.timeLimit === null ? {} : { timeLimit: setting.timeLimit }) },
      {},
    );
  } catch (e) {
    return { problem: `toolsandbox.agents "${setting.name}": ${errorMessage(e).replace(/^cmd::?\s*/, "")}` };
  }
  // The user is not made here (it may be a model with its key from secret storage): only the agent is kept.
  const { agent } = createRoles(spec, "scripted", scenario, {});
  const job = {
    index: 0,
    file: options.scenarioFile,
    scenario,
    trial: null,
    seed: options.seed,
    trajectory: basename(options.file),
  };
  const around = outsideAgent(spec, agent, job, dirname(options.file));
  if (around === null) return { problem: `toolsandbox.agents "${setting.name}" is not a command agent` };
  return { agent, around };
}

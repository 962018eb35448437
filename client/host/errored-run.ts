// (vscode) The notification of a run that errored (a command agent whose script is missing, a
// model endpoint that failed): its reason, and the actions that lead to the cause: the agent's log
// (a command agent's stderr, kept beside the trajectory), the settings that configure the role,
// and the run itself.
import { existsSync } from "node:fs";
import * as vscode from "vscode";
import { pathsIn } from "../../engine/panel/paths-in-text.js";
import { TRAJECTORY_SUFFIX } from "../../engine/trajectory/writer.js";

interface ErroredRun {
  /** The scenario file's name. */
  readonly name: string;
  /** "errored (role_error): the command exited (code 127) …" (node-results.ts erroredReason). */
  readonly reason: string;
  readonly trajectory: string;
  /** The settings that configure the role that failed: `toolsandbox.agents` for a command agent. */
  readonly settings: string;
  readonly log: vscode.LogOutputChannel;
}

/** The log that says why: a file the reason names, else a command agent's stderr beside the run; null when there is none. */
function agentLogOf(reason: string, trajectory: string): string | null {
  const named = pathsIn(reason).find((p) => p.endsWith(".log") && existsSync(p));
  if (named !== undefined) return named;
  const stderr = `${trajectory.slice(0, -TRAJECTORY_SUFFIX.length)}.agent-stderr.log`;
  return trajectory.endsWith(TRAJECTORY_SUFFIX) && existsSync(stderr) ? stderr : null;
}

export async function notifyErroredRun(run: ErroredRun): Promise<void> {
  const agentLog = agentLogOf(run.reason, run.trajectory);
  const OPEN_LOG = agentLog === null ? "Open Log" : "Open Agent Log";
  const OPEN_SETTINGS = "Open Settings";
  const OPEN_RUN = "Open Run";
  const chosen = await vscode.window.showErrorMessage(`ToolSandbox: ${run.name} ${run.reason}`, OPEN_LOG, OPEN_SETTINGS, OPEN_RUN);
  if (chosen === OPEN_LOG) {
    if (agentLog === null) run.log.show(true);
    else await vscode.window.showTextDocument(vscode.Uri.file(agentLog), { preview: true });
  } else if (chosen === OPEN_SETTINGS) {
    await vscode.commands.executeCommand("workbench.action.openSettings", run.settings);
  } else if (chosen === OPEN_RUN) {
    await vscode.commands.executeCommand("toolsandbox.revealMessage", vscode.Uri.file(run.trajectory).toString(), null);
  }
}

/** "… cannot run: 2 errors in the scenario …" with a Show Problems action. */
export async function notifyCannotRun(problem: string): Promise<void> {
  const SHOW = "Show Problems";
  const chosen = await vscode.window.showErrorMessage(problem.startsWith("ToolSandbox") ? problem : `ToolSandbox: ${problem}`, SHOW);
  if (chosen === SHOW) await vscode.commands.executeCommand("workbench.actions.view.problems");
}

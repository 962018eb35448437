// VS Code's debugger on scenarios: F5 on a scenario plays it under the debug adapter (engine/debug),
// F5 on a saved *.trajectory.jsonl replays it. The adapter runs inline in the extension host (no
// process to start); it is the same one `toolsandbox dap` serves to other editors. A debug session
// plays the scenario's episode, so like Run Scenario it needs a trusted workspace.
import { dirname } from "node:path";
import * as vscode from "vscode";
import { STOPPED_AT_EVENT, type StoppedAt, ToolSandboxDebugAdapter } from "../../engine/debug/adapter.js";
import { launchRoles } from "../../engine/debug/launch-roles.js";
import { SCENARIO_LANGUAGE } from "./scenario-documents.js";
import type { Trajectories } from "./trajectories.js";

export const DEBUG_TYPE = "toolsandbox";

export function registerDebugger(trajectories: Trajectories): vscode.Disposable[] {
  return [
    vscode.debug.registerDebugAdapterDescriptorFactory(DEBUG_TYPE, new InlineAdapterFactory()),
    vscode.debug.registerDebugConfigurationProvider(DEBUG_TYPE, new ConfigurationProvider(trajectories)),
    vscode.debug.onDidReceiveDebugSessionCustomEvent((e) => followInPanel(e)),
  ];
}

/**
 * The panel follows a replay: at each stop it selects the message, with its world diff and
 * matches. A live session's file is still being written, and the panel reads a saved file once,
 * so a live session is not followed.
 */
function followInPanel(e: vscode.DebugSessionCustomEvent): void {
  if (e.session.type !== DEBUG_TYPE || e.event !== STOPPED_AT_EVENT) return;
  const at = e.body as Partial<StoppedAt> | undefined;
  if (typeof at?.trajectory !== "string" || typeof at.index !== "number" || at.replay !== true) return;
  void vscode.commands.executeCommand("toolsandbox.revealMessage", vscode.Uri.file(at.trajectory), at.index);
}

class InlineAdapterFactory implements vscode.DebugAdapterDescriptorFactory {
  createDebugAdapterDescriptor(session: vscode.DebugSession): vscode.ProviderResult<vscode.DebugAdapterDescriptor> {
    if (!vscode.workspace.isTrusted) {
      throw new Error("Debugging a scenario plays it, which needs a trusted workspace (Workspaces: Manage Workspace Trust).");
    }
    const cwd = session.workspaceFolder?.uri.fsPath ?? process.cwd();
    return new vscode.DebugAdapterInlineImplementation(new ToolSandboxDebugAdapter((args) => launchRoles(args), cwd));
  }
}

/** F5 without a launch.json: debug the scenario (or replay the trajectory) in the active editor. */
class ConfigurationProvider implements vscode.DebugConfigurationProvider {
  constructor(private readonly trajectories: Trajectories) {}

  resolveDebugConfiguration(
    _folder: vscode.WorkspaceFolder | undefined,
    config: vscode.DebugConfiguration,
  ): vscode.DebugConfiguration | undefined {
    if (!config.type && !config.request && !config.name) {
      const document = vscode.window.activeTextEditor?.document;
      const file = document?.uri.scheme === "file" ? document.uri.fsPath : null;
      if (file && (document?.languageId === SCENARIO_LANGUAGE || file.endsWith(".trajectory.jsonl"))) {
        config.type = DEBUG_TYPE;
        config.request = "launch";
        config.name = file.endsWith(".jsonl") ? "Replay trajectory" : "Debug scenario";
        config.program = file;
        config.stopOnEntry = true;
      }
    }
    if (typeof config.program !== "string") {
      void vscode.window.showInformationMessage("Open a scenario or a trajectory to debug, or set program in the launch configuration.");
      return undefined;
    }
    // Runs go where Run Scenario puts them (toolsandbox.runsFolder), unless the configuration says otherwise.
    if (config.out === undefined && !config.program.endsWith(".jsonl")) config.out = this.trajectories.runsFolderFor(config.program);
    config.cwd ??= dirname(config.program);
    return config;
  }
}

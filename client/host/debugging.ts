// VS Code's debugger on scenarios: F5 on a scenario plays it under the debug adapter (engine/debug),
// F5 on a saved *.trajectory.jsonl replays it. The adapter runs inline in the extension host (no
// process to start); it is the same one `toolsandbox dap` serves to other editors. A debug session
// plays the scenario's episode, so like Run Scenario it needs a trusted workspace. Model keys come
// from secret storage, as for the panel's runs, never from launch.json or the environment.
import { dirname, isAbsolute } from "node:path";
import * as vscode from "vscode";
import { STOPPED_AT_EVENT, type StoppedAt, ToolSandboxDebugAdapter } from "../../engine/debug/adapter.js";
import { type LaunchKey, type LaunchKeys, launchRoles } from "../../engine/debug/launch-roles.js";
import { DEFAULT_BASE_URL } from "../../engine/roles/openai/settings.js";
import type { ApiKeys } from "./api-keys.js";
import { DebugFollower, MOVE_REQUESTS } from "./debug-follower.js";
import type { PanelViews } from "./main-panel.js";
import type { RunStore } from "./run-store.js";
import { SCENARIO_LANGUAGE } from "./scenario-documents.js";
import type { Trajectories } from "./trajectories.js";

const DEBUG_TYPE = "toolsandbox";

interface DebuggerServices {
  readonly store: RunStore;
  readonly views: PanelViews;
  readonly trajectories: Trajectories;
  readonly keys: ApiKeys;
  readonly log: vscode.LogOutputChannel;
}

export function registerDebugger(s: DebuggerServices): vscode.Disposable[] {
  const follower = new DebugFollower(s.store, s.views, s.log);
  return [
    vscode.debug.registerDebugAdapterDescriptorFactory(DEBUG_TYPE, new InlineAdapterFactory(follower, s.keys)),
    vscode.debug.registerDebugConfigurationProvider(DEBUG_TYPE, new ConfigurationProvider(s.trajectories)),
    vscode.debug.registerDebugAdapterTrackerFactory(DEBUG_TYPE, {
      // The panel's live state follows the session: running while it moves, paused at each stop.
      createDebugAdapterTracker: (session) => ({
        onWillReceiveMessage: (message: unknown) => {
          const command = requestCommand(message);
          if (command !== null && MOVE_REQUESTS.has(command)) follower.moving(session.id);
        },
      }),
    }),
    vscode.debug.onDidReceiveDebugSessionCustomEvent((e) => followInPanel(e, follower)),
    vscode.debug.onDidTerminateDebugSession((session) => follower.ended(session.id)),
  ];
}

function requestCommand(message: unknown): string | null {
  if (typeof message !== "object" || message === null) return null;
  const m = message as { type?: unknown; command?: unknown };
  return m.type === "request" && typeof m.command === "string" ? m.command : null;
}

/**
 * The panel follows the session: at each stop it shows the session's trajectory (a live one as it
 * is written, a replay as saved) and selects the message, with its world diff and matches.
 */
function followInPanel(e: vscode.DebugSessionCustomEvent, follower: DebugFollower): void {
  if (e.session.type !== DEBUG_TYPE || e.event !== STOPPED_AT_EVENT) return;
  const at = e.body as Partial<StoppedAt> | undefined;
  if (typeof at?.trajectory !== "string" || typeof at.index !== "number" || typeof at.replay !== "boolean") return;
  if (!at.replay && follower.stopped(e.session.id, at.index)) return;
  void vscode.commands.executeCommand("toolsandbox.revealMessage", vscode.Uri.file(at.trajectory), at.index);
}

class InlineAdapterFactory implements vscode.DebugAdapterDescriptorFactory {
  constructor(
    private readonly follower: DebugFollower,
    private readonly keys: ApiKeys,
  ) {}

  async createDebugAdapterDescriptor(session: vscode.DebugSession): Promise<vscode.DebugAdapterDescriptor> {
    if (!vscode.workspace.isTrusted) {
      throw new Error("Debugging a scenario plays it, which needs a trusted workspace (Workspaces: Manage Workspace Trust).");
    }
    const keys = await this.launchKeys(session.configuration);
    const cwd = session.workspaceFolder?.uri.fsPath ?? process.cwd();
    // No environment: a model's key is the one in secret storage (or none for an endpoint on this machine).
    const adapter = new ToolSandboxDebugAdapter((args) => launchRoles(args, {}, keys), cwd, this.follower.observer(session));
    return new vscode.DebugAdapterInlineImplementation(adapter);
  }

  /** The key of each model-backed role, from secret storage (asked for once when an endpoint has none). */
  private async launchKeys(config: vscode.DebugConfiguration): Promise<LaunchKeys> {
    const keyOf = async (role: "agent" | "user"): Promise<LaunchKey | undefined> => {
      const id: unknown = config[role];
      if (typeof id !== "string" || !id.startsWith("openai:")) return undefined;
      const baseUrl: unknown = config[`${role}BaseUrl`];
      const key = await this.keys.forRun(typeof baseUrl === "string" && baseUrl !== "" ? baseUrl : DEFAULT_BASE_URL);
      if (key === undefined) throw new Error(`No API key for the ${role}'s endpoint: the debug session was not started.`);
      return key;
    };
    const agent = await keyOf("agent");
    const user = await keyOf("user");
    return { ...(agent ? { agent } : {}), ...(user ? { user } : {}) };
  }
}

/** F5 without a launch.json: debug the scenario (or replay the trajectory) in the active editor. */
class ConfigurationProvider implements vscode.DebugConfigurationProvider {
  constructor(private readonly trajectories: Trajectories) {}

  resolveDebugConfiguration(
    folder: vscode.WorkspaceFolder | undefined,
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
    // A model role without an endpoint in the launch uses the one in the settings, as Run Scenario with Model does.
    const settings = vscode.workspace.getConfiguration("toolsandbox");
    for (const role of ["agent", "user"] as const) {
      const endpoint = settings.get<unknown>(`${role}.baseUrl`);
      const id: unknown = config[role];
      if (
        typeof id === "string" &&
        id.startsWith("openai:") &&
        config[`${role}BaseUrl`] === undefined &&
        typeof endpoint === "string" &&
        endpoint !== ""
      )
        config[`${role}BaseUrl`] = endpoint;
    }
    // Relative paths, and where a cmd: agent starts: the workspace folder, as for other debuggers.
    config.cwd ??= folder?.uri.fsPath ?? (isAbsolute(config.program) ? dirname(config.program) : undefined);
    return config;
  }
}

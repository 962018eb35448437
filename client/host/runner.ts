// Plays a scenario from the editor or the Testing view: checks the text (unsaved edits included),
// builds the roles, claims the next run file, and plays the episode while its lines stream to the
// panel. The run can be paused and stepped from the panel and cancelled from VS Code. Runs need a
// trusted workspace: a model run sends the workspace's scenario to a configured endpoint.
import { basename, dirname } from "node:path";
import * as vscode from "vscode";
import { checkScenarioFileText } from "../../engine/scenario/load.js";
import type { Scenario } from "../../engine/scenario/model.js";
import { createScriptedRoles, createScriptedUser } from "../../engine/roles/scripted.js";
import type { RolePlayJudge } from "../../engine/benchmarks/dialogtool/role-play/role-play-judge.js";
import type { AgentRole, UserRole } from "../../engine/episode/role.js";
import { type CommandAgentRun, commandAgentRun } from "./command-agent-run.js";
import { splitCommandLine } from "../../engine/runner/command-agent.js";
import { readTrajectoryFile } from "../../engine/trajectory/reader.js";
import type { Trajectory } from "../../engine/trajectory/trajectory.js";
import type { ApiKeys } from "./api-keys.js";
import { playToFile, TrajectoryWriteError, type LiveRunOutcome } from "./live-run.js";
import type { PanelViews } from "./main-panel.js";
import { createModelRoles, createModelUser, settingsGetter } from "./model-roles.js";
import { errorSummary } from "./rescore.js";
import { claimRunFile } from "../../engine/trajectory/run-files.js";
import { RunGate } from "./run-gate.js";
import type { RunStore } from "./run-store.js";
import { type CommandAgentSetting, readEpisodeSeed } from "./settings.js";
import { currentText } from "./scenario-documents.js";
import { fileStamp, trajectoryTitle, type Trajectories } from "./trajectories.js";

/** Scripted roles, the configured models, or a configured command agent (`toolsandbox.agents`). */
export type RunMode = "scripted" | "model" | "agent";

export const UNTRUSTED_MESSAGE =
  "ToolSandbox: running scenarios is disabled in an untrusted workspace (a run writes files and can call the configured model endpoints). Trust the workspace to run; authoring works without it.";

interface RunRequest {
  readonly scenarioUri: vscode.Uri;
  readonly mode: RunMode;
  /** Open the panel on the run as it starts (palette and CodeLens runs; not the Testing view). */
  readonly showPanel: boolean;
  readonly token?: vscode.CancellationToken;
  /** Hold the run before its first turn, to be stepped from the panel (only with showPanel). */
  readonly startPaused?: boolean;
  /** The command agent of an "agent" run. */
  readonly agent?: CommandAgentSetting;
}

type RunResult =
  | { readonly kind: "played"; readonly outcome: LiveRunOutcome; readonly text: string }
  /** Nothing was played; `problem` is null when the user cancelled a prompt. */
  | { readonly kind: "refused"; readonly problem: string | null };

export class Runner {
  constructor(
    private readonly store: RunStore,
    private readonly views: PanelViews,
    private readonly trajectories: Trajectories,
    private readonly keys: ApiKeys,
    private readonly log: vscode.LogOutputChannel,
  ) {}

  async run(request: RunRequest): Promise<RunResult> {
    if (!vscode.workspace.isTrusted) return { kind: "refused", problem: UNTRUSTED_MESSAGE };
    const scenarioPath = request.scenarioUri.fsPath;
    let text: string;
    try {
      text = await currentText(request.scenarioUri);
    } catch (e) {
      return { kind: "refused", problem: `cannot read ${basename(scenarioPath)}: ${e instanceof Error ? e.message : String(e)}` };
    }
    const checked = checkScenarioFileText(text, scenarioPath);
    const errors = checked.diagnostics.filter((d) => d.severity === "error");
    if (checked.scenario === null || errors.length > 0) {
      return { kind: "refused", problem: `${basename(scenarioPath)} cannot run: ${errorSummary(errors)}` };
    }
    const scenario = checked.scenario;
    const roles = await this.roles(request, scenario);
    if (!roles.ok) return { kind: "refused", problem: roles.problem };
    const seed = readEpisodeSeed(settingsGetter());
    if (!seed.ok) return { kind: "refused", problem: seed.problem };

    let file: string;
    try {
      file = claimRunFile(this.trajectories.runsFolderFor(scenarioPath), scenario.name);
    } catch (e) {
      return { kind: "refused", problem: `cannot create the run file: ${e instanceof Error ? e.message : String(e)}` };
    }
    // A command agent is started per run, its logs beside the run file: made once the file is known.
    let agent = roles.agent ?? null;
    let around: CommandAgentRun["around"] | undefined;
    if (request.mode === "agent" && request.agent) {
      const folder = vscode.workspace.getWorkspaceFolder(request.scenarioUri)?.uri.fsPath ?? dirname(scenarioPath);
      const made = commandAgentRun({ scenario, scenarioFile: scenarioPath, setting: request.agent, cwd: folder, file, seed: seed.value });
      if ("problem" in made) return { kind: "refused", problem: made.problem };
      agent = made.agent;
      around = made.around;
    }
    if (agent === null) return { kind: "refused", problem: "no agent to run" };
    const player = agent;
    const feed = this.store.addLive(file, trajectoryTitle(file), scenarioPath);
    if (request.showPanel) this.views.open(feed);
    // A run nobody watches must not wait for a Continue nobody can press.
    const gate = new RunGate((state) => this.store.setLive(file, state), {
      startPaused: request.showPanel && request.startPaused === true,
    });
    const abort = new AbortController();
    feed.setController((action) => (action === "stop" ? abort.abort() : gate.control(action)));
    const cancel = request.token?.onCancellationRequested(() => abort.abort());
    this.log.info(`run ${scenario.name} (${request.mode === "agent" ? `agent ${request.agent?.name}` : request.mode}) → ${file}`);

    let outcome: LiveRunOutcome;
    try {
      outcome = await playToFile({
        scenario,
        agent: player,
        user: roles.user,
        ...(around ? { around } : {}),
        seed: seed.value,
        file,
        signal: abort.signal,
        beforeTurn: gate.beforeTurn,
        onLine: (line) => feed.append(line),
        onProgress: (evaluation) => feed.setEvaluation(evaluation),
        ...("judge" in roles && roles.judge ? { judge: roles.judge } : {}),
      });
    } catch (e) {
      if (!(e instanceof TrajectoryWriteError)) throw e;
      this.store.finishLive(file, null, null, null);
      return { kind: "refused", problem: e.message };
    } finally {
      cancel?.dispose();
      gate.finish();
    }
    this.store.finishLive(file, this.readBack(file), outcome.evaluation, fileStamp(file));
    this.log.info(
      `${scenario.name}: ${outcome.end?.reason ?? "no end"}${outcome.engineError ? ` (engine error: ${outcome.engineError})` : ""}`,
    );
    return { kind: "played", outcome, text };
  }

  private async roles(
    request: RunRequest,
    scenario: Scenario,
  ): Promise<
    | { readonly ok: true; readonly agent?: AgentRole; readonly user: UserRole; readonly judge?: RolePlayJudge }
    | { readonly ok: false; readonly problem: string | null }
  > {
    if (request.mode === "scripted") return { ok: true, ...createScriptedRoles(scenario) };
    if (request.mode === "model") return createModelRoles(scenario, this.keys);
    if (!request.agent) return { ok: false, problem: "no command agent was chosen" };
    const split = splitCommandLine(request.agent.command).problem;
    if (split !== null)
      return { ok: false, problem: `toolsandbox.agents "${request.agent.name}": the command line cannot be read: ${split}` };
    if (request.agent.user === "model") return createModelUser(this.keys);
    return { ok: true, user: createScriptedUser(scenario) };
  }

  /** The finished file, parsed (re-scoring reads it); null if it cannot be read back. */
  private readBack(file: string): Trajectory | null {
    try {
      return readTrajectoryFile(file);
    } catch (e) {
      this.log.error(`cannot read back ${file}: ${e instanceof Error ? e.message : String(e)}`);
      return null;
    }
  }
}

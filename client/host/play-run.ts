// (vscode) "Play Scenario as Agent…": the person plays the agent in the panel, through the form of
// the scenario's tools (play-seat.ts), and the run is `toolsandbox play --as agent`'s: the same
// runner (playJob, with the person's role from engine/roles/human.ts in the agent's seat), written
// to a new run file beside the scenario's other runs and scored, the agent recorded as `human`.
// The user is the scripted one, or the model of toolsandbox.user.* when that is set and chosen.
// Runs need a trusted workspace, as Run Scenario does (a model user calls the configured endpoint).
import { basename, dirname } from "node:path";
import * as vscode from "vscode";
import { createHumanAgent } from "../../engine/roles/human.js";
import type { RoleSpec } from "../../engine/runner/role-specs.js";
import { planJobs } from "../../engine/runner/jobs.js";
import { playJob } from "../../engine/runner/play.js";
import { resultStatus } from "../../engine/runner/summary.js";
import type { EvaluationResult } from "../../engine/evaluation/evaluate.js";
import { formatScore } from "../../engine/evaluation/highlights.js";
import { checkScenarioFileText } from "../../engine/scenario/load.js";
import { readTrajectoryFile } from "../../engine/trajectory/reader.js";
import { claimRunFile } from "../../engine/trajectory/run-files.js";
import { errorMessage } from "../../engine/base/text.js";
import type { ApiKeys } from "./api-keys.js";
import type { PanelViews } from "./main-panel.js";
import { settingsGetter } from "./model-roles.js";
import { PlaySeat } from "./play-seat.js";
import { errorSummary } from "./rescore.js";
import type { RunStore } from "./run-store.js";
import { UNTRUSTED_MESSAGE } from "./runner.js";
import { currentText } from "./scenario-documents.js";
import { readEpisodeSeed, readRoleChoice } from "./settings.js";
import { fileStamp, trajectoryTitle, type Trajectories } from "./trajectories.js";

interface PlayServices {
  readonly store: RunStore;
  readonly views: PanelViews;
  readonly trajectories: Trajectories;
  readonly keys: ApiKeys;
  readonly log: vscode.LogOutputChannel;
}

/** Plays the scenario with the person as the agent; returns the run file once it is written and scored, or null. */
export async function playScenarioAsAgent(uri: vscode.Uri, s: PlayServices): Promise<string | null> {
  const problem = (text: string): null => {
    void vscode.window.showErrorMessage(`ToolSandbox: ${text}`);
    return null;
  };
  if (!vscode.workspace.isTrusted) {
    void vscode.window.showWarningMessage(UNTRUSTED_MESSAGE);
    return null;
  }
  const scenarioPath = uri.fsPath;
  let text: string;
  try {
    text = await currentText(uri);
  } catch (e) {
    return problem(`cannot read ${basename(scenarioPath)}: ${errorMessage(e)}`);
  }
  const checked = checkScenarioFileText(text, scenarioPath);
  const errors = checked.diagnostics.filter((d) => d.severity === "error");
  if (checked.scenario === null || errors.length > 0) return problem(`${basename(scenarioPath)} cannot run: ${errorSummary(errors)}`);
  const scenario = checked.scenario;
  const user = await chooseUser(s.keys);
  if (user === null) return null;
  if ("problem" in user) return problem(user.problem);
  const seed = readEpisodeSeed(settingsGetter());
  if (!seed.ok) return problem(seed.problem);

  let file: string;
  try {
    file = claimRunFile(s.trajectories.runsFolderFor(scenarioPath), scenario.name);
  } catch (e) {
    return problem(`cannot create the run file: ${errorMessage(e)}`);
  }
  const [planned] = planJobs([{ file: scenarioPath, scenario }], 1, seed.value);
  if (!planned) return problem("the scenario planned no job");
  const job = { ...planned, trajectory: basename(file) };

  const feed = s.store.addLive(file, trajectoryTitle(file), scenarioPath);
  const seat = new PlaySeat(scenario, (form) => feed.setPlayForm(form));
  feed.setPlayForm(seat.form);
  feed.setPlayer((request) => {
    const refused = seat.receive(request);
    if (refused !== null) s.log.info(`play ${scenario.name}: refused ${request.type}: ${refused}`);
  });
  const abort = new AbortController();
  feed.setController((action) => {
    if (action === "stop") abort.abort();
  });
  s.store.setLive(file, "running");
  s.views.open(feed, { preserveFocus: false });
  s.log.info(`play ${scenario.name} as the agent (user ${user.spec.kind}) → ${file}`);

  let evaluation: EvaluationResult | null = null;
  try {
    const { result, engineError } = await playJob(job, {
      agent: "scripted",
      user: user.spec,
      human: { as: "agent", role: createHumanAgent({ read: seat.read, refuse: seat.refuse }) },
      outDir: dirname(file),
      signal: abort.signal,
      onHeader: (header) => feed.append(header),
      onEvent: (event) => {
        seat.onEvent(event);
        if (event.type === "evaluation") evaluation = event.result;
        feed.append(event);
      },
      onProgress: (progress) => feed.setEvaluation(progress),
    });
    if (engineError !== null) s.log.error(`play ${scenario.name}: the engine failed: ${errorMessage(engineError)}`);
    const status = resultStatus(result);
    if (status === "errored")
      void vscode.window.showErrorMessage(`ToolSandbox: ${basename(file)}: errored: ${result.detail ?? "not scored"}`);
    else void offerDraft(file, `ToolSandbox: ${scenario.name} played, score ${formatScore(result.score)}`);
  } catch (e) {
    // The run file could not be written (playJob's ExitError): nothing more to show than why.
    void vscode.window.showErrorMessage(`ToolSandbox: ${errorMessage(e)}`);
  } finally {
    seat.finish();
    feed.setPlayer(null);
  }
  let trajectory = null;
  try {
    trajectory = readTrajectoryFile(file);
  } catch (e) {
    s.log.error(`cannot read back ${file}: ${errorMessage(e)}`);
  }
  s.store.finishLive(file, trajectory, evaluation, fileStamp(file));
  return file;
}

async function offerDraft(file: string, summary: string): Promise<void> {
  const chosen = await vscode.window.showInformationMessage(summary, "Save Run as Scenario…");
  if (chosen !== undefined) await vscode.commands.executeCommand("toolsandbox.saveRunAsScenario", vscode.Uri.file(file));
}

/**
 * The scripted user, unless toolsandbox.user.model is set in the settings: then a quick pick
 * offers that model too. Null when the pick or the key prompt was cancelled.
 */
async function chooseUser(keys: ApiKeys): Promise<{ readonly spec: RoleSpec } | { readonly problem: string } | null> {
  const scripted = { spec: { kind: "scripted" } as const };
  const config = vscode.workspace.getConfiguration("toolsandbox");
  const set = config.inspect<string>("user.model");
  const explicit = set?.workspaceFolderValue ?? set?.workspaceValue ?? set?.globalValue;
  if (explicit === undefined || explicit === "") return scripted;
  const choice = readRoleChoice("user", settingsGetter());
  if (!choice.ok) return { problem: choice.problem };
  if (choice.value.kind !== "model") return scripted;
  const settings = choice.value.settings;
  const picked = await vscode.window.showQuickPick(
    [
      { label: "Scripted user", detail: "says the reference's user lines in order", model: false },
      { label: `Model user: ${settings.model}`, detail: `toolsandbox.user.* (${settings.base_url})`, model: true },
    ],
    { title: "ToolSandbox: Play Scenario as Agent", placeHolder: "Who plays the user?" },
  );
  if (picked === undefined) return null;
  if (!picked.model) return scripted;
  const key = await keys.forRun(settings.base_url);
  if (key === undefined) return null;
  const recordIo = config.get("recordModelIo") !== false;
  return { spec: { kind: "openai", settings: { ...settings, api_key_env: key.source }, keyRequired: true, apiKey: key.key, recordIo } };
}

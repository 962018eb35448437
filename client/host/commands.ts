// The palette commands and their arguments. Arguments come from the palette (none), CodeLenses,
// the explorer's context menu and other extensions, so each is checked before use.
import { basename } from "node:path";
import * as vscode from "vscode";
import type { NodeKind } from "../../engine/panel/protocol.js";
import type { RunsViews } from "./runs-views.js";
import { readRunRecord } from "../../engine/reports/run-record.js";
import { shortDate } from "../webview/runs/table-model.js";
import { addAgent } from "./add-agent.js";
import type { ApiKeys } from "./api-keys.js";
import { newScenario } from "./new-scenario.js";
import type { TrajectoryFeed } from "./feed.js";
import { currentText, isScenarioDocument, outlineOf } from "./scenario-documents.js";
import type { LiveRescore } from "./live-rescore.js";
import type { PanelViews } from "./main-panel.js";
import { configuredBaseUrls, settingsGetter } from "./model-roles.js";
import { type CommandAgentSetting, readCommandAgents } from "./settings.js";
import { lineOfNode } from "./node-lines.js";
import { erroredReason, scoreSummary } from "./node-results.js";
import { notifyCannotRun, notifyErroredRun } from "./errored-run.js";
import { chooseScenario } from "./scenario-pick.js";
import type { RunStore } from "./run-store.js";
import { UNTRUSTED_MESSAGE, type Runner, type RunMode } from "./runner.js";
import { earlyEndNote } from "./test-report.js";
import { activeRunFile, saveRunAsScenario } from "./save-as-scenario.js";
import { playScenarioAsAgent } from "./play-run.js";
import { isTrajectoryPath, trajectoryTitle, type Trajectories } from "./trajectories.js";

interface CommandServices {
  readonly store: RunStore;
  readonly views: PanelViews;
  readonly trajectories: Trajectories;
  readonly runner: Runner;
  readonly rescore: LiveRescore;
  readonly keys: ApiKeys;
  readonly runsViews: RunsViews;
  readonly log: vscode.LogOutputChannel;
}

/** "score 1.00 · agent openai:gpt-4o · user scripted · 2026-11-25 02:04" for the Replay picker. */
function runFacts(file: string): string {
  try {
    const r = readRunRecord(file, file);
    const score = r.damaged !== null ? `damaged (${r.damaged})` : r.score === null ? "not scored" : `score ${r.score.toFixed(2)}`;
    return `${score} · agent ${r.agent} · user ${r.user} · ${shortDate(r.date)}`;
  } catch {
    return "";
  }
}

/** A file URI from a command argument (a Uri, or its string form); null for anything else. */
function fileUriArg(value: unknown): vscode.Uri | null {
  let uri: vscode.Uri | null = null;
  if (value instanceof vscode.Uri) uri = value;
  else if (typeof value === "string" && value.length < 4096) {
    try {
      uri = vscode.Uri.parse(value, true);
    } catch {
      uri = null;
    }
  }
  return uri?.scheme === "file" ? uri : null;
}

/** The scenario file of a Testing view item (`testing/item/context` passes the item): its own, or its milestone's. */
function testItemScenario(value: unknown): vscode.Uri | null {
  if (typeof value !== "object" || value === null || value instanceof vscode.Uri) return null;
  const { id, uri } = value as { readonly id?: unknown; readonly uri?: unknown };
  if (typeof id !== "string" || !id.startsWith("scenario:") || !(uri instanceof vscode.Uri) || uri.scheme !== "file") return null;
  return /\.scenario\.ya?ml$/.test(uri.fsPath) ? uri : null;
}

const activeScenario = (): vscode.TextDocument | null => {
  const doc = vscode.window.activeTextEditor?.document;
  return doc && isScenarioDocument(doc) ? doc : null;
};

/** What a run picker is for: its title and prompt, and a run it must not offer (the one already picked). */
interface TrajectoryPick {
  readonly title: string;
  readonly placeHolder: string;
  readonly exclude?: string;
}

const REPLAY_PICK: TrajectoryPick = { title: "ToolSandbox: Replay Trajectory", placeHolder: "Choose a trajectory to replay" };

const showProblem = (problem: string): void =>
  void vscode.window.showErrorMessage(problem.startsWith("ToolSandbox") ? problem : `ToolSandbox: ${problem}`);

export class Commands {
  constructor(private readonly s: CommandServices) {}

  register(): vscode.Disposable[] {
    const command = (id: string, run: (...args: unknown[]) => unknown): vscode.Disposable => vscode.commands.registerCommand(id, run);
    return [
      command("toolsandbox.runScenario", (arg) => this.run("scripted", arg)),
      command("toolsandbox.runScenarioWithModel", (arg) => this.run("model", arg)),
      command("toolsandbox.runScenarioPaused", (arg) => this.run("scripted", arg, true)),
      command("toolsandbox.runScenarioWithAgent", (arg) => this.runWithAgent(arg)),
      command("toolsandbox.playScenarioAsAgent", (arg) => this.playAsAgent(arg)),
      command("toolsandbox.replayTrajectory", (arg) => this.replay(arg)),
      command("toolsandbox.rescoreTrajectory", (arg) => this.rescore(arg)),
      command("toolsandbox.saveRunAsScenario", (arg) => this.saveRunAsScenario(arg)),
      command("toolsandbox.openPanel", () => this.openPanel()),
      command("toolsandbox.revealMessage", (trajectory, index) => this.revealMessage(trajectory, index)),
      command("toolsandbox.showRuns", () => this.s.runsViews.showRuns()),
      command("toolsandbox.compareWithReference", (arg) => this.compareWithReference(arg)),
      command("toolsandbox.compareRuns", (arg, all) => this.compareRuns(arg, all)),
      command("toolsandbox.setApiKey", () => this.s.keys.setCommand(configuredBaseUrls())),
      command("toolsandbox.clearApiKey", () => this.s.keys.clearCommand()),
      command("toolsandbox.newScenario", () => newScenario()),
      command("toolsandbox.addAgent", () => addAgent(() => this.s.keys.setCommand(configuredBaseUrls()))),
    ];
  }

  /** A saved run (the argument, else one picked) against its scenario's reference, played now. */
  private async compareWithReference(arg: unknown): Promise<void> {
    const uri =
      fileUriArg(arg) ??
      (await this.pickTrajectory(activeScenario(), {
        title: "ToolSandbox: Compare Run with Reference",
        placeHolder: "Choose the run to compare with its scenario's reference solution",
      }));
    if (uri !== null) await this.s.runsViews.compare(uri.fsPath, null);
  }

  /** Two runs selected in the explorer (the second argument lists the selection), else picked one by one. */
  private async compareRuns(arg: unknown, all: unknown): Promise<void> {
    const selected = Array.isArray(all) ? all.map(fileUriArg).filter((u): u is vscode.Uri => u !== null) : [];
    const first =
      selected[0] ??
      fileUriArg(arg) ??
      (await this.pickTrajectory(activeScenario(), {
        title: "ToolSandbox: Compare Runs (1/2)",
        placeHolder: "Choose the first run (A)",
      }));
    if (first === null) return;
    const second =
      selected[1] ??
      (await this.pickTrajectory(activeScenario(), {
        title: "ToolSandbox: Compare Runs (2/2)",
        placeHolder: `Choose the run to compare with ${trajectoryTitle(first.fsPath)} (B)`,
        exclude: first.fsPath,
      }));
    if (second === null) return;
    await this.s.runsViews.compare(first.fsPath, second.fsPath);
  }

  /** The panel's "show this milestone": select the node's `id:` line in its scenario. */
  async revealNode(feed: TrajectoryFeed, kind: NodeKind, id: string): Promise<void> {
    const scenarioPath = await this.s.trajectories.scenarioFileOf(feed.path);
    if (scenarioPath === null) {
      void vscode.window.showWarningMessage(`ToolSandbox: no scenario file in the workspace has the name this run played.`);
      return;
    }
    const doc = await vscode.workspace.openTextDocument(vscode.Uri.file(scenarioPath));
    const line = lineOfNode(doc.getText(), kind, id);
    if (line === null) {
      void vscode.window.showWarningMessage(`ToolSandbox: ${basename(scenarioPath)} has no ${kind} "${id}".`);
      return;
    }
    const open = vscode.window.visibleTextEditors.find((e) => e.document === doc);
    const range = doc.lineAt(line).range;
    await vscode.window.showTextDocument(doc, { viewColumn: open?.viewColumn ?? vscode.ViewColumn.One, selection: range });
  }

  /** "Run Scenario with Agent…": a command agent of toolsandbox.agents, chosen in a quick pick. */
  private async runWithAgent(arg: unknown): Promise<void> {
    if (!vscode.workspace.isTrusted) {
      void vscode.window.showWarningMessage(UNTRUSTED_MESSAGE);
      return;
    }
    const agents = readCommandAgents(settingsGetter());
    if (!agents.ok) {
      showProblem(agents.problem);
      return;
    }
    type Item = vscode.QuickPickItem & { readonly agent: CommandAgentSetting | null };
    const items: Item[] = [
      ...agents.value.map((agent) => ({
        label: agent.name,
        description: agent.command,
        detail: agent.user === "model" ? "user: the model of toolsandbox.user.*" : "user: scripted",
        agent,
      })),
      {
        label: "$(gear) Configure agents…",
        description: "toolsandbox.agents",
        detail: agents.value.length === 0 ? "No agent is configured: add a name and a command line in the settings." : undefined,
        agent: null,
      },
    ];
    const chosen = await vscode.window.showQuickPick(items, {
      title: "ToolSandbox: Run Scenario with Agent",
      placeHolder: agents.value.length === 0 ? "No command agent is configured" : "Choose the agent to run the scenario with",
      matchOnDescription: true,
    });
    if (chosen === undefined) return;
    if (chosen.agent === null) {
      await vscode.commands.executeCommand("workbench.action.openSettings", "toolsandbox.agents");
      return;
    }
    await this.run("agent", arg, undefined, chosen.agent);
  }

  private async run(mode: RunMode, arg: unknown, paused?: boolean, agent?: CommandAgentSetting): Promise<void> {
    if (!vscode.workspace.isTrusted) {
      void vscode.window.showWarningMessage(UNTRUSTED_MESSAGE);
      return;
    }
    // No scenario named or active (the empty panel's button has the focus): the one in view, else ask.
    const uri = fileUriArg(arg) ?? activeScenario()?.uri ?? (await chooseScenario());
    if (uri === null) return;
    const name = basename(uri.fsPath);
    const startPaused = paused ?? vscode.workspace.getConfiguration("toolsandbox").get("startPaused") === true;
    // No progress notification: it covered the panel the run plays in (the panel's Stop button
    // cancels), and said "running" while the run was paused or a key prompt waited. The results
    // entry of the status bar follows the run's own state (status-text.ts).
    const result = await this.s.runner.run({ scenarioUri: uri, mode, showPanel: true, startPaused, ...(agent ? { agent } : {}) });
    if (result.kind === "refused") {
      if (result.problem === null) return;
      if (result.problem.includes(" cannot run: ")) void notifyCannotRun(result.problem);
      else showProblem(result.problem);
      return;
    }
    const { outcome } = result;
    const errored =
      outcome.engineError !== null ? `errored: the engine failed: ${outcome.engineError}` : erroredReason(outcome.end ?? null);
    if (errored !== null || outcome.evaluation === null) {
      const settings = mode === "agent" ? "toolsandbox.agents" : mode === "model" ? "toolsandbox.agent" : "toolsandbox";
      void notifyErroredRun({
        name,
        reason: errored ?? "errored: the run was not scored",
        trajectory: outcome.file,
        settings,
        log: this.s.log,
      });
      return;
    }
    const early = earlyEndNote(outcome.end);
    if (early !== null) void vscode.window.showWarningMessage(`ToolSandbox: ${name}: ${early}`);
    vscode.window.setStatusBarMessage(`ToolSandbox: ${name} ${scoreSummary(outcome.evaluation)}`, 10_000);
  }

  /** "Play Scenario as Agent…": the scenario named, else the one in view, else one picked (play-run.ts). */
  private async playAsAgent(arg: unknown): Promise<void> {
    if (!vscode.workspace.isTrusted) {
      void vscode.window.showWarningMessage(UNTRUSTED_MESSAGE);
      return;
    }
    const uri = fileUriArg(arg) ?? activeScenario()?.uri ?? (await chooseScenario());
    if (uri !== null) await playScenarioAsAgent(uri, this.s);
  }

  private async replay(arg: unknown): Promise<void> {
    const scenario = activeScenario();
    const uri = fileUriArg(arg) ?? (await this.pickTrajectory(scenario, REPLAY_PICK));
    if (uri === null) return;
    const feed = await this.s.trajectories.openSaved(uri.fsPath, scenario);
    if (feed) this.s.views.open(feed);
  }

  /** "Save Run as Scenario…": the run given, else the one in the active tab, else one picked. */
  private async saveRunAsScenario(arg: unknown): Promise<void> {
    const shownRun = this.s.views.activeFeed?.path ?? this.s.views.mainView?.feed?.path ?? null;
    // A Testing view item: the run whose results it shows for that scenario.
    const testScenario = testItemScenario(arg);
    const testRun = testScenario === null ? undefined : this.s.store.results(testScenario.fsPath)?.trajectoryPath;
    if (testScenario !== null && testRun === undefined) {
      showProblem(`${basename(testScenario.fsPath)} has no run to save yet: run it first.`);
      return;
    }
    const path =
      testRun ??
      fileUriArg(arg)?.fsPath ??
      activeRunFile(shownRun) ??
      (
        await this.pickTrajectory(activeScenario(), {
          title: "ToolSandbox: Save Run as Scenario",
          placeHolder: "Choose the run to draft a scenario from",
        })
      )?.fsPath;
    if (path === undefined) return;
    const live = this.s.store.feed(path)?.live;
    if (live === "running" || live === "paused") {
      showProblem("the run is still going; save it as a scenario when it has finished.");
      return;
    }
    await saveRunAsScenario(path, { findScenarioFile: (name) => this.s.trajectories.findScenarioFile(name) });
  }

  /** A quick pick of the workspace's trajectories, the active scenario's last run first and selected; titled for what it picks for. */
  private async pickTrajectory(scenario: vscode.TextDocument | null, purpose: TrajectoryPick): Promise<vscode.Uri | null> {
    const name = scenario === null ? null : outlineOf(scenario).name;
    const lastRun = scenario === null || name === null ? null : this.s.trajectories.lastRunOf(scenario.uri.fsPath, name);
    const last = lastRun === purpose.exclude ? null : lastRun;
    const others = (await this.s.trajectories.listAll()).filter((u) => u.fsPath !== last && u.fsPath !== purpose.exclude);
    type Item = vscode.QuickPickItem & { readonly uri: vscode.Uri | null };
    // Each run says what it scored, when, and with which models (read cheaply: engine/reports).
    const item = (uri: vscode.Uri, detail?: string): Item => ({
      label: trajectoryTitle(uri.fsPath),
      description: vscode.workspace.asRelativePath(uri, false),
      detail: [detail, runFacts(uri.fsPath)].filter((x) => x).join(" · "),
      uri,
    });
    const items: Item[] = [
      ...(last === null ? [] : [item(vscode.Uri.file(last), `the last run of ${name}`)]),
      ...others.map((u) => item(u)),
      { label: "$(folder-opened) Browse…", description: "a *.trajectory.jsonl anywhere", uri: null },
    ];
    const chosen = await vscode.window.showQuickPick(items, {
      title: purpose.title,
      placeHolder: purpose.placeHolder,
      matchOnDescription: true,
    });
    if (chosen === undefined) return null;
    if (chosen.uri !== null) return chosen.uri;
    const picked = await vscode.window.showOpenDialog({
      canSelectMany: false,
      filters: { "ToolSandbox trajectory": ["jsonl"] },
      title: purpose.title.replace(/^ToolSandbox: /, ""),
    });
    const file = picked?.[0];
    if (file === undefined) return null;
    if (!isTrajectoryPath(file.fsPath)) {
      showProblem(`${basename(file.fsPath)} is not a *.trajectory.jsonl file.`);
      return null;
    }
    return file;
  }

  private async rescore(arg: unknown): Promise<void> {
    const scenario = activeScenario();
    const path =
      fileUriArg(arg)?.fsPath ??
      (scenario === null ? undefined : this.s.store.results(scenario.uri.fsPath)?.trajectoryPath) ??
      this.s.views.activeFeed?.path ??
      this.s.views.mainView?.feed?.path;
    if (path === undefined) {
      showProblem("open a trajectory (or a scenario with a run) to re-score.");
      return;
    }
    if (this.s.store.trajectory(path) === null) {
      const feed = this.s.store.feed(path);
      if (feed?.live === "running" || feed?.live === "paused") {
        showProblem("the run is still going; re-score it when it has finished.");
        return;
      }
      if ((await this.s.trajectories.openSaved(path, scenario)) === null) return;
    }
    const scenarioPath = await this.s.trajectories.scenarioFileOf(path);
    if (scenarioPath === null) {
      const played = this.s.store.trajectory(path)?.header.scenario.name ?? trajectoryTitle(path);
      showProblem(`no scenario file in the workspace is named "${played}" (the scenario this run played).`);
      return;
    }
    const outcome = await this.s.rescore.rescore(scenarioPath, await currentText(vscode.Uri.file(scenarioPath)), path);
    if (!outcome.ok) {
      showProblem(`cannot re-score against ${basename(scenarioPath)}: ${outcome.problem}`);
      return;
    }
    const evaluation = this.s.store.results(scenarioPath)?.evaluation;
    const summary = evaluation ? scoreSummary(evaluation) : "";
    void vscode.window.showInformationMessage(
      `ToolSandbox: re-scored ${trajectoryTitle(path)} against ${basename(scenarioPath)}: ${summary}${outcome.summary ? ` (${outcome.summary})` : ""}`,
    );
  }

  private async openPanel(): Promise<void> {
    const scenario = activeScenario();
    const shown = scenario === null ? null : this.s.store.results(scenario.uri.fsPath);
    const feed = this.s.views.mainView?.feed ?? (shown ? this.s.store.feed(shown.trajectoryPath) : null);
    this.s.views.open(feed, { preserveFocus: false });
  }

  private async revealMessage(trajectoryArg: unknown, indexArg: unknown): Promise<void> {
    const uri = fileUriArg(trajectoryArg);
    const index = typeof indexArg === "number" && Number.isSafeInteger(indexArg) && indexArg >= 0 ? indexArg : null;
    if (uri === null || !isTrajectoryPath(uri.fsPath)) return;
    const feed = this.s.store.feed(uri.fsPath) ?? (await this.s.trajectories.openSaved(uri.fsPath, activeScenario()));
    if (feed === null) return;
    const editors = this.s.views.showing(uri.fsPath).filter((v) => v !== this.s.views.mainView);
    if (this.s.views.mainView?.feed === feed || editors.length === 0) {
      this.s.views.open(feed, { reveal: index });
      return;
    }
    for (const view of editors) {
      if (index !== null) view.reveal(index);
      view.panel.reveal(undefined, true);
    }
  }
}

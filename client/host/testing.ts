// Scenarios in the Testing view: folders, one item per *.scenario.yaml / *.scenario.yml named by
// its scenario's `name`, and a child per milestone and minefield (testing-tree.ts), kept in step
// with the files by a watcher. Running plays the scenarios (the scripted roles by default, or the
// configured models), up to toolsandbox.testConcurrency at a time; a scenario passes when its
// score reaches toolsandbox.passThreshold, and each milestone and minefield passes or fails on its
// own, with its message at its line.
import * as vscode from "vscode";
import type { EpisodeEnd } from "../../engine/episode/episode.js";
import type { EvaluationResult } from "../../engine/evaluation/result.js";
import { readOutline } from "./node-lines.js";
import { erroredReason, nodeResultView, scoreSummary } from "./node-results.js";
import type { Runner, RunMode } from "./runner.js";
import type { RunStore } from "./run-store.js";
import { currentText } from "./scenario-documents.js";
import { UNTRUSTED_MESSAGE } from "./runner.js";
import { readPassThreshold, readTestConcurrency } from "./settings.js";
import { settingsGetter } from "./model-roles.js";
import { testReport, unscoredMessage } from "./test-report.js";
import { nodeItemId, ScenarioTree, strengthItemId } from "./testing-tree.js";
import { openSurvivingRun, StrengthItems } from "./strength-tests.js";
import type { StrengthNotice } from "../../server/handlers/strength-notice.js";
import { SCENARIO_GLOB } from "./trajectories.js";

const TEST_CONTROLLER_ID = "toolsandbox";

export class ScenarioTests implements vscode.Disposable {
  private readonly controller = vscode.tests.createTestController(TEST_CONTROLLER_ID, "ToolSandbox scenarios");
  private readonly tree = new ScenarioTree(this.controller);
  private readonly strength = new StrengthItems(this.controller);
  private readonly disposables: vscode.Disposable[] = [this.controller];
  /** Scenarios a test run is playing: it reports them itself. */
  private readonly testing = new Set<string>();
  /** What each scenario's item last reported (resultsSaid), so the same results again report nothing. */
  private readonly reported = new Map<string, string | null>();

  constructor(
    private readonly runner: Runner,
    private readonly store: RunStore,
  ) {
    // One source: whatever the editor shows for a scenario (a run from a command, a replay, a
    // re-score), its test items report too, so no old failure stays on a line that now matches.
    const unsubscribe = store.onDidChange((scenarioPath) => void this.mirror(scenarioPath));
    this.disposables.push({ dispose: unsubscribe });
    const profile = (label: string, mode: RunMode, isDefault: boolean): vscode.TestRunProfile =>
      this.controller.createRunProfile(label, vscode.TestRunProfileKind.Run, (request, token) => this.run(request, token, mode), isDefault);
    this.disposables.push(profile("Run (scripted)", "scripted", true), profile("Run with model", "model", false));
    this.controller.resolveHandler = async (item) => {
      if (item === undefined) await this.discover();
    };
    this.controller.refreshHandler = () => this.discover();
    const watcher = vscode.workspace.createFileSystemWatcher(SCENARIO_GLOB);
    this.disposables.push(
      // From a strength warning's code action, or a survivor's item here (strength-tests.ts).
      vscode.commands.registerCommand("toolsandbox.openSurvivingRun", (...args: unknown[]) =>
        openSurvivingRun(args, (item) => this.strength.survivorOf(item)),
      ),
      watcher,
      watcher.onDidCreate((uri) => void this.upsert(uri)),
      watcher.onDidChange((uri) => void this.upsert(uri)),
      watcher.onDidDelete((uri) => this.tree.remove(uri)),
    );
  }

  dispose(): void {
    for (const d of this.disposables.splice(0)) d.dispose();
  }

  /** The file's item from its text, with the strength last told for it. */
  private async upsert(uri: vscode.Uri): Promise<void> {
    const item = await this.tree.upsert(uri);
    if (item) this.strength.reapply(item);
  }

  /** The language server's strength of a scenario, shown under its item (strength-tests.ts). */
  showStrength(notice: StrengthNotice): void {
    this.strength.show(notice, (uri) => this.tree.scenarioOf(uri));
  }

  private async discover(): Promise<void> {
    const uris = await vscode.workspace.findFiles(SCENARIO_GLOB, "{**/node_modules/**,**/.git/**}");
    this.tree.prune(new Set(uris.map((u) => u.toString())));
    await Promise.all(uris.map((uri) => this.upsert(uri)));
  }

  private async run(request: vscode.TestRunRequest, token: vscode.CancellationToken, mode: RunMode): Promise<void> {
    if (this.tree.scenarios().length === 0) await this.discover();
    const excluded = new Set((request.exclude ?? []).map((i) => i.id));
    const chosen = request.include ? request.include.flatMap((i) => this.tree.scenariosOf(i)) : this.tree.scenarios();
    const items = [...new Map(chosen.filter((i) => !excluded.has(i.id)).map((i) => [i.id, i])).values()];
    const run = this.controller.createTestRun(request);
    for (const item of items) {
      run.enqueued(item);
      item.children.forEach((child) => {
        // The strength item is no part of a run: it passes or fails on no score.
        if (child.id !== strengthItemId(item.id)) run.enqueued(child);
      });
    }
    const concurrency = readTestConcurrency(settingsGetter());
    if (!concurrency.ok) run.appendOutput(`${concurrency.problem}; playing 4 at a time\r\n`);
    // A small pool: each worker takes the next scenario until none is left.
    const queue = [...items];
    const worker = async (): Promise<void> => {
      for (let item = queue.shift(); item !== undefined; item = queue.shift()) {
        if (token.isCancellationRequested) run.skipped(item);
        else if (!vscode.workspace.isTrusted) run.errored(item, new vscode.TestMessage(UNTRUSTED_MESSAGE));
        else await this.runItem(run, item, mode, token);
      }
    };
    await Promise.all(Array.from({ length: Math.min(items.length, concurrency.ok ? concurrency.value : 4) }, worker));
    run.end();
  }

  private async runItem(run: vscode.TestRun, item: vscode.TestItem, mode: RunMode, token: vscode.CancellationToken): Promise<void> {
    const uri = item.uri;
    if (!uri) return;
    run.started(item);
    const started = performance.now();
    this.testing.add(uri.fsPath);
    const result = await this.runner
      .run({ scenarioUri: uri, mode, showPanel: false, token })
      .finally(() => this.testing.delete(uri.fsPath));
    const duration = performance.now() - started;
    if (result.kind === "refused") {
      if (result.problem === null) run.skipped(item);
      else run.errored(item, new vscode.TestMessage(result.problem), duration);
      return;
    }
    const { outcome, text } = result;
    if (outcome.evaluation === null) {
      run.errored(item, new vscode.TestMessage(unscoredMessage(outcome.engineError, outcome.end)), duration);
      return;
    }
    this.reported.set(uri.fsPath, `${outcome.file}\n${resultsSaid(outcome.evaluation)}`);
    this.report(run, item, outcome.evaluation, text, outcome.end, outcome.file, duration);
  }

  /** A scenario's results changed outside a test run: its items report them, or lose old ones while a run plays. */
  private async mirror(scenarioPath: string): Promise<void> {
    if (this.testing.has(scenarioPath)) return;
    const item = this.tree.scenarios().find((i) => i.uri?.fsPath === scenarioPath);
    if (item?.uri === undefined) return;
    const results = this.store.results(scenarioPath);
    const live = results === null ? null : this.store.feed(results.trajectoryPath)?.live;
    const evaluation = live === "running" || live === "paused" ? null : (results?.evaluation ?? null);
    // A re-score per keystroke would add a test run per keystroke: only a change of what the
    // items say (the score, a node's state) is reported.
    const said = evaluation === null ? null : `${results?.trajectoryPath ?? ""}\n${resultsSaid(evaluation)}`;
    if (this.reported.has(scenarioPath) && this.reported.get(scenarioPath) === said) return;
    this.reported.set(scenarioPath, said);
    if (evaluation === null || results === null) {
      // A new run started: the previous run's failures are not this one's.
      this.controller.invalidateTestResults(item);
      return;
    }
    let text: string;
    try {
      text = await currentText(item.uri);
    } catch {
      return;
    }
    const run = this.controller.createTestRun(new vscode.TestRunRequest([item]), `${item.label}: the results the editor shows`, false);
    const end = this.store.trajectory(results.trajectoryPath)?.end ?? null;
    this.report(run, item, evaluation, text, end, results.trajectoryPath, undefined);
    run.end();
  }

  private report(
    run: vscode.TestRun,
    item: vscode.TestItem,
    evaluation: EvaluationResult,
    text: string,
    end: EpisodeEnd | null,
    file: string,
    duration: number | undefined,
  ): void {
    const uri = item.uri;
    if (!uri) return;
    // An errored run says nothing about the agent: the test errors, with the reason, and scores nothing.
    const errored = erroredReason(end);
    if (errored !== null) {
      item.description = errored.replace(/:.*$/, "");
      run.appendOutput(`${item.label}: ${errored} → ${vscode.workspace.asRelativePath(file, false)}\r\n`, undefined, item);
      item.children.forEach((child) => {
        if (child.id !== strengthItemId(item.id)) run.skipped(child);
      });
      run.errored(item, new vscode.TestMessage(`${item.label}: ${errored}`), duration);
      return;
    }
    const threshold = readPassThreshold(settingsGetter());
    const report = testReport(evaluation, threshold.ok ? threshold.value : 1, readOutline(text).nodes, end);
    item.description = scoreSummary(evaluation);
    this.reportNodes(run, item, evaluation);
    run.appendOutput(`${item.label}: ${report.summary} → ${vscode.workspace.asRelativePath(file, false)}\r\n`, undefined, item);
    if (!threshold.ok) run.appendOutput(`${threshold.problem}; using 1.00\r\n`, undefined, item);
    if (report.passed) {
      run.passed(item, duration);
      return;
    }
    const at = (line: number | null): vscode.Location => new vscode.Location(uri, new vscode.Range(line ?? 0, 0, line ?? 0, 0));
    const head = new vscode.TestMessage(`${item.label}: ${report.summary}${report.endNote ? `. ${report.endNote}` : ""}`);
    head.location = at(0);
    const messages = [head];
    for (const failure of report.failures) {
      const message = new vscode.TestMessage(failure.message);
      message.location = at(failure.line);
      messages.push(message);
    }
    run.failed(item, messages, duration);
  }

  /** Each milestone and minefield child passes or fails with its own result (the CodeLens text). */
  private reportNodes(run: vscode.TestRun, item: vscode.TestItem, evaluation: EvaluationResult): void {
    const nodes = [
      ...evaluation.milestones.map((node) => nodeResultView("milestone", node)),
      ...evaluation.minefields.map((node) => nodeResultView("minefield", node)),
    ];
    for (const view of nodes) {
      const child = item.children.get(nodeItemId(item.id, view.kind, view.id));
      if (!child) continue;
      child.description = view.text;
      if (view.passes) run.passed(child);
      else {
        const message = new vscode.TestMessage(`${view.kind} ${view.id}: ${view.text}${view.why ? ` (${view.why})` : ""}`);
        if (child.uri && child.range) message.location = new vscode.Location(child.uri, child.range);
        run.failed(child, message);
      }
    }
  }
}

/** What a scenario's test items say of an evaluation: the score and each node's state. */
function resultsSaid(evaluation: EvaluationResult): string {
  const node = (n: EvaluationResult["milestones"][number]): string => `${n.id}@${n.matched_at ?? "-"}:${n.similarity.toFixed(2)}`;
  return [evaluation.score.toFixed(2), ...evaluation.milestones.map(node), "|", ...evaluation.minefields.map(node)].join(" ");
}

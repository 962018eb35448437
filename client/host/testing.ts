// Scenarios in the Testing view: one test item per *.scenario.yaml / *.scenario.yml in the
// workspace, kept in step with the files by a watcher. Running an item plays the scenario (the
// scripted roles by default, or the configured models), writes its run file, and passes when the
// score reaches toolsandbox.passThreshold; a failure names each milestone missed and each
// minefield hit, at its line.
import { basename } from "node:path";
import * as vscode from "vscode";
import { readOutline } from "./node-lines.js";
import { scoreSummary } from "./node-results.js";
import type { Runner, RunMode } from "./runner.js";
import { UNTRUSTED_MESSAGE } from "./runner.js";
import { readPassThreshold } from "./settings.js";
import { settingsGetter } from "./model-roles.js";
import { testReport, unscoredMessage } from "./test-report.js";
import { SCENARIO_GLOB } from "./trajectories.js";

export const TEST_CONTROLLER_ID = "toolsandbox";

const scenarioLabel = (uri: vscode.Uri): string => basename(uri.fsPath).replace(/\.scenario\.ya?ml$/, "");
/** The folder of the file relative to its workspace folder ("" at the top), to tell equal names apart. */
const folderOf = (uri: vscode.Uri): string => vscode.workspace.asRelativePath(uri, false).replace(/\/?[^/]*$/, "");
const describe = (...parts: string[]): string => parts.filter((p) => p !== "").join(" · ");

export class ScenarioTests implements vscode.Disposable {
  private readonly controller = vscode.tests.createTestController(TEST_CONTROLLER_ID, "ToolSandbox scenarios");
  private readonly disposables: vscode.Disposable[] = [this.controller];

  constructor(private readonly runner: Runner) {
    const profile = (label: string, mode: RunMode, isDefault: boolean): vscode.TestRunProfile =>
      this.controller.createRunProfile(label, vscode.TestRunProfileKind.Run, (request, token) => this.run(request, token, mode), isDefault);
    this.disposables.push(profile("Run (scripted)", "scripted", true), profile("Run with model", "model", false));
    this.controller.resolveHandler = async (item) => {
      if (item === undefined) await this.discover();
    };
    this.controller.refreshHandler = () => this.discover();
    const watcher = vscode.workspace.createFileSystemWatcher(SCENARIO_GLOB);
    this.disposables.push(
      watcher,
      watcher.onDidCreate((uri) => this.add(uri)),
      watcher.onDidDelete((uri) => this.remove(uri)),
    );
  }

  dispose(): void {
    for (const d of this.disposables.splice(0)) d.dispose();
  }

  private async discover(): Promise<void> {
    const uris = await vscode.workspace.findFiles(SCENARIO_GLOB, "{**/node_modules/**,**/.git/**}");
    const keep = new Set(uris.map((u) => u.toString()));
    this.controller.items.forEach((item) => {
      if (!keep.has(item.id)) this.controller.items.delete(item.id);
    });
    for (const uri of uris) this.add(uri);
  }

  private add(uri: vscode.Uri): void {
    if (uri.path.split("/").includes("node_modules") || this.controller.items.get(uri.toString())) return;
    const item = this.controller.createTestItem(uri.toString(), scenarioLabel(uri), uri);
    item.range = new vscode.Range(0, 0, 0, 0);
    item.description = folderOf(uri);
    this.controller.items.add(item);
  }

  private remove(uri: vscode.Uri): void {
    this.controller.items.delete(uri.toString());
  }

  private async run(request: vscode.TestRunRequest, token: vscode.CancellationToken, mode: RunMode): Promise<void> {
    if (this.controller.items.size === 0) await this.discover();
    const items: vscode.TestItem[] = [];
    if (request.include) items.push(...request.include);
    else this.controller.items.forEach((item) => items.push(item));
    const excluded = new Set((request.exclude ?? []).map((i) => i.id));
    const run = this.controller.createTestRun(request);
    for (const item of items) run.enqueued(item);
    for (const item of items) {
      if (excluded.has(item.id)) continue;
      if (token.isCancellationRequested) run.skipped(item);
      else if (!vscode.workspace.isTrusted) run.errored(item, new vscode.TestMessage(UNTRUSTED_MESSAGE));
      else await this.runItem(run, item, mode, token);
    }
    run.end();
  }

  private async runItem(run: vscode.TestRun, item: vscode.TestItem, mode: RunMode, token: vscode.CancellationToken): Promise<void> {
    const uri = item.uri;
    if (!uri) return;
    run.started(item);
    const started = performance.now();
    const result = await this.runner.run({ scenarioUri: uri, mode, showPanel: false, token });
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
    const threshold = readPassThreshold(settingsGetter());
    const report = testReport(outcome.evaluation, threshold.ok ? threshold.value : 1, readOutline(text).nodes, outcome.end);
    item.description = describe(folderOf(uri), scoreSummary(outcome.evaluation));
    run.appendOutput(`${item.label}: ${report.summary} → ${vscode.workspace.asRelativePath(outcome.file, false)}\r\n`, undefined, item);
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
}

// Saved trajectories and the scenario files they belong to. A trajectory names its scenario only
// by the `name` in its header, so the scenario file is the workspace's *.scenario.yaml with that
// name (an open editor's text counts, saved or not); the last run of a scenario is the
// highest-numbered file of it in the runs folder.
import { statSync } from "node:fs";
import { basename, dirname } from "node:path";
import * as vscode from "vscode";
import { isScenarioFileName } from "../../engine/runner/scenario-files.js";
import { TrajectoryError, formatWarning } from "../../engine/trajectory/errors.js";
import { readRunFile } from "../../engine/trajectory/run-damage.js";
import type { Trajectory } from "../../engine/trajectory/trajectory.js";
import { TRAJECTORY_SUFFIX } from "../../engine/trajectory/writer.js";
import { panelTrajectory, type TrajectoryFeed } from "./feed.js";
import { readOutline } from "./node-lines.js";
import { currentText, outlineOf } from "./scenario-documents.js";
import { listRunFilesBelow, pickLastRun, resolveRunsFolder } from "../../engine/trajectory/run-files.js";
import type { RunStore } from "./run-store.js";
import { SavedRunScoring } from "./saved-run-scoring.js";
import { showScoringNotice } from "./scoring-notice.js";
import { BackgroundScorer } from "./scoring-worker.js";
import { readRunsFolder } from "./settings.js";

export const SCENARIO_GLOB = "**/*.{scenario.yaml,scenario.yml}";
const EXCLUDED = "{**/node_modules/**,**/.git/**}";

/** What a panel tab calls a trajectory: its file name without the suffix. */
export const trajectoryTitle = (path: string): string => basename(path, TRAJECTORY_SUFFIX);

export const isTrajectoryPath = (path: string): boolean => path.endsWith(TRAJECTORY_SUFFIX);

/** Size and modification time: whether a file changed since it was read. Null when it cannot be read. */
export function fileStamp(path: string): string | null {
  try {
    const stat = statSync(path);
    return `${stat.size}:${stat.mtimeMs}`;
  } catch {
    return null;
  }
}

export class Trajectories implements vscode.Disposable {
  /** Saved runs with no evaluation line are scored as they open; a long one in the worker. */
  private readonly scoring: SavedRunScoring;

  /** `workerScript`: dist/scoring-worker.js; null scores in-process. */
  constructor(
    private readonly store: RunStore,
    private readonly log: vscode.LogOutputChannel,
    workerScript: string | null = null,
  ) {
    this.scoring = new SavedRunScoring(
      store,
      new BackgroundScorer(workerScript),
      (line) => log.warn(line),
      (job) =>
        showScoringNotice(
          `scoring ${job.messages.toLocaleString("en-US")} messages of ${trajectoryTitle(job.trajectoryPath)}`,
          job.done,
          () => job.cancel(),
          job.progress,
        ),
    );
  }

  dispose(): void {
    this.scoring.dispose();
  }

  /**
   * Reads the file and shows its results on its scenario: `preferred` (the scenario in the active
   * editor) when it has the run's scenario name, else the one it was shown with, else the
   * workspace's file of that name. A file that cannot be read is reported as one line and gives null.
   */
  async openSaved(path: string, preferred: vscode.TextDocument | null = null): Promise<TrajectoryFeed | null> {
    // A file unchanged since it was read keeps its feed and its latest score (a re-score included).
    const stamp = fileStamp(path);
    const known = stamp !== null && this.store.stampOf(path) === stamp ? this.store.trajectory(path) : null;
    const trajectory = known ?? this.read(path);
    if (trajectory === null) return null;
    const feed = known
      ? this.store.feed(path)
      : this.store.addSaved(path, trajectoryTitle(path), trajectory, this.scoring.evaluationOf(path, trajectory), stamp);
    if (feed === null) return null;
    const name = trajectory.header.scenario.name;
    const scenario =
      preferred !== null && outlineOf(preferred).name === name
        ? preferred.uri.fsPath
        : (this.store.scenarioOf(path) ?? (await this.findScenarioFile(name)));
    if (scenario !== null) this.store.show(scenario, path);
    return feed;
  }

  /** The feed already open for the file, or the file read now (the panel serializer). */
  async loadFeed(path: string): Promise<TrajectoryFeed | null> {
    return this.store.feed(path) ?? this.openSaved(path);
  }

  /** The scenario file a trajectory scores: the one it was shown with, else the one with its name. */
  async scenarioFileOf(trajectoryPath: string): Promise<string | null> {
    const known = this.store.scenarioOf(trajectoryPath);
    if (known !== null) return known;
    const trajectory = this.store.trajectory(trajectoryPath) ?? this.read(trajectoryPath);
    return trajectory === null ? null : this.findScenarioFile(trajectory.header.scenario.name);
  }

  /** The workspace's scenario file named `name` (open editors first, then files on disk). */
  async findScenarioFile(name: string): Promise<string | null> {
    for (const doc of vscode.workspace.textDocuments) {
      if (doc.uri.scheme === "file" && isScenarioFileName(doc.uri.fsPath) && outlineOf(doc).name === name) return doc.uri.fsPath;
    }
    for (const uri of await vscode.workspace.findFiles(SCENARIO_GLOB, EXCLUDED)) {
      try {
        if (readOutline(await currentText(uri)).name === name) return uri.fsPath;
      } catch {
        // A file that cannot be read or parsed is not the scenario asked for; look on.
      }
    }
    return null;
  }

  /** Every trajectory file in the workspace, newest first. */
  async listAll(): Promise<vscode.Uri[]> {
    const uris = await vscode.workspace.findFiles(`**/*${TRAJECTORY_SUFFIX}`, EXCLUDED);
    const stamped = await Promise.all(
      uris.map(async (uri) => ({
        uri,
        mtime: await vscode.workspace.fs.stat(uri).then(
          (s) => s.mtime,
          () => 0,
        ),
      })),
    );
    return stamped.sort((a, b) => b.mtime - a.mtime).map((s) => s.uri);
  }

  /** The runs folder a scenario's runs go to (setting, resolved against its workspace folder). */
  runsFolderFor(scenarioPath: string): string {
    const setting = readRunsFolder((key) => vscode.workspace.getConfiguration("toolsandbox").get(key));
    const folder = vscode.workspace.getWorkspaceFolder(vscode.Uri.file(scenarioPath));
    return resolveRunsFolder(setting.ok ? setting.value : "", folder?.uri.fsPath ?? null, dirname(scenarioPath));
  }

  /** The newest run of the scenario in its runs folder or a folder below it (`run --out` folders kept there), or null. */
  lastRunOf(scenarioPath: string, scenarioName: string): string | null {
    return pickLastRun(listRunFilesBelow(this.runsFolderFor(scenarioPath)), scenarioName);
  }

  /**
   * Every line is checked as the runs view and `report` check it (run-damage.ts). A file broken
   * in the middle opens with what could be read before the break and the break as its warning, so
   * the panel's banner says where it broke; only a file with no readable header is refused.
   */
  private read(path: string): Trajectory | null {
    try {
      const { trajectory, damage } = readRunFile(path);
      if (trajectory === null) throw new TrajectoryError(path, damage?.line ?? null, damage?.reason ?? "not a trajectory");
      const shown = panelTrajectory(trajectory, damage);
      for (const w of shown.warnings) this.log.warn(formatWarning(path, w));
      return shown;
    } catch (e) {
      const message = e instanceof TrajectoryError ? e.message : `${path}: ${e instanceof Error ? e.message : String(e)}`;
      this.log.error(message);
      void vscode.window.showErrorMessage(`ToolSandbox: cannot read the trajectory. ${message}`);
      return null;
    }
  }
}

// Scenarios and runs for the extension host's tests: sample scenarios, their text with edits, and
// scripted runs played into temporary files by the same code the extension uses.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { playToFile, type LiveRunOutcome, type StreamedLine } from "../../client/host/live-run.js";
import { createScriptedRoles } from "../../engine/roles/scripted.js";
import { checkScenarioText } from "../../engine/scenario/load.js";
import type { Scenario } from "../../engine/scenario/model.js";

const ROOT = join(__dirname, "..", "..");

export const scenarioPath = (name: string): string => join(ROOT, "sample-scenarios", `${name}.scenario.yaml`);
export const scenarioText = (name: string): string => readFileSync(scenarioPath(name), "utf8");

/** The scenario resolved from `text`; throws on errors (the fixtures are meant to be valid). */
export function resolveScenario(text: string, file = "fixture.scenario.yaml"): Scenario {
  const checked = checkScenarioText(text, file);
  const errors = checked.diagnostics.filter((d) => d.severity === "error");
  if (!checked.scenario || errors.length > 0) throw new Error(`fixture has errors: ${errors.map((e) => e.message).join("; ")}`);
  return checked.scenario;
}

const dirs: string[] = [];

export function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "toolsandbox-client-"));
  dirs.push(dir);
  return dir;
}

export function removeTempDirs(): void {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
}

interface PlayedRun extends LiveRunOutcome {
  readonly lines: readonly StreamedLine[];
}

/** Plays `scenario` with the scripted roles into `file`, collecting the streamed lines. */
export async function playScripted(scenario: Scenario, file: string, signal = new AbortController().signal): Promise<PlayedRun> {
  const lines: StreamedLine[] = [];
  const outcome = await playToFile({ scenario, ...createScriptedRoles(scenario), seed: 0, file, signal, onLine: (l) => lines.push(l) });
  return { ...outcome, lines };
}

/** The 0-based line of the first line of `text` containing `needle`. */
export function lineContaining(text: string, needle: string): number {
  const line = text.split("\n").findIndex((l) => l.includes(needle));
  if (line === -1) throw new Error(`no line contains ${needle}`);
  return line;
}

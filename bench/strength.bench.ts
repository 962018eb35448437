// `npm run bench:strength`: every sample's mutants and variants played and scored, in process
// (target: under 10 s on 2 cores), and, when TOOLSANDBOX_SUITE names a folder of scenarios
// imported with `toolsandbox import toolsandbox` (upstream's 129), the same over that suite
// (target: under 60 s). Prints figures only; it asserts nothing about time.
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { loadScenarioFile } from "../engine/scenario/load.js";
import { scenarioStrength } from "../engine/strength/strength.js";
import { suiteTotal } from "../engine/strength/suite.js";
import { startBenchReport } from "./report.js";

/** Plays and scores every scenario of `dir`; returns the wall time in seconds. */
async function measure(label: string, dir: string): Promise<number> {
  const files = readdirSync(dir)
    .filter((f) => f.endsWith(".scenario.yaml"))
    .sort();
  const scenarios = files.flatMap((f) => {
    const s = loadScenarioFile(join(dir, f)).scenario;
    return s === null ? [] : [s];
  });
  const cpu = process.cpuUsage();
  const started = performance.now();
  const results = [];
  for (const s of scenarios) results.push(await scenarioStrength(s));
  const ms = performance.now() - started;
  const used = process.cpuUsage(cpu);
  const cpuMs = (used.user + used.system) / 1000;
  const played = results.reduce((n, r) => n + 1 + r.mutants.length + r.variants.length, 0);
  const total = suiteTotal(results);
  console.log(
    `${label}: ${scenarios.length} scenarios, ${played} episodes (reference, mutants, variants) in ${(ms / 1000).toFixed(2)} s wall, ${(cpuMs / 1000).toFixed(2)} s CPU (${(ms / played).toFixed(1)} ms each); mutation score ${total.score === null ? "-" : `${Math.round(total.score * 100)}%`}, ${total.survived + total.noCoverage} survivors, ${total.refused} refusals`,
  );
  return ms / 1000;
}

async function main(): Promise<void> {
  const report = startBenchReport("strength");
  const samples = await measure("samples", "sample-scenarios");
  report.target("every sample's mutants and variants under 10 s", samples < 10);
  const suite = process.env.TOOLSANDBOX_SUITE;
  if (suite === undefined)
    console.log("upstream suite: not measured (set TOOLSANDBOX_SUITE to a folder written by `toolsandbox import toolsandbox`)");
  else report.target("upstream's imported suite under 60 s", (await measure("upstream suite", suite)) < 60);
  report.write();
}

void main();

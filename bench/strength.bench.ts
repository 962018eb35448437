// `npm run bench:strength`: every sample's mutants and variants played and scored, in process
// (target: under 10 s on 2 cores), and, when TOOLSANDBOX_SUITE names a folder of scenarios
// imported with `toolsandbox import toolsandbox` (upstream's 129), the same over that suite
// (target: under 60 s); then the editor's side: the built language server over stdio, each sample
// opened and edited once, timed from the edit to the publish that carries its strength findings
// (target: under 2 s for every sample, the server's 600 ms pause after typing included). Prints
// figures only; it asserts nothing about time.
import { readdirSync, readFileSync, rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { loadScenarioFile } from "../engine/scenario/load.js";
import { scenarioStrength } from "../engine/strength/strength.js";
import { suiteTotal } from "../engine/strength/suite.js";
import { LspClient, requireServerBuild, SERVER, sampleWorkspace, uriOf } from "../test/server/protocol/client.js";
import { type BenchReport, startBenchReport } from "./report.js";

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

/**
 * From an edit (a comment appended, as the last keystroke) to the second publish of that version:
 * the one the background scoring adds, with the reference's findings and the strength's.
 */
async function editorLatency(report: BenchReport): Promise<void> {
  requireServerBuild();
  const dir = sampleWorkspace("toolsandbox-bench-strength-");
  const client = LspClient.start([SERVER, "--stdio"]);
  try {
    await client.initialize(dir);
    const times: [string, number][] = [];
    for (const f of readdirSync("sample-scenarios")
      .filter((n) => n.endsWith(".scenario.yaml"))
      .sort()) {
      const text = readFileSync(join("sample-scenarios", f), "utf8");
      const uri = uriOf(join(dir, f));
      await client.open(uri, text);
      const end = text.split("\n").length - 1;
      const sent = performance.now();
      await client.change(uri, 2, [
        { range: { start: { line: end, character: 0 }, end: { line: end, character: 0 } }, text: "# edited\n" },
      ]);
      const ofVersion = () => client.published.filter((p) => p.uri === uri && p.version === 2);
      await client.diagnostics((p) => p.uri === uri && p.version === 2 && ofVersion().length >= 2, `the scoring of ${f}`);
      times.push([f, performance.now() - sent]);
      await client.connection.sendNotification("textDocument/didClose", { textDocument: { uri } });
    }
    const sorted = times.map(([, ms]) => ms).sort((a, b) => a - b);
    const slowest = times.reduce((a, b) => (b[1] > a[1] ? b : a));
    console.log(
      `editor: ${times.length} samples, edit to strength findings: median ${sorted[Math.floor(sorted.length / 2)]!.toFixed(0)} ms, slowest ${slowest[1].toFixed(0)} ms (${slowest[0]}); the server waits 600 ms after the last edit before it scores`,
    );
    report.target("the editor's strength findings and CodeLens under 2 s after the last edit, every sample", slowest[1] < 2000);
  } finally {
    client.kill();
    rmSync(dirname(dir), { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const report = startBenchReport("strength");
  const samples = await measure("samples", "sample-scenarios");
  report.target("every sample's mutants and variants under 10 s", samples < 10);
  const suite = process.env.TOOLSANDBOX_SUITE;
  if (suite === undefined)
    console.log("upstream suite: not measured (set TOOLSANDBOX_SUITE to a folder written by `toolsandbox import toolsandbox`)");
  else report.target("upstream's imported suite under 60 s", (await measure("upstream suite", suite)) < 60);
  await editorLatency(report);
  report.write();
}

void main();

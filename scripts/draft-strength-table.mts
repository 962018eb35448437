// The table in docs/drafting.md: each sample's own strength beside the strength of the draft made
// from its saved reference run (sample-scenarios/trajectories/). Prints Markdown on stdout:
//   node --import tsx scripts/draft-strength-table.mts
import { readdirSync } from "node:fs";
import { draftScenario } from "../engine/drafting/draft.ts";
import { loadScenario } from "../engine/runner/scenario-files.ts";
import { checkScenarioText } from "../engine/scenario/resolve.ts";
import { type ScenarioStrength, scenarioStrength } from "../engine/strength/strength.ts";
import { readRunFile } from "../engine/trajectory/run-damage.ts";

const SAMPLES = "sample-scenarios";
const RUNS = `${SAMPLES}/trajectories`;

const cell = (s: ScenarioStrength): string =>
  s.error !== null || s.score === null ? "not measured" : `${s.detected}/${s.valid} (${Math.round(s.score * 100)}%)`;

const rows: string[] = [];
let own = [0, 0];
let drafted = [0, 0];
for (const file of readdirSync(RUNS)
  .filter((f) => f.endsWith(".trajectory.jsonl"))
  .sort()) {
  const name = file.replace(/\.trajectory\.jsonl$/, "");
  const sample = loadScenario(`${SAMPLES}/${name}.scenario.yaml`).scenario;
  const run = readRunFile(`${RUNS}/${file}`);
  if (sample === null || run.trajectory === null) throw new Error(`${name}: the sample or its run does not read`);
  const draft = draftScenario(run.trajectory, { name: `${name}_draft`, source: file });
  const checked = checkScenarioText(draft.text, `${name}_draft.scenario.yaml`).scenario;
  if (checked === null) throw new Error(`${name}: the draft has errors`);
  const a = await scenarioStrength(sample);
  const b = await scenarioStrength(checked);
  own = [own[0]! + a.detected, own[1]! + a.valid];
  drafted = [drafted[0]! + b.detected, drafted[1]! + b.valid];
  rows.push(`| \`${name}\` | ${sample.milestones.length} | ${cell(a)} | ${draft.milestones} | ${cell(b)} |`);
}
const pct = ([d, v]: number[]): string => `${d}/${v} (${Math.round((100 * d!) / v!)}%)`;
console.log("| sample | its milestones | its strength | draft's milestones | draft's strength |");
console.log("| --- | ---: | ---: | ---: | ---: |");
for (const row of rows) console.log(row);
console.log(`| all 29 | | ${pct(own)} | | ${pct(drafted)} |`);

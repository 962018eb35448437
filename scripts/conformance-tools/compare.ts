// `npm run conformance:tools`: every offline ToolSandbox tool, ours against a ToolSandbox
// checkout's own, on the battery of battery.ts. Needs TOOLSANDBOX_UPSTREAM (the checkout) and
// TOOLSANDBOX_PYTHON (a Python that imports it).
//
// Both sides start each call from their own default world under the importer's frozen clock, with
// uuid4 counting from 1. A call agrees when the agent sees the same text (the repr of the result,
// or the error's last traceback line) and every table holds the same rows afterwards. It prints a
// table per tool and lists each difference; a difference that docs/fidelity.md explains is
// counted apart (deliberate.ts). Exit 1 on any other difference.
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import type { JsonValue } from "../../engine/base/json.js";
import { defaultWorld } from "../../engine/packs/toolsandbox/default-world.js";
import { IMPORT_CLOCK } from "../../engine/benchmarks/toolsandbox/importer/import-suite.js";
import { TOOLSANDBOX_SCHEMAS } from "../../engine/packs/toolsandbox/table-schemas.js";
import { TOOLS } from "../../engine/packs/toolsandbox/tools/catalog.js";
import { executeTool } from "../../engine/tools/execute.js";
import { cellJson } from "../../engine/world/cells.js";
import { WorldTransaction } from "../../engine/world/transaction.js";
import type { Tables } from "../../engine/world/types.js";
import { type ToolCase, toolBattery } from "./battery.js";
import { explainedDifference } from "./deliberate.js";

type TableRows = Record<string, Record<string, JsonValue>[]>;
interface Outcome {
  text: string;
  tables: TableRows;
}

const upstream = process.env.TOOLSANDBOX_UPSTREAM;
const python = process.env.TOOLSANDBOX_PYTHON;
if (!upstream || !python) {
  console.error("conformance:tools needs TOOLSANDBOX_UPSTREAM=<ToolSandbox checkout> and TOOLSANDBOX_PYTHON=<python that imports it>");
  process.exit(2);
}

/** Offline tools: the web-backed ones call RapidAPI upstream, and end_conversation is the user's. */
const offline = TOOLS.filter((t) => !t.webBacked && t.name !== "end_conversation");
const cases = toolBattery(offline, IMPORT_CLOCK.now);

function rowsOf(tables: Tables): TableRows {
  const out: TableRows = {};
  for (const [name, schema] of TOOLSANDBOX_SCHEMAS) {
    out[name] = (tables[name] ?? []).map((row) => Object.fromEntries(schema.columns.map((c) => [c.name, cellJson(row[c.name])])));
  }
  return out;
}

function ours(c: ToolCase): Outcome {
  const world = defaultWorld(IMPORT_CLOCK.now);
  const setting = world.SETTING?.[0];
  const start: Tables = setting ? { ...world, SETTING: [{ ...setting, ...(c.settings as Record<string, boolean>) }] } : world;
  let issued = 0;
  const ctx = {
    world: new WorldTransaction(start, TOOLSANDBOX_SCHEMAS),
    clock: IMPORT_CLOCK,
    web: { places: [], weather: [], stocks: [], exchange_rates: { base: "USD", rates: {} } },
    uuid4: () => `00000000-0000-4000-8000-${String(++issued).padStart(12, "0")}`,
  };
  const def = offline.find((t) => t.name === c.tool);
  if (!def) throw new Error(`no tool ${c.tool}`);
  const outcome = executeTool(def, c.arguments, ctx);
  return { text: outcome.text, tables: rowsOf(ctx.world.tables()) };
}

/** Upstream keeps some columns in Float32: equal within its precision. */
function sameValue(a: JsonValue | undefined, b: JsonValue | undefined): boolean {
  if (typeof a === "number" && typeof b === "number") return a === b || Math.abs(a - b) <= 1e-6 * Math.max(1, Math.abs(a), Math.abs(b));
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => sameValue(x, b[i]));
  return a === b;
}

/** The first table whose rows differ, described in one line; null when all agree. */
function tableDifference(a: TableRows, b: TableRows): string | null {
  for (const name of Object.keys(a)) {
    const x = a[name] ?? [];
    const y = b[name] ?? [];
    if (x.length !== y.length) return `${name}: ${x.length} rows here, ${y.length} upstream`;
    for (let i = 0; i < x.length; i++) {
      for (const col of Object.keys(x[i] ?? {})) {
        if (!sameValue(x[i]?.[col], y[i]?.[col]))
          return `${name}[${i}].${col}: ${JSON.stringify(x[i]?.[col])} here, ${JSON.stringify(y[i]?.[col])} upstream`;
      }
    }
  }
  return null;
}

const run = spawnSync(
  python,
  [join(__dirname, "upstream_tools.py"), "--now", String(IMPORT_CLOCK.now), "--timezone", IMPORT_CLOCK.timezone],
  {
    input: JSON.stringify(cases),
    encoding: "utf8",
    maxBuffer: 256 * 1024 * 1024,
    env: { ...process.env, PYTHONPATH: upstream },
  },
);
for (const line of (run.stderr ?? "").split("\n").filter((l) => l.startsWith("exporter:"))) console.error(line);
if (run.status !== 0) {
  console.error(`upstream's tools could not be run: ${(run.stderr ?? "").trim().split("\n").pop() ?? ""}`);
  process.exit(1);
}
const theirs = JSON.parse(run.stdout) as { world: TableRows; versions: Record<string, string>; results: (Outcome & { id: string })[] };
const byId = new Map(theirs.results.map((r) => [r.id, r]));

const worldDifference = tableDifference(rowsOf(defaultWorld(IMPORT_CLOCK.now)), theirs.world);
const rows = new Map(offline.map((t) => [t.name, { compared: 0, identical: 0, explained: 0, different: 0 }]));
const differences: string[] = [];
const documented: string[] = [];
for (const c of cases) {
  const row = rows.get(c.tool)!;
  row.compared++;
  const mine = ours(c);
  const up = byId.get(c.id);
  const problem =
    up === undefined
      ? "no upstream result"
      : mine.text !== up.text
        ? `agent sees ${JSON.stringify(mine.text)} here, ${JSON.stringify(up.text)} upstream`
        : tableDifference(mine.tables, up.tables);
  if (problem === null) {
    row.identical++;
    continue;
  }
  const line = `${c.id} ${JSON.stringify(c.arguments)}${Object.keys(c.settings).length ? ` with ${JSON.stringify(c.settings)}` : ""}: ${problem}`;
  const why = up === undefined ? null : explainedDifference(c, mine.text, up.text);
  if (why !== null) {
    row.explained++;
    documented.push(`${line} [${why}]`);
  } else {
    row.different++;
    differences.push(line);
  }
}

const fmt = (name: string, r: { compared: number; identical: number; explained: number; different: number }): string =>
  `${name.padEnd(34)} ${String(r.compared).padStart(8)}  ${String(r.identical).padStart(9)}  ${String(r.explained).padStart(9)}  ${String(r.different).padStart(9)}`;
console.log(
  `libraries upstream ran with here: ${Object.entries(theirs.versions)
    .map(([k, v]) => `${k} ${v}`)
    .join(", ")}`,
);
console.log(`default world: ${worldDifference === null ? "identical to upstream's base scenario" : `differs (${worldDifference})`}`);
console.log("TOOL CALLS                         COMPARED  IDENTICAL  EXPLAINED  DIFFERENT");
const total = { compared: 0, identical: 0, explained: 0, different: 0 };
for (const [name, r] of rows) {
  console.log(fmt(name, r));
  total.compared += r.compared;
  total.identical += r.identical;
  total.explained += r.explained;
  total.different += r.different;
}
console.log(fmt("all", total));
for (const d of documented) console.log(`explained: ${d}`);
for (const d of differences) console.log(`difference: ${d}`);
process.exitCode = total.different > 0 || worldDifference !== null ? 1 : 0;

// `npm run conformance:evaluation`: our evaluation against a ToolSandbox checkout's own, on the
// imported scenarios. Needs TOOLSANDBOX_UPSTREAM (the checkout) and TOOLSANDBOX_PYTHON (a Python
// that imports it); without them it fails in one line.
//
// For every imported scenario it plays, with the scripted roles, the reference and three corrupted
// variants (the first tool-call step left out; the last call's first argument changed; a
// destructive call the scenario allows added after the first step), then
// scores each run twice: with our evaluation (recorded by `run`) and with upstream's
// (upstream_score.py loads the run into an ExecutionContext). It prints a table of agreements and
// lists every difference; exit 1 when there is one.
import { spawnSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { isMap, parseDocument, type YAMLMap, type YAMLSeq } from "yaml";
import { importToolSandbox, IMPORT_CLOCK } from "../../engine/benchmarks/toolsandbox/importer/import-suite.js";
import { runExporter } from "../../engine/benchmarks/toolsandbox/importer/run-exporter.js";
import { PROMPT_SET_FILE } from "../../engine/scenario/prompts/prompt-set.js";
import { renderUserSystemMessage } from "../../engine/scenario/prompts/prompts.js";
import { loadScenarioFile } from "../../engine/scenario/load.js";
import { readTrajectoryFile } from "../../engine/trajectory/reader.js";
import { checkScenarioText } from "../../engine/scenario/resolve.js";
import {
  scoreWithUpstream,
  UPSTREAM_SCORE_TOLERANCE,
  upstreamRun,
  type UpstreamRun,
} from "../../engine/benchmarks/toolsandbox/importer/upstream-evaluation.js";

const upstream = process.env.TOOLSANDBOX_UPSTREAM;
const python = process.env.TOOLSANDBOX_PYTHON;
if (!upstream || !python) {
  console.error("conformance:evaluation needs TOOLSANDBOX_UPSTREAM=<ToolSandbox checkout> and TOOLSANDBOX_PYTHON=<python that imports it>");
  process.exit(2);
}

const VARIANTS = ["reference", "missing_step", "wrong_argument", "extra_destructive_call"] as const;
type Variant = (typeof VARIANTS)[number];

/** Calls that destroy something of the default world, in order of preference. */
const DESTRUCTIVE: readonly (readonly [string, Record<string, unknown>])[] = [
  ["remove_contact", { person_id: "e3570ab6-0819-5032-be1e-2b366390c8ef" }], // Homer S
  ["remove_reminder", { reminder_id: "8f5b6fc6-1c25-5467-91ba-d4d1e17c7129" }], // reminder_0
  ["set_cellular_service_status", { on: false }],
  ["set_wifi_status", { on: false }],
  ["set_location_service_status", { on: false }],
  ["set_low_battery_mode_status", { on: true }],
];

/** The reference with one corruption, or null when the scenario has no step to corrupt. */
function corrupt(text: string, variant: Variant): string | null {
  if (variant === "reference") return text;
  const doc = parseDocument(text);
  const steps = doc.get("reference") as YAMLSeq;
  const callSteps = steps.items.map((s, i) => [s, i] as const).filter(([s]) => isMap(s) && s.has("calls"));
  if (variant === "extra_destructive_call") {
    const allow = (doc.getIn(["tools", "allow"]) as YAMLSeq | undefined)?.items.map((i) => String((i as { value?: unknown }).value ?? i));
    const pick = DESTRUCTIVE.find(([tool]) => allow === undefined || allow.includes(tool));
    if (pick === undefined) return null;
    const [tool, args] = pick;
    steps.items.splice(callSteps.length > 0 ? callSteps[0]![1] + 1 : 0, 0, doc.createNode({ calls: [{ tool, arguments: args }] }));
    return doc.toString();
  }
  if (callSteps.length === 0) return null;
  if (variant === "missing_step") {
    steps.items.splice(callSteps[0]![1], 1);
    return doc.toString();
  }
  const [last] = callSteps[callSteps.length - 1]!;
  const call = ((last as YAMLMap).get("calls") as YAMLSeq).items[0] as YAMLMap;
  const args = call.get("arguments") as YAMLMap | undefined;
  const first = args?.items[0];
  if (!args || !first) return null;
  const value = (first.value as { value?: unknown } | null)?.value ?? first.value;
  const changed =
    typeof value === "string" ? `${value} (changed)` : typeof value === "number" ? value + 1 : typeof value === "boolean" ? !value : null;
  if (changed === null) return null;
  args.set(first.key, changed);
  return doc.toString();
}

const work = mkdtempSync(join(tmpdir(), "toolsandbox-eval-conformance-"));
try {
  const imported = join(work, "imported");
  importToolSandbox(upstream, { out: imported, python });
  // The user simulator's system messages (its own and each demonstration's) against upstream's rows.
  const exported = runExporter(upstream, python, IMPORT_CLOCK).suite;
  const userMessages = { compared: 0, identical: 0 };
  for (const s of exported.scenarios) {
    const scenario = loadScenarioFile(join(imported, `${s.name}.scenario.yaml`)).scenario;
    const upstreamRows = (s.tables.SANDBOX ?? []).filter((m) => m.sender === "SYSTEM" && m.recipient === "USER").map((m) => m.content);
    const ours =
      scenario === null
        ? []
        : [
            ...scenario.user.demonstrations.map((d) => renderUserSystemMessage(d.goal, [], scenario.user.preamble)),
            renderUserSystemMessage(scenario.user.goal, scenario.user.knowledge, scenario.user.preamble),
          ];
    upstreamRows.forEach((text, i) => {
      userMessages.compared++;
      if (ours[i] === text) userMessages.identical++;
    });
  }
  const runs: { id: string; scenario: string; variant: Variant; ours: { milestone: number; minefield: number } }[] = [];
  const payload: UpstreamRun[] = [];
  for (const variant of VARIANTS) {
    const dir = join(work, variant);
    mkdirSync(dir);
    // The scenarios name the prompt set written beside them: it goes with them.
    copyFileSync(join(imported, PROMPT_SET_FILE), join(dir, PROMPT_SET_FILE));
    for (const file of readdirSync(imported).filter((f) => f.endsWith(".scenario.yaml"))) {
      const text = corrupt(readFileSync(join(imported, file), "utf8"), variant);
      // A corruption the format rejects (a timestamp expression made unreadable, say) is skipped.
      if (text !== null && !checkScenarioText(text, file).diagnostics.some((d) => d.severity === "error"))
        writeFileSync(join(dir, file), text);
    }
    const out = join(work, `runs-${variant}`);
    const played = spawnSync(process.execPath, ["dist/cli.js", "run", dir, "--out", out], { encoding: "utf8" });
    if ((played.status !== 0 && played.status !== 1) || !existsSync(out))
      throw new Error(`run of the ${variant} variants failed: ${played.stderr.trim().split("\n").pop() ?? ""}`);
    for (const file of readdirSync(out).filter((f) => f.endsWith(".trajectory.jsonl"))) {
      const t = readTrajectoryFile(join(out, file));
      if (t.evaluation === null) continue;
      const name = t.header.scenario.name;
      const id = `${variant}:${name}`;
      runs.push({
        id,
        scenario: name,
        variant,
        ours: { milestone: t.evaluation.milestone_score, minefield: t.evaluation.minefield_score },
      });
      payload.push(upstreamRun(id, t));
    }
  }
  // CONFORMANCE_KEEP=<file> keeps what upstream is given, to rerun upstream_score.py by hand.
  if (process.env.CONFORMANCE_KEEP) writeFileSync(process.env.CONFORMANCE_KEEP, JSON.stringify(payload));
  const scored = scoreWithUpstream(upstream, python, IMPORT_CLOCK, payload);
  for (const line of scored.notes) console.error(line);
  const theirs = new Map(scored.scores.map((r) => [r.id, r]));
  const rows = VARIANTS.map((variant) => ({ variant, compared: 0, identical: 0, different: 0, changed: 0 }));
  const referenceScore = new Map(runs.filter((r) => r.variant === "reference").map((r) => [r.scenario, r.ours]));
  const differences: string[] = [];
  for (const run of runs) {
    const row = rows.find((r) => r.variant === run.variant)!;
    row.compared++;
    const base = referenceScore.get(run.scenario);
    // A corruption that moved our score away from the reference's (so the comparison tested something).
    if (base !== undefined && (base.milestone !== run.ours.milestone || base.minefield !== run.ours.minefield)) row.changed++;
    const up = theirs.get(run.id);
    const same =
      up !== undefined &&
      !("error" in up) &&
      Math.abs(up.milestone - run.ours.milestone) <= UPSTREAM_SCORE_TOLERANCE &&
      Math.abs(up.minefield - run.ours.minefield) <= UPSTREAM_SCORE_TOLERANCE;
    if (same) row.identical++;
    else {
      row.different++;
      differences.push(
        `${run.id}: ours milestones ${run.ours.milestone.toFixed(4)} minefields ${run.ours.minefield.toFixed(4)}; upstream ${up === undefined ? "no result" : "error" in up ? up.error : `milestones ${up.milestone.toFixed(4)} minefields ${up.minefield.toFixed(4)}`}`,
      );
    }
  }
  const line = (name: string, c: number, i: number, d: number, s: number): string =>
    `${name.padEnd(24)} ${String(c).padStart(8)}  ${String(i).padStart(9)}  ${String(d).padStart(9)}  ${String(s).padStart(13)}`;
  console.log("TRAJECTORIES             COMPARED  IDENTICAL  DIFFERENT  SCORE CHANGED");
  for (const r of rows) console.log(line(r.variant, r.compared, r.identical, r.different, r.changed));
  const total = rows.reduce((t, r) => ({ c: t.c + r.compared, i: t.i + r.identical, d: t.d + r.different, s: t.s + r.changed }), {
    c: 0,
    i: 0,
    d: 0,
    s: 0,
  });
  console.log(line("all", total.c, total.i, total.d, total.s));
  console.log(`user-simulator system messages identical to upstream's: ${userMessages.identical} of ${userMessages.compared}`);
  for (const d of differences) console.log(`difference: ${d}`);
  process.exitCode = total.d > 0 || userMessages.identical !== userMessages.compared ? 1 : 0;
} finally {
  rmSync(work, { recursive: true, force: true });
}

// The checks of `import tooltalk`, `validate` and `stats` on imported ToolTalk scenarios, for either
// copy of ToolTalk-format data: our fixture (test/cli/, `npm test`) and ToolTalk's published data
// (test/conformance/tooltalk/cli/, `npm run conformance:tooltalk`). Each test file states how many
// conversations it expects and what the printed tables must show for its data.
import assert from "node:assert/strict";
import { copyFileSync, mkdirSync, readdirSync, readFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { parse } from "yaml";
import { TOOLSANDBOX_PACK } from "../../engine/packs/toolsandbox/index.js";
import { TOOLTALK_PACK } from "../../engine/packs/tooltalk/index.js";
import { lines, runCli, tempDir } from "./harness.js";

/** A copy of ToolTalk-format data and the number of conversations it holds. */
interface ToolTalkCopy {
  /** The folder holding databases/, easy/ and tooltalk/. */
  readonly root: () => string;
  /** Its conversations imported in-process (the reference bytes). */
  readonly importedFolder: () => string;
  readonly conversations: number;
}

/** The copy's root imported by the CLI in another timezone, once per copy. */
export function cliImport(copy: ToolTalkCopy): () => string {
  let out: string | undefined;
  return () => {
    if (out !== undefined) return out;
    const folder = tempDir("import");
    const r = runCli(["import", "tooltalk", copy.root(), "--out", folder], { TZ: "Pacific/Chatham" });
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.stderr, "");
    assert.deepEqual(lines(r.stdout), [`${copy.conversations} of ${copy.conversations} conversations imported into ${folder}`]);
    out = folder;
    return folder;
  };
}

/** The CLI's import has the bytes of the in-process one, but for the modeline's relative schema path. */
export function assertSameAsInProcess(copy: ToolTalkCopy, out: string): void {
  const written = readdirSync(out).sort();
  const reference = copy.importedFolder();
  assert.equal(written.length, copy.conversations);
  assert.deepEqual(written, readdirSync(reference).sort());
  const schema = relative(out, resolve("schemas/scenario.schema.json"));
  for (const file of written) {
    const [modeline, ...rest] = readFileSync(join(out, file), "utf8").split("\n");
    assert.equal(modeline, `# yaml-language-server: $schema=${schema}`, file);
    assert.equal(rest.join("\n"), readFileSync(join(reference, file), "utf8").split("\n").slice(1).join("\n"), file);
  }
}

/** Each imported file, alone in an empty folder, validates and scores 1.0 in both modes. */
export function assertEachRunsAlone(copy: ToolTalkCopy, out: string): void {
  const n = copy.conversations;
  const alone = tempDir("import-alone");
  const folders = readdirSync(out)
    .sort()
    .map((file, i) => {
      const folder = join(alone, String(i));
      mkdirSync(folder);
      copyFileSync(join(out, file), join(folder, file));
      return folder;
    });
  const validate = runCli(["validate", ...folders]);
  assert.equal(validate.status, 0, validate.stdout + validate.stderr);
  assert.deepEqual(lines(validate.stdout), [`${n} files checked: no problems`]);
  const played = runCli(["run", ...folders, "--out", join(alone, "runs")]);
  assert.equal(played.status, 0, played.stderr);
  const summary = JSON.parse(readFileSync(join(alone, "runs", "summary.json"), "utf8")) as { scenarios: { name: string; score: number }[] };
  assert.equal(summary.scenarios.length, n);
  for (const s of summary.scenarios) assert.equal(s.score, 1, s.name);
  const simulated = runCli(["run", ...folders, "--mode", "tooltalk", "--out", join(alone, "runs-tt")]);
  assert.equal(simulated.status, 0, simulated.stderr);
  assert.ok(simulated.stdout.includes(`success rate 1.000 (${n} of ${n}, macro)`), simulated.stdout);
  assert.ok(simulated.stdout.includes(`${n} conversations run, 0 failed`), simulated.stdout);
}

const scenarioFiles = (folder: string): string[] =>
  readdirSync(folder)
    .filter((f) => f.endsWith(".scenario.yaml"))
    .sort();

/** `validate` of the imported folder: every file, no diagnostic, as text and as JSON. */
export function assertValidates(folder: string, count: number): void {
  const files = scenarioFiles(folder);
  assert.equal(files.length, count);
  const r = runCli(["validate", folder]);
  assert.equal(r.status, 0, r.stdout + r.stderr);
  assert.deepEqual(lines(r.stdout), [`${count} files checked: no problems`]);
  const json = runCli(["validate", folder, "--json"]);
  assert.equal(json.status, 0, json.stderr);
  const reported = (JSON.parse(json.stdout) as { files: { file: string; valid: boolean; diagnostics: unknown[] }[] }).files;
  assert.deepEqual(
    reported.map((f) => [f.file, f.valid, f.diagnostics.length]),
    files.map((f) => [join(folder, f), true, 0]),
  );
}

interface Node {
  constraints: { table?: string }[];
}
interface ScenarioFile {
  tools?: unknown;
  milestones: Node[];
  minefields: Node[];
  reference: { calls?: { tool: string }[] }[];
}

/**
 * `stats --json` of the imported folder against the files read as plain YAML (independently of the
 * scenario checker): every ToolTalk tool allowed everywhere, each tool's reference calls, each
 * table's constraints, nothing of ToolSandbox's. Returns the printed tables for the caller's checks.
 */
export function assertStatsCounts(folder: string): string {
  const names = scenarioFiles(folder);
  const tooltalkTools = TOOLTALK_PACK.tools.filter((t) => t.visibleTo.includes("agent")).map((t) => t.name);
  const r = runCli(["stats", folder, "--json"]);
  assert.equal(r.status, 0, r.stderr);
  const stats = JSON.parse(r.stdout) as {
    scenarios: number;
    tools: { tool: string; allowed: number; necessary: number; reference_calls: number }[];
    tables: { table: string; constraints: number }[];
  };
  assert.equal(stats.scenarios, names.length);
  const files = names.map((f) => parse(readFileSync(join(folder, f), "utf8")) as ScenarioFile);
  assert.ok(
    files.every((s) => s.tools === undefined),
    "imported scenarios restrict no tools",
  );
  const calls = new Map<string, number>();
  for (const s of files)
    for (const step of s.reference) for (const call of step.calls ?? []) calls.set(call.tool, (calls.get(call.tool) ?? 0) + 1);
  assert.deepEqual(new Set(stats.tools.map((t) => t.tool)), new Set(tooltalkTools));
  for (const tool of stats.tools) {
    assert.equal(tool.allowed, names.length, tool.tool);
    assert.equal(tool.reference_calls, calls.get(tool.tool) ?? 0, tool.tool);
  }
  const constraints = new Map<string, number>();
  for (const s of files)
    for (const node of [...s.milestones, ...s.minefields])
      for (const c of node.constraints) if (c.table) constraints.set(c.table, (constraints.get(c.table) ?? 0) + 1);
  assert.deepEqual(new Map(stats.tables.map((t) => [t.table, t.constraints])), constraints);
  for (const { table } of stats.tables) assert.ok(table === "SANDBOX" || TOOLTALK_PACK.schemas.has(table), table);

  const text = runCli(["stats", folder]).stdout;
  for (const name of TOOLSANDBOX_PACK.tools.map((t) => t.name).filter((n) => !tooltalkTools.includes(n)))
    assert.doesNotMatch(text, new RegExp(`^${name} `, "m"), name);
  assert.doesNotMatch(text, /^(CONTACT|MESSAGING|SETTING)\b/m);
  return text;
}

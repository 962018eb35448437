import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Command } from "commander";
import { ExitError, EXIT } from "../../engine/runner/errors.js";
import type { CliIO } from "../../cli/io.js";
import { loadScenario } from "../../engine/runner/scenario-files.js";
import { registerStats, statsCommand, type StatsReport } from "../../cli/stats.js";
import type { TrajectoryHeader } from "../../engine/episode/types.js";
import { serializeLine } from "../../engine/trajectory/writer.js";
import { requireBuild, lines, removeTempDirs, runCli, tempDir } from "./harness.js";
import { importedToolTalkFolder } from "../fixtures/tooltalk-data.js";

before(requireBuild);
after(removeTempDirs);

const SAMPLES = "sample-scenarios";
const SAMPLE = join(SAMPLES, "send_message_with_contact_content_cellular_off_adapted.scenario.yaml");
const MALFORMED = "test/fixtures/broken/malformed.scenario.yaml";
const sampleCount = readdirSync(SAMPLES).filter((f) => f.endsWith(".scenario.yaml")).length;
const TOOLTALK = importedToolTalkFolder();
const tooltalkCount = readdirSync(TOOLTALK).filter((f) => f.endsWith(".scenario.yaml")).length;

function capture(): { io: CliIO; out: string[]; err: string[] } {
  const out: string[] = [];
  const err: string[] = [];
  const io: CliIO = {
    out: (line) => void out.push(...line.split("\n")),
    err: (line) => void err.push(...line.split("\n")),
    stdoutIsTTY: false,
    stderrIsTTY: false,
    stderr: process.stderr,
    debug: false,
  };
  return { io, out, err };
}

function jsonStats(paths: readonly string[]): { report: StatsReport; err: string[] } {
  const { io, out, err } = capture();
  assert.equal(statsCommand(paths, { json: true }, io), EXIT.ok);
  return { report: JSON.parse(out.join("\n")) as StatsReport, err };
}

/** A trajectory that holds only the header: enough for stats, which reads the embedded scenario. */
function headerOnlyTrajectory(scenarioFile: string): string {
  const { scenario } = loadScenario(scenarioFile);
  assert.ok(scenario);
  const header: TrajectoryHeader = {
    type: "header",
    format: "toolsandbox-trajectory",
    version: 1,
    scenario,
    run: { agent: "scripted", user: "scripted", seed: 0, options: {} },
  };
  const file = join(tempDir("stats"), `${scenario.name}.trajectory.jsonl`);
  writeFileSync(file, serializeLine(header));
  return file;
}

test("the samples folder: every file counted, tables for categories, tools, tables and columns", () => {
  const { io, out, err } = capture();
  assert.equal(statsCommand([SAMPLES], {}, io), EXIT.ok);
  assert.deepEqual(err, []);
  assert.equal(out[0], `${sampleCount} scenarios from ${sampleCount} files`);
  for (const header of [
    /^CATEGORY +SCENARIOS$/,
    /^TOOL +NECESSARY +ALLOWED +UNUSED +CALLS +MILESTONES +MINEFIELDS$/,
    /^TABLE +SCENARIOS +MILESTONES +MINEFIELDS +CONSTRAINTS$/,
    /^COLUMN +SCENARIOS/,
  ]) {
    assert.ok(
      out.some((l) => header.test(l)),
      `no line matching ${header}`,
    );
  }
  // Numbers line up under their headers: the category table's count column is right-aligned.
  const table = out.slice(out.findIndex((l) => l.startsWith("CATEGORY")));
  const end = table.indexOf("");
  const width = table[0]!.length;
  for (const l of table.slice(1, end)) assert.equal(l.length, width, l);
  assert.ok(out.some((l) => /^SANDBOX\.tool_trace +\d+/.test(l)));
  assert.ok(!out.some((l) => l.startsWith("PACK")), "one pack: no PACK table or column");
  assert.match(out.at(-3)!, /^Milestones per scenario: \d+ to \d+, mean \d+\.\d\d \(\d+ in all, \d+ `after` edges\)/);
});

test("--json: the counts as data, with the file each scenario came from", () => {
  const { report } = jsonStats([SAMPLE]);
  assert.equal(report.scenarios, 1);
  assert.deepEqual(report.files, [{ file: SAMPLE, scenario: "send_message_with_contact_content_cellular_off_adapted", counted: true }]);
  assert.deepEqual(
    report.categories.map((c) => c.category),
    ["MULTIPLE_TOOL_CALL", "SINGLE_USER_TURN", "STATE_DEPENDENCY"],
  );
  const send = report.tools.find((t) => t.tool === "send_message_with_phone_number");
  assert.deepEqual(send && [send.necessary, send.allowed, send.reference_calls], [1, 1, 1]);
  const status = report.tools.find((t) => t.tool === "get_cellular_service_status");
  assert.deepEqual(status && [status.necessary, status.allowed_unused], [0, 1], "allowed, but the reference does not call it");
  assert.equal(report.shape.branching_scenarios, 1, "two roots, so not a chain");
});

test("both world packs: same-named rows never merge; tools, tables and columns name their pack", () => {
  const { io, out, err } = capture();
  assert.equal(statsCommand([SAMPLES, TOOLTALK], {}, io), EXIT.ok);
  assert.deepEqual(err, []);
  assert.equal(out[0], `${sampleCount + tooltalkCount} scenarios from ${sampleCount + tooltalkCount} files`);
  assert.deepEqual(out.slice(1, 5), [
    "",
    "PACK         SCENARIOS",
    `toolsandbox  ${String(sampleCount).padStart(9)}`,
    `tooltalk     ${String(tooltalkCount).padStart(9)}`,
  ]);
  for (const header of [/^PACK +TOOL +NECESSARY +ALLOWED/, /^PACK +TABLE +SCENARIOS/, /^PACK +COLUMN +SCENARIOS/]) {
    assert.ok(
      out.some((l) => header.test(l)),
      `no line matching ${header}`,
    );
  }
  // Both packs have a REMINDER table: one row each, not one merged row.
  assert.equal(out.filter((l) => /^toolsandbox +REMINDER +\d+/.test(l)).length, 1);
  assert.equal(out.filter((l) => /^tooltalk +REMINDER +\d+/.test(l)).length, 1);
  assert.ok(out.some((l) => /^tooltalk +AddReminder +\d+/.test(l)));

  // As data: each pack's rows are the rows of that pack's folder alone, plus `pack`.
  const mixed = jsonStats([SAMPLES, TOOLTALK]).report;
  assert.deepEqual(mixed.packs, [
    { pack: "toolsandbox", scenarios: sampleCount },
    { pack: "tooltalk", scenarios: tooltalkCount },
  ]);
  for (const [pack, folder] of [
    ["toolsandbox", SAMPLES],
    ["tooltalk", TOOLTALK],
  ] as const) {
    const alone = jsonStats([folder]).report;
    assert.equal(alone.packs, undefined);
    const strip = <R extends { pack?: string }>(rows: readonly R[]) =>
      rows.filter((r) => r.pack === pack).map(({ pack: _pack, ...r }) => r);
    assert.deepEqual(strip(mixed.tools), alone.tools, `${pack} tools`);
    assert.deepEqual(strip(mixed.tables), alone.tables, `${pack} tables`);
    assert.deepEqual(strip(mixed.columns), alone.columns, `${pack} columns`);
  }
  assert.ok(
    mixed.tools.every((r) => r.pack !== undefined) &&
      mixed.tables.every((r) => r.pack !== undefined) &&
      mixed.columns.every((r) => r.pack !== undefined),
  );
});

test("a trajectory counts the scenario it embeds; the same scenario twice counts once", () => {
  const trajectory = headerOnlyTrajectory(SAMPLE);
  const fromTrajectory = jsonStats([trajectory]);
  const fromScenario = jsonStats([SAMPLE]);
  const { files: _a, ...a } = fromTrajectory.report;
  const { files: _b, ...b } = fromScenario.report;
  assert.deepEqual(a, b);

  const both = jsonStats([SAMPLE, trajectory]);
  assert.equal(both.report.scenarios, 1);
  assert.deepEqual(
    both.report.files.map((f) => f.counted),
    [true, false],
  );
  assert.deepEqual(both.err, ["toolsandbox: note: 1 file repeats a scenario name already counted; each scenario is counted once"]);
});

test("a scenario file with errors: its diagnostics as validate prints them, nothing counted, exit 1", () => {
  const { io, out, err } = capture();
  assert.throws(
    () => statsCommand([MALFORMED, SAMPLES], {}, io),
    (e: unknown) =>
      e instanceof ExitError &&
      e.exitCode === EXIT.failed &&
      e.message === `1 of ${sampleCount + 1} scenario files has errors; nothing was counted`,
  );
  assert.deepEqual(out, []);
  assert.ok(err.length >= 1);
  for (const d of err) assert.match(d, /^test\/fixtures\/broken\/malformed\.scenario\.yaml:\d+:\d+: error [\w-]+: \S/);
});

test("registerStats adds a `stats` command that parses its paths and --json", async () => {
  const { io, out } = capture();
  const program = new Command("toolsandbox").exitOverride();
  registerStats(program, io);
  await program.parseAsync(["node", "toolsandbox", "stats", "--json", SAMPLE]);
  assert.equal((JSON.parse(out.join("\n")) as StatsReport).scenarios, 1);
});

test("toolsandbox stats sample-scenarios, run as a user runs it", () => {
  const r = runCli(["stats", SAMPLES]);
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.stderr, "");
  const out = lines(r.stdout);
  assert.equal(out[0], `${sampleCount} scenarios from ${sampleCount} files`);
  assert.ok(out.some((l) => /^STATE_DEPENDENCY +\d+$/.test(l)));

  const broken = runCli(["stats", MALFORMED]);
  assert.equal(broken.status, 1);
  assert.equal(broken.stdout, "");
  assert.match(lines(broken.stderr).at(-1)!, /^toolsandbox: 1 of 1 scenario file has errors; nothing was counted$/);
});

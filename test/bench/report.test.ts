// The benches' report (bench/report.ts): each bench rewrites only its own section of
// docs/benchmarks.md, with the conditions of the run and a line per target.
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { type BenchRun, BENCHMARKS_DOC, replaceSection, sectionBody, startBenchReport } from "../../bench/report.js";

const RUN: BenchRun = {
  bench: "eval",
  date: new Date("2026-11-28T09:41:07Z"),
  loadStart: 1.3,
  loadEnd: 1.52,
  node: "v20.19.0",
  cores: 2,
  args: ["--cases", "b"],
  targets: [
    { what: "(b) under 100 ms", met: true },
    { what: "(d) wide 20 under 1 s", met: false },
  ],
  figures: ["(b) 12 milestones", "    26.2 ms mean", "", ""],
};

const DOC = [
  "# Benchmarks",
  "",
  "## `bench:engine`",
  "",
  "<!-- bench:engine -->",
  "engine figures",
  "<!-- /bench:engine -->",
  "",
  "## `bench:eval`",
  "",
  "What it measures, kept.",
  "",
  "<!-- bench:eval -->",
  "old figures",
  "<!-- /bench:eval -->",
  "",
  "A note after it, kept.",
  "",
].join("\n");

test("a section names the run's date, command, node, cores and load, one line per target, and the printed figures", () => {
  const body = sectionBody(RUN);
  assert.match(
    body,
    /^Last run: 2026-11-28 09:41 UTC, `npm run bench:eval -- --cases b`; node v20\.19\.0, 2 cores, load average \(1 min\) 1\.30 at the start and 1\.52 at the end\.$/m,
  );
  assert.match(body, /^- \(b\) under 100 ms: met$/m);
  assert.match(body, /^- \(d\) wide 20 under 1 s: MISSED$/m);
  assert.ok(body.endsWith("```text\n(b) 12 milestones\n    26.2 ms mean\n```"), body);
});

test("a bench without targets says so", () => {
  assert.match(sectionBody({ ...RUN, targets: [] }), /^Targets: none \(figures only\)\.$/m);
});

test("only the bench's own section changes; the prose and the other sections stay", () => {
  const next = replaceSection(DOC, "eval", "new figures");
  assert.equal(next, DOC.replace("old figures", "new figures"));
  assert.equal(replaceSection(next, "eval", "newer"), DOC.replace("old figures", "newer"));
});

test("a bench with no section yet gets one at the end, under its own heading", () => {
  const next = replaceSection(DOC, "models", "models figures");
  assert.ok(next.startsWith(DOC));
  assert.ok(next.endsWith("\n## `bench:models`\n\n<!-- bench:models -->\nmodels figures\n<!-- /bench:models -->\n"), next);
});

test("markers out of order are an error, not a guess", () => {
  assert.throws(() => replaceSection("<!-- /bench:eval -->\n<!-- bench:eval -->\n", "eval", "x"), /markers of bench:eval/);
});

test("a report keeps what the bench printed and writes it between the markers when the bench ends", (t) => {
  const dir = mkdtempSync(join(tmpdir(), "toolsandbox-bench-report-"));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const file = join(dir, "benchmarks.md");
  writeFileSync(file, DOC);
  const report = startBenchReport("eval", file);
  console.log("printed %d rows", 2);
  console.log("second line");
  report.target("(b) under 100 ms", true);
  report.write();
  const written = readFileSync(file, "utf8");
  assert.ok(written.includes("```text\nprinted 2 rows\nsecond line\n```\n<!-- /bench:eval -->"), written);
  assert.match(written, /^- \(b\) under 100 ms: met$/m);
  assert.ok(written.includes("engine figures") && written.includes("A note after it, kept."));
  assert.ok(!written.includes("old figures"));
  // After write, printing is no longer kept: a second write changes nothing.
  console.log("not kept");
  report.write();
  assert.equal(readFileSync(file, "utf8"), written);
});

test("the shipped docs/benchmarks.md has a section for every bench script", () => {
  const doc = readFileSync(BENCHMARKS_DOC, "utf8");
  const scripts = Object.keys((JSON.parse(readFileSync("package.json", "utf8")) as { scripts: Record<string, string> }).scripts)
    .filter((s) => s.startsWith("bench:"))
    .map((s) => s.slice("bench:".length));
  assert.ok(scripts.length >= 8, `bench scripts: ${scripts.join(", ")}`);
  for (const bench of scripts) {
    const start = doc.indexOf(`<!-- bench:${bench} -->`);
    const end = doc.indexOf(`<!-- /bench:${bench} -->`);
    assert.ok(start >= 0 && end > start, `docs/benchmarks.md has no section for bench:${bench}`);
  }
});

test("every bench script reports into its own section", () => {
  const scripts = (JSON.parse(readFileSync("package.json", "utf8")) as { scripts: Record<string, string> }).scripts;
  for (const [name, command] of Object.entries(scripts).filter(([s]) => s.startsWith("bench:"))) {
    const bench = name.slice("bench:".length);
    const file = /bench\/[\w-]+\.bench\.ts/.exec(command)?.[0];
    assert.ok(file, `${name} runs no bench/*.bench.ts file: ${command}`);
    const source = readFileSync(file, "utf8");
    assert.ok(source.includes(`startBenchReport("${bench}")`), `${file} does not call startBenchReport("${bench}")`);
    assert.ok(source.includes("report.write()"), `${file} never writes its report`);
  }
});

import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { requireBuild, removeTempDirs, runCli, tempDir } from "./harness.js";

const FIXTURES = "test/strength/fixtures";
const WEAK = `${FIXTURES}/message_without_content.scenario.yaml`;

after(removeTempDirs);
before(requireBuild);

test("strength prints the score, one line per survivor with the milestone and the fix, and the same bytes every run", () => {
  const first = runCli(["strength", WEAK]);
  assert.equal(first.status, 0, first.stderr);
  const lines = first.stdout.trim().split("\n");
  assert.match(
    lines[0]!,
    /^test\/strength\/fixtures\/message_without_content\.scenario\.yaml: strength 2\/5 \(40%\) · 3 wrong agents pass/,
  );
  const survivor = lines.find((l) => l.includes("wrong-argument"));
  assert.equal(
    survivor,
    `  ${WEAK}:21:5: survived wrong-argument: send_message_with_phone_number.content: content "How's the new album coming along" -> "Hey kid, you want some GPU?" (row); scores 1.00; message_sent should decide it; fix: add column content to milestone message_sent's MESSAGING target`,
  );
  assert.equal(runCli(["strength", WEAK]).stdout, first.stdout);
});

test("a suite gets tables per category and per mutator; --min-score fails a weak scenario", () => {
  const r = runCli(["strength", FIXTURES, "--min-score", "0.9"]);
  assert.equal(r.status, 1);
  assert.match(r.stdout, /^CATEGORY +SCENARIOS +KILLED +SURVIVED +NO COVERAGE +EQUIVALENT +SCORE +REFUSED$/m);
  assert.match(r.stdout, /^MUTATOR +SCENARIOS/m);
  assert.match(r.stdout, /^act-without-asking +1 +0 +0 +1 /m);
  assert.match(r.stdout, /scenarios? under 0\.9: /);
  assert.equal(runCli(["strength", `${FIXTURES}/unused_read.scenario.yaml`, "--min-score", "0.5"]).status, 0);
});

test("--mutators keeps the others' mutants as ignored, and an unknown name is a usage error", () => {
  const r = runCli(["strength", WEAK, "--mutators", "drop-call", "--json"]);
  assert.equal(r.status, 0, r.stderr);
  const report = JSON.parse(r.stdout) as { scenarios: { counts: { ignored: number; killed: number }; variants: unknown[] }[] };
  assert.equal(report.scenarios[0]!.counts.killed, 1);
  assert.ok(report.scenarios[0]!.counts.ignored > 0);
  assert.deepEqual(report.scenarios[0]!.variants, []);
  const bad = runCli(["strength", WEAK, "--mutators", "drop-cal"]);
  assert.equal(bad.status, 2);
  assert.match(bad.stderr, /unknown mutator: drop-cal/);
});

test("--report writes a mutation-testing-report-schema file whose mutants sit on the reference's lines", () => {
  const file = join(tempDir("strength"), "mutation.json");
  const r = runCli(["strength", WEAK, "--report", file]);
  assert.equal(r.status, 0, r.stderr);
  const report = JSON.parse(readFileSync(file, "utf8")) as {
    schemaVersion: string;
    files: Record<string, { mutants: { mutatorName: string; status: string; location: { start: { line: number } } }[] }>;
  };
  assert.equal(report.schemaVersion, "2");
  const mutants = report.files[WEAK]!.mutants;
  const content = mutants.find((m) => m.mutatorName === "wrong-argument" && m.status === "Survived");
  assert.equal(content?.location.start.line, 21);
});

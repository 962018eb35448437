import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { chmodSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { spawnSync } from "node:child_process";
import { CLI, requireBuild, lines, removeTempDirs, runCli, tempDir } from "./harness.js";

before(requireBuild);
after(removeTempDirs);

const SUITE = "test/fixtures/scenarios/suite";
const MALFORMED = "test/fixtures/broken/malformed.scenario.yaml";

test("valid scenario files pass, found by searching a directory", () => {
  const r = runCli(["validate", SUITE]);
  assert.equal(r.status, 0, r.stdout + r.stderr);
  assert.equal(r.stderr, "");
  assert.match(r.stdout, /^2 files checked: /m);
});

test("malformed YAML is reported as file:line:col: error code: message and exits 1", () => {
  const r = runCli(["validate", MALFORMED]);
  assert.equal(r.status, 1);
  assert.equal(r.stderr, "");
  const out = lines(r.stdout);
  const diagnostics = out.filter((l) => l.startsWith(`${MALFORMED}:`));
  assert.ok(diagnostics.length >= 1, r.stdout);
  for (const d of diagnostics) assert.match(d, /^test\/fixtures\/broken\/malformed\.scenario\.yaml:\d+:\d+: error [\w-]+: \S/);
  assert.match(out.at(-1)!, /^1 file checked: [1-9]\d* errors?, \d+ warnings?$/);
});

test("--json gives the same findings as data", () => {
  const r = runCli(["validate", "--json", MALFORMED, SUITE]);
  assert.equal(r.status, 1);
  const report = JSON.parse(r.stdout) as {
    files: { file: string; valid: boolean; diagnostics: { severity: string; range: { start: { line: number } } }[] }[];
    totals: { files: number; errors: number };
  };
  assert.equal(report.totals.files, 3);
  assert.deepEqual(
    report.files.map((f) => [f.file, f.valid]),
    [
      [MALFORMED, false],
      [join(SUITE, "reminder_and_contacts.scenario.yaml"), true],
      [join(SUITE, "text_with_cellular_off.scenario.yaml"), true],
    ],
  );
  assert.ok(report.files[0]!.diagnostics.some((d) => d.severity === "error"));
});

test("a missing file is one line on stderr and exit 3", () => {
  const r = runCli(["validate", "no/such.scenario.yaml"]);
  assert.equal(r.status, 3);
  assert.equal(r.stdout, "");
  assert.deepEqual(lines(r.stderr), ["toolsandbox: no/such.scenario.yaml: no such file or directory"]);
});

test("a directory without scenario files is an input error", () => {
  const dir = tempDir("empty");
  const r = runCli(["validate", dir]);
  assert.equal(r.status, 3);
  assert.deepEqual(lines(r.stderr), [`toolsandbox: ${dir}: no *.scenario.yaml files in this directory`]);
});

test("an unreadable file is exit 3", () => {
  const dir = tempDir("unreadable");
  chmodSync(dir, 0o755);
  const file = join(dir, "secret.scenario.yaml");
  writeFileSync(file, "name: secret\n");
  chmodSync(file, 0o000);
  // Root reads every file whatever its mode, so as root the CLI runs as the unprivileged "nobody".
  const asUser = process.getuid?.() === 0 ? { uid: 65534, gid: 65534 } : {};
  const result = spawnSync(process.execPath, [CLI, "validate", file], {
    encoding: "utf8",
    env: { PATH: process.env.PATH ?? "" },
    ...asUser,
  });
  assert.equal(result.status, 3, result.stderr);
  assert.deepEqual(lines(result.stderr), [`toolsandbox: ${file}: permission denied`]);
});

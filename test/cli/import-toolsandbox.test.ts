// `toolsandbox import toolsandbox`, run as a user runs it, on the stand-in checkout of
// test/fixtures/toolsandbox-checkout: files written and checked clean, the exporter shipped in
// dist/, warnings and failures as single lines. (The real checkout: `npm run import:check`.)
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { requireBuild, lines, removeTempDirs, runCli, tempDir } from "./harness.js";

const CHECKOUT = "test/fixtures/toolsandbox-checkout";
const PYTHON = process.env.TOOLSANDBOX_PYTHON ?? "python3";

before(requireBuild);
after(removeTempDirs);

test("a checkout's scenarios become scenario files that validate's format checks accept", () => {
  const out = tempDir("import-toolsandbox");
  const r = runCli(["import", "toolsandbox", CHECKOUT, "--out", out, "--python", PYTHON], { TZ: "Asia/Kolkata" });
  assert.equal(r.status, 0, r.stderr);
  assert.deepEqual(lines(r.stdout), [`2 of 2 scenarios imported into ${out} (0 with a reference solution)`]);
  assert.deepEqual(readdirSync(out).sort(), [
    "toolsandbox-prompts.json",
    "water_plants_saturday.scenario.yaml",
    "wifi_back_on.scenario.yaml",
  ]);
  // The bundled references do not know the stand-in's scenarios: one warning line each.
  assert.deepEqual(
    lines(r.stderr)
      .filter((l) => l.startsWith("warning:"))
      .map((l) => l.split(": ").slice(2, 3)[0]),
    ["reference", "reference"],
  );
  const v = runCli(["validate", out, "--json"]);
  const report = JSON.parse(v.stdout) as { files: { diagnostics: { code: string; severity: string }[] }[] };
  const formatErrors = report.files.flatMap((f) => f.diagnostics).filter((d) => d.severity === "error" && !d.code.startsWith("reference-"));
  assert.deepEqual(formatErrors, []);
});

test("a Python that cannot run, or a folder that is no checkout, is one line and exit 1; a missing path exit 3", () => {
  const out = tempDir("import-toolsandbox-bad");
  const noPython = runCli(["import", "toolsandbox", CHECKOUT, "--out", out, "--python", join(out, "no-such-python")]);
  assert.equal(noPython.status, 1);
  assert.equal(lines(noPython.stderr).length, 1);
  assert.match(noPython.stderr, /cannot run .*no-such-python/);
  const notCheckout = runCli(["import", "toolsandbox", "test/fixtures", "--out", out, "--python", PYTHON]);
  assert.equal(notCheckout.status, 1);
  assert.deepEqual(lines(notCheckout.stderr), ["toolsandbox: test/fixtures: not a ToolSandbox checkout (no tool_sandbox/ package in it)"]);
  const missing = runCli(["import", "toolsandbox", "no-such-checkout", "--out", out, "--python", PYTHON]);
  assert.equal(missing.status, 3);
  assert.deepEqual(lines(missing.stderr), ["toolsandbox: no-such-checkout: no such file or directory"]);
});

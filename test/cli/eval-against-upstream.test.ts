// `toolsandbox eval --against-upstream`, run as a user runs it. The comparison itself needs a real
// checkout and a Python with its libraries (`npm run conformance:evaluation` runs it on all 129);
// here: the upstream script is shipped, and every way it cannot run is one line with its exit code.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { requireBuild, lines, removeTempDirs, runCli, tempDir } from "./harness.js";

const CHECKOUT = "test/fixtures/toolsandbox-checkout";
const SCENARIO = "test/fixtures/scenarios/suite/text_with_cellular_off.scenario.yaml";

before(requireBuild);
after(removeTempDirs);

/** A trajectory of a fixture scenario, played with the scripted roles. */
function oneTrajectory(): string {
  const out = tempDir("against-upstream");
  const r = runCli(["run", SCENARIO, "--out", out]);
  assert.equal(r.status, 0, r.stderr);
  return out;
}

test("the upstream scoring script ships beside the exporter in dist/", () => {
  assert.ok(existsSync(join("dist", "toolsandbox-importer", "upstream_score.py")));
});

test("a folder that is not a checkout, or a Python that cannot run, is one line and exit 1", () => {
  const runs = oneTrajectory();
  const notCheckout = runCli(["eval", runs, "--against-upstream", "test/fixtures", "--python", "python3"]);
  assert.equal(notCheckout.status, 1);
  assert.deepEqual(lines(notCheckout.stderr), ["toolsandbox: test/fixtures: not a ToolSandbox checkout (no tool_sandbox/ package in it)"]);
  const noPython = runCli(["eval", runs, "--against-upstream", CHECKOUT, "--python", join(runs, "no-such-python")]);
  assert.equal(noPython.status, 1);
  assert.equal(lines(noPython.stderr).length, 1);
  assert.match(noPython.stderr, /cannot run .*no-such-python/);
});

test("--against-upstream with --scenario or --mode tooltalk is a usage error", () => {
  const runs = oneTrajectory();
  const r = runCli(["eval", runs, "--against-upstream", CHECKOUT, "--mode", "tooltalk"]);
  assert.equal(r.status, 2);
  assert.equal(lines(r.stderr).length, 1);
  assert.match(
    r.stderr,
    /^toolsandbox: --against-upstream applies to --mode milestone only \(it scores each trajectory against its own upstream scenario\)$/m,
  );
  const withScenario = runCli(["eval", runs, "--against-upstream", CHECKOUT, "--scenario", "x.scenario.yaml"]);
  assert.equal(withScenario.status, 2);
  assert.equal(lines(withScenario.stderr).length, 1);
  assert.match(withScenario.stderr, /--against-upstream <checkout>' cannot be used with option '--scenario <file>'/);
});

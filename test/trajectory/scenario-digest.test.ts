// The scenario's digest in the trajectory header: written by the runner, equal to the digest of the
// scenario the header embeds as any reader reads it back, checked for its form by the reader and by
// the panel's guard, and computed the same for older files that do not carry it.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { parseHostMessage } from "../../client/webview/validate/host-messages.js";
import { parseTrajectory } from "../../engine/trajectory/reader.js";
import { TrajectoryError } from "../../engine/trajectory/errors.js";
import { headerScenarioDigest, scenarioDigest } from "../../engine/trajectory/scenario-digest.js";

const SAMPLES = join("sample-scenarios", "trajectories");
const samples = readdirSync(SAMPLES).filter((f) => f.endsWith(".trajectory.jsonl"));
const text = (file: string): string => readFileSync(join(SAMPLES, file), "utf8");

/** The file with its header's scenario_digest replaced (or, with undefined, removed). */
function withDigest(source: string, digest: unknown): string {
  const [first, ...rest] = source.split("\n");
  const header = JSON.parse(first!) as Record<string, unknown>;
  const { scenario_digest: _old, ...others } = header;
  const changed =
    digest === undefined
      ? others
      : { type: others.type, format: others.format, version: others.version, scenario_digest: digest, ...others };
  return [JSON.stringify(changed), ...rest].join("\n");
}

test("every saved sample's header carries the digest of the scenario it embeds, as read back", () => {
  assert.ok(samples.length > 20);
  for (const file of samples) {
    const { header } = parseTrajectory(text(file), file);
    assert.match(header.scenario_digest ?? "", /^sha256:[0-9a-f]{16}$/, file);
    assert.equal(header.scenario_digest, scenarioDigest(header.scenario), file);
  }
});

test("a header without the digest (an older file) still reads, and its digest is computed the same", () => {
  const file = samples[0]!;
  const recorded = parseTrajectory(text(file), file).header;
  const older = parseTrajectory(withDigest(text(file), undefined), file).header;
  assert.equal(older.scenario_digest, undefined);
  assert.equal(headerScenarioDigest(older), recorded.scenario_digest);
});

test("a digest that is not sha256: and 16 hex digits is refused at line 1, by the reader and by the panel", () => {
  const file = samples[0]!;
  for (const bad of ["sha256:XYZ", "md5:0123456789abcdef", 42]) {
    const source = withDigest(text(file), bad);
    assert.throws(
      () => parseTrajectory(source, file),
      (e: unknown) => e instanceof TrajectoryError && e.line === 1 && /scenario_digest/.test(e.reason),
      String(bad),
    );
    const checked = parseHostMessage(JSON.parse(source.split("\n")[0]!));
    assert.equal(checked.ok, false, String(bad));
    assert.match(checked.ok ? "" : checked.error, /^\/scenario_digest (must be a string|must be "sha256:" and 16 hex digits)/);
  }
  // The panel passes a good one through, for the header's tooltip.
  const good = parseHostMessage(JSON.parse(text(file).split("\n")[0]!));
  assert.ok(good.ok && good.value.type === "header");
  assert.match(good.value.scenario_digest ?? "", /^sha256:[0-9a-f]{16}$/);
});

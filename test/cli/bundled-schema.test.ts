// The bundles check scenarios with the schema validator the build compiles ahead of time
// (scripts/build.mjs); from source the engine compiles the schema itself. Both must report the
// same problems, so documents broken in many ways go through the built CLI and through the
// engine, and their diagnostics are compared.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parse, stringify } from "yaml";
import type { Diagnostic } from "../../engine/base/diagnostics.js";
import { checkScenarioText } from "../../engine/scenario/load.js";
import { requireBuild, removeTempDirs, runCli, tempDir } from "./harness.js";

before(requireBuild);
after(removeTempDirs);

type Doc = Record<string, unknown>;

/** Schema errors of every kind the diagnostics word: unknown and missing keys, types, enums, tags, patterns, limits. */
const BREAKAGES: readonly [string, (doc: Doc) => void][] = [
  ["unknown key", (d) => (d.nmae = "x")],
  ["missing required key", (d) => delete d.user],
  ["wrong type", (d) => (d.name = 42)],
  ["wrong enum value", (d) => (d.categories = ["SINGLE_TOOL_CAL"])],
  ["unknown tag", (d) => (d.milestones = [{ id: "m", constraints: [{ kind: "snapshott", table: "SANDBOX" }] }])],
  ["tag of the wrong type", (d) => (d.milestones = [{ id: "m", constraints: [{ kind: 3 }] }])],
  ["nested wrong type", (d) => (d.user = { ...(d.user as Doc), goal: ["a"] })],
  ["empty list", (d) => (d.reference = [])],
  ["bad clock", (d) => (d.clock = { now: "yesterday", timezone: 5 })],
  ["several at once", (d) => Object.assign(d, { name: null, extra: 1, tools: { allow: "all" } })],
];

test("the built CLI reports the same schema problems as the engine run from source", () => {
  const dir = tempDir("schema");
  const sample = readdirSync("sample-scenarios")
    .filter((f) => f.endsWith(".scenario.yaml"))
    .sort()[0];
  assert.ok(sample);
  const original = parse(readFileSync(join("sample-scenarios", sample), "utf8")) as Doc;
  const files = BREAKAGES.map(([what, breakIt], i) => {
    const doc = structuredClone(original);
    breakIt(doc);
    const file = join(dir, `broken-${i}.scenario.yaml`);
    writeFileSync(file, stringify(doc));
    return { what, file };
  });
  const r = runCli(["validate", "--json", ...files.map((f) => f.file)]);
  assert.equal(r.status, 1, r.stderr);
  const reports = (JSON.parse(r.stdout) as { files: { file: string; diagnostics: Diagnostic[] }[] }).files;
  const key = (d: Diagnostic): string => `${d.range.start.line}:${d.range.start.character} ${d.code} ${d.message}`;
  for (const { what, file } of files) {
    const fromSource = checkScenarioText(readFileSync(file, "utf8"), file).diagnostics.map(key).sort();
    const bundled = (reports.find((rep) => rep.file === file)?.diagnostics ?? []).map(key).sort();
    assert.ok(
      fromSource.some((k) => / schema-/.test(k)),
      `${what}: the document breaks the schema`,
    );
    assert.deepEqual(bundled, fromSource, what);
  }
});

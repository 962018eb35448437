import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { readTrajectoryFile } from "../../engine/trajectory/reader.js";
import { requireBuild, lines, removeTempDirs, runCli, tempDir } from "./harness.js";

before(requireBuild);
after(removeTempDirs);

const FIXTURE = readFileSync("test/fixtures/scenarios/suite/text_with_cellular_off.scenario.yaml", "utf8");
const CATEGORIES = "categories: [STATE_DEPENDENCY, MULTIPLE_TOOL_CALL, SINGLE_USER_TURN]";

/** A copy of the fixture under another name, with other categories and optionally another recipient in its milestone. */
function variant(dir: string, name: string, categories: string, recipient = "+12453344098"): void {
  assert.ok(FIXTURE.includes(CATEGORIES) && FIXTURE.includes('recipient_phone_number: "+12453344098"'));
  const text = FIXTURE.replace("name: text_with_cellular_off", `name: ${name}`)
    .replace(CATEGORIES, `categories: [${categories}]`)
    .replace('recipient_phone_number: "+12453344098"', `recipient_phone_number: "${recipient}"`);
  writeFileSync(join(dir, `${name}.scenario.yaml`), text);
}

interface SummaryJson {
  scenarios: {
    name: string;
    score: number | null;
    milestone_score: number;
    turn_count: number;
    milestones: { id: string; matched_at: number | null; similarity: number }[];
  }[];
  categories: { category: string; group: string; scenarios: number; score: number; turn_count: number }[];
}

test("run scores every scenario and tabulates categories and augmentations like upstream, scrambled variants left out of THREE_DISTRACTION_TOOLS", () => {
  const suite = tempDir("suite");
  variant(suite, "plain", "STATE_DEPENDENCY, NO_DISTRACTION_TOOLS");
  variant(suite, "three_tools", "STATE_DEPENDENCY, THREE_DISTRACTION_TOOLS");
  // Its milestone expects another recipient than the reference texts, so it scores 0.5.
  variant(suite, "three_tools_name_scrambled", "STATE_DEPENDENCY, THREE_DISTRACTION_TOOLS, TOOL_NAME_SCRAMBLED", "+10000000000");
  const out = tempDir("out");
  const r = runCli(["run", suite, "--out", out]);
  assert.equal(r.status, 0, r.stderr);

  const stdout = lines(r.stdout);
  assert.match(stdout[1]!, /^plain +end_conversation +\d+ +7 +1\.00$/);
  assert.match(stdout[3]!, /^three_tools_name_scrambled +end_conversation +\d+ +7 +0\.50$/);
  // The per-category table, up to the per-app table that follows it.
  const table = stdout.slice(
    stdout.findIndex((l) => l.startsWith("CATEGORY")),
    stdout.findIndex((l) => l.startsWith("APP ")),
  );
  assert.deepEqual(
    table.map((l) => l.split(/ +/)),
    [
      // Three scenarios, or a category of one, are too few for a bootstrap interval.
      ["CATEGORY", "SCENARIOS", "SCORE", "95%", "CI", "TURNS"],
      ["STATE_DEPENDENCY", "3", "0.83", "[n", "too", "small]", "7.0"],
      ["NO_DISTRACTION_TOOLS", "1", "1.00", "[n", "too", "small]", "7.0"],
      ["THREE_DISTRACTION_TOOLS", "1", "1.00", "[n", "too", "small]", "7.0"],
      ["TOOL_NAME_SCRAMBLED", "1", "0.50", "[n", "too", "small]", "7.0"],
      ["ALL_CATEGORIES", "3", "0.83", "[n", "too", "small]", "7.0"],
    ],
  );

  const summary = JSON.parse(readFileSync(join(out, "summary.json"), "utf8")) as SummaryJson;
  const scrambled = summary.scenarios.find((s) => s.name === "three_tools_name_scrambled")!;
  assert.equal(scrambled.score, 0.5);
  assert.deepEqual(
    scrambled.milestones.map((m) => [m.id, m.matched_at === null, m.similarity]),
    [
      ["cellular_on", false, 1],
      ["sent", true, 0],
    ],
  );
  assert.deepEqual(
    summary.categories.map((c) => [c.category, c.group, c.scenarios]),
    [
      ["STATE_DEPENDENCY", "scenario", 3],
      ["NO_DISTRACTION_TOOLS", "augmentation", 1],
      ["THREE_DISTRACTION_TOOLS", "augmentation", 1],
      ["TOOL_NAME_SCRAMBLED", "augmentation", 1],
      ["ALL_CATEGORIES", "all", 3],
    ],
  );
  assert.ok(Math.abs(summary.categories[0]!.score - 2.5 / 3) < 1e-12);

  // Each trajectory ends with the evaluation the summary was made from.
  const trajectory = readTrajectoryFile(join(out, "three_tools_name_scrambled.trajectory.jsonl"));
  assert.equal(trajectory.evaluation?.score, 0.5);
  assert.deepEqual(trajectory.warnings, []);
});

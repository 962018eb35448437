// The CLI's other commands on the scenarios imported from ToolTalk-format data (our fixture; the
// published 78: test/conformance/tooltalk/cli/tooltalk-scenarios.test.ts), as a user runs them:
// `validate` passes them all, `stats` counts ToolTalk's tools and tables, and a run of one scores 1.0
// and success under `eval` in both the milestone and the ToolTalk mode.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { requireBuild, removeTempDirs, runCli, tempDir } from "./harness.js";
import { assertStatsCounts, assertValidates } from "./tooltalk-import-checks.js";
import { importedToolTalkFolder } from "../fixtures/tooltalk-data.js";

const FOLDER = importedToolTalkFolder();

before(requireBuild);
after(removeTempDirs);

test("validate checks every imported scenario, plays its reference and finds no problem", () => {
  assertValidates(FOLDER, 5);
});

test("stats counts ToolTalk's tools and tables: every reference call, every constraint's table, nothing of ToolSandbox's", () => {
  const text = assertStatsCounts(FOLDER);
  assert.match(text, /^AddAlarm +2 +5 +3 +2 +0 +0$/m);
  assert.match(text, /^REMINDER +1 +1 +0 +1$/m);
  assert.match(text, /^REMINDER\.task +1 +1 +0 +1$/m);
});

test("a run of an imported scenario scores 1.0 and success in the milestone mode and in the ToolTalk mode", () => {
  const name = "tooltalk_alarm_reminder_weather_add_reminder_0";
  const out = tempDir("tooltalk-eval");
  const run = runCli(["run", join(FOLDER, `${name}.scenario.yaml`), "--out", out]);
  assert.equal(run.status, 0, run.stderr);
  const trajectory = join(out, `${name}.trajectory.jsonl`);

  const milestone = runCli(["eval", trajectory, "--json"]);
  assert.equal(milestone.status, 0, milestone.stderr);
  const [scored] = (
    JSON.parse(milestone.stdout) as {
      trajectories: {
        score: number;
        milestone_score: number;
        milestones: { id: string; similarity: number }[];
        minefields: { id: string; similarity: number }[];
      }[];
    }
  ).trajectories;
  assert.ok(scored);
  assert.deepEqual([scored.score, scored.milestone_score], [1, 1]);
  assert.ok(scored.milestones.length > 0 && scored.milestones.every((m) => m.similarity === 1), JSON.stringify(scored.milestones));
  assert.ok(scored.minefields.length > 0 && scored.minefields.every((m) => m.similarity === 0), "no minefield hit");
  assert.match(runCli(["eval", trajectory]).stdout, /score 1\.00 \(milestones 1\.00, minefields 0\.00\)/);

  const tooltalk = runCli(["eval", "--mode", "tooltalk", trajectory, "--json"]);
  assert.equal(tooltalk.status, 0, tooltalk.stderr);
  const [conversation] = (
    JSON.parse(tooltalk.stdout) as {
      conversations: {
        scenario: string;
        source: string;
        metrics: { precision: number; recall: number; bad_actions: number; success: boolean; soft_success: number };
      }[];
    }
  ).conversations;
  assert.ok(conversation);
  assert.deepEqual([conversation.scenario, conversation.source], [name, "trajectory"]);
  const { precision, recall, bad_actions, success, soft_success } = conversation.metrics;
  assert.deepEqual(
    { precision, recall, bad_actions, success, soft_success },
    { precision: 1, recall: 1, bad_actions: 0, success: true, soft_success: 1 },
  );
});

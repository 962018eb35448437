// The CLI's other commands on the scenarios imported from ToolTalk (the user's copy of its data), as a
// user runs them: `validate` passes them all, `stats` counts ToolTalk's tools and tables, and a run
// of one scores 1.0 and success under `eval` in both the milestone and the ToolTalk mode.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { parse } from "yaml";
import { TOOLTALK_PACK } from "../../../../engine/packs/tooltalk/index.js";
import { TOOLSANDBOX_PACK } from "../../../../engine/packs/toolsandbox/index.js";
import { requireBuild, lines, removeTempDirs, runCli, tempDir } from "../../../cli/harness.js";
import { importedToolTalkFolder } from "../published-data.js";

const FOLDER = importedToolTalkFolder();
const FILES = readdirSync(FOLDER)
  .filter((f) => f.endsWith(".scenario.yaml"))
  .sort();
const TOOLTALK_TOOLS = TOOLTALK_PACK.tools.filter((t) => t.visibleTo.includes("agent")).map((t) => t.name);
const TOOLSANDBOX_ONLY = TOOLSANDBOX_PACK.tools.map((t) => t.name).filter((name) => !TOOLTALK_TOOLS.includes(name));

before(requireBuild);
after(removeTempDirs);

interface Node {
  constraints: { table?: string }[];
}
interface ScenarioFile {
  tools?: unknown;
  milestones: Node[];
  minefields: Node[];
  reference: { calls?: { tool: string }[] }[];
}

/** The imported files read as plain YAML, independently of the scenario checker. */
const scenarios = (): ScenarioFile[] => FILES.map((f) => parse(readFileSync(join(FOLDER, f), "utf8")) as ScenarioFile);

test("validate checks every imported scenario, plays its reference and finds no problem", () => {
  const r = runCli(["validate", FOLDER]);
  assert.equal(r.status, 0, r.stdout + r.stderr);
  assert.deepEqual(lines(r.stdout), [`${FILES.length} files checked: no problems`]);
  const json = runCli(["validate", FOLDER, "--json"]);
  assert.equal(json.status, 0, json.stderr);
  const files = (JSON.parse(json.stdout) as { files: { file: string; valid: boolean; diagnostics: unknown[] }[] }).files;
  assert.deepEqual(
    files.map((f) => [f.file, f.valid, f.diagnostics.length]),
    FILES.map((f) => [join(FOLDER, f), true, 0]),
  );
});

test("stats counts ToolTalk's tools and tables: every reference call, every constraint's table, nothing of ToolSandbox's", () => {
  const r = runCli(["stats", FOLDER, "--json"]);
  assert.equal(r.status, 0, r.stderr);
  const stats = JSON.parse(r.stdout) as {
    scenarios: number;
    tools: { tool: string; allowed: number; necessary: number; reference_calls: number }[];
    tables: { table: string; constraints: number }[];
  };
  assert.equal(stats.scenarios, FILES.length);
  const files = scenarios();
  assert.ok(
    files.every((s) => s.tools === undefined),
    "imported scenarios restrict no tools",
  );

  const calls = new Map<string, number>();
  for (const s of files)
    for (const step of s.reference) for (const call of step.calls ?? []) calls.set(call.tool, (calls.get(call.tool) ?? 0) + 1);
  assert.deepEqual(new Set(stats.tools.map((t) => t.tool)), new Set(TOOLTALK_TOOLS));
  for (const tool of stats.tools) {
    assert.equal(tool.allowed, FILES.length, tool.tool);
    assert.equal(tool.reference_calls, calls.get(tool.tool) ?? 0, tool.tool);
  }

  const constraints = new Map<string, number>();
  for (const s of files)
    for (const node of [...s.milestones, ...s.minefields])
      for (const c of node.constraints) if (c.table) constraints.set(c.table, (constraints.get(c.table) ?? 0) + 1);
  assert.deepEqual(new Map(stats.tables.map((t) => [t.table, t.constraints])), constraints);
  for (const { table } of stats.tables) assert.ok(table === "SANDBOX" || TOOLTALK_PACK.schemas.has(table), table);

  // The printed tables say the same.
  const text = runCli(["stats", FOLDER]).stdout;
  assert.match(text, /^CreateEvent +\d+ +78 +/m);
  assert.match(text, /^CALENDAR +\d+ +\d+ +\d+ +\d+$/m);
  assert.match(text, /^CALENDAR\.attendees +\d+/m);
  for (const name of TOOLSANDBOX_ONLY) assert.doesNotMatch(text, new RegExp(`^${name} `, "m"), name);
  assert.doesNotMatch(text, /^(CONTACT|MESSAGING|SETTING)\b/m);
});

test("a run of an imported scenario scores 1.0 and success in the milestone mode and in the ToolTalk mode", () => {
  const name = "tooltalk_calendar_messages_weather_send_message_0";
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

// The CLI over world packs: `tools --pack`, validation of a tooltalk scenario with file:line:col,
// a tooltalk run replayed with its world diff keyed by ToolTalk's tables (list cells as JSON).
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { changeLines } from "../../engine/compare/world-diff.js";
import { packTables } from "../../engine/packs/tables.js";
import { requireBuild, lines, removeTempDirs, runCli, tempDir } from "./harness.js";

before(requireBuild);
after(removeTempDirs);

test("tools --pack tooltalk lists ToolTalk's 28 tools and the user's end_conversation", () => {
  const json = runCli(["tools", "--pack", "tooltalk", "--json"]);
  assert.equal(json.status, 0, json.stderr);
  const names = (JSON.parse(json.stdout) as { name: string }[]).map((e) => e.name);
  assert.equal(names.length, 29);
  for (const name of ["SendEmail", "UserLogin", "HistoricWeather", "end_conversation"]) assert.ok(names.includes(name), name);
  const table = runCli(["tools", "--pack", "tooltalk"]);
  assert.match(table.stdout, /^CreateEvent +Calendar +Calendar +action +/m);
  assert.match(lines(table.stdout).at(-1)!, /^29 tools of the tooltalk pack;/);
  const unknown = runCli(["tools", "--pack", "tau"]);
  assert.equal(unknown.status, 2);
  assert.match(unknown.stderr, /--pack: Allowed choices are toolsandbox, tooltalk/);
});

test("validate reports an unknown table of a tooltalk scenario at its line and column", () => {
  const dir = tempDir("packs");
  const file = join(dir, "typo.scenario.yaml");
  writeFileSync(
    file,
    "name: typo\nworld:\n  pack: tooltalk\n  REMINDERS:\n    add: []\nuser: { goal: g, opening: o }\nreference:\n  - agent: Hi.\n  - end_conversation: true\n",
  );
  const r = runCli(["validate", file]);
  assert.equal(r.status, 1);
  assert.match(
    r.stdout,
    /typo\.scenario\.yaml:4:3: error unknown-table: The tooltalk world has no table "REMINDERS"\. Did you mean "REMINDER"\?/,
  );
});

test("a tooltalk run replays with rows labelled by ToolTalk's keys", () => {
  const dir = tempDir("packs");
  const file = join(dir, "remind.scenario.yaml");
  writeFileSync(
    file,
    [
      "name: remind",
      "world: { pack: tooltalk, ACCOUNT: { add: [{ username: ravi_sandoval, email: ravi.sandoval@postbox.test, phone: 555-613-2090, name: Ravi Sandoval, password: copper-kettle-42 }] } }",
      "user: { goal: Add a reminder., opening: Remind me to buy milk. }",
      "reference:",
      "  - calls: [{ tool: UserLogin, arguments: { username: ravi_sandoval, password: copper-kettle-42 } }]",
      "  - calls: [{ tool: AddReminder, arguments: { task: Buy milk } }]",
      "  - agent: Done.",
      "  - end_conversation: true",
      "",
    ].join("\n"),
  );
  const out = join(dir, "runs");
  const run = runCli(["run", file, "--out", out]);
  assert.equal(run.status, 0, run.stderr);
  const replay = runCli(["replay", join(out, "remind.trajectory.jsonl")]);
  assert.equal(replay.status, 0, replay.stderr);
  assert.match(replay.stdout, /\+ REMINDER reminder_id="[0-9a-f]{2}-[0-9a-f]{4}": username="ravi_sandoval", task="Buy milk"/);
});

test("a list cell in a world diff prints as JSON and a changed list shows old and new", () => {
  const { schemas } = packTables("tooltalk");
  const old = { username: "ann", event_id: "e1", attendees: ["ann"] };
  const [line] = changeLines(
    [{ op: "update", table: "CALENDAR", position: 0, new_position: 0, old, new: { ...old, attendees: ["ann", "bob"] } }],
    "UTC",
    schemas,
  );
  assert.equal(line, '~ CALENDAR event_id="e1": attendees ["ann"] → ["ann","bob"]');
});

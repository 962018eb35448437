// `toolsandbox replay --html FILE`: one self-contained file per trajectory that opens from disk,
// shows the same run and score as the transcript, and fails the CLI's usual way when it cannot.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { requireBuild, lines, removeTempDirs, runCli, tempDir } from "../cli/harness.js";
import { PanelBrowser, textOf } from "./browser.js";
import { evaluateTrajectory } from "../../engine/evaluation/evaluate.js";
import { formatScore } from "../../engine/evaluation/highlights.js";
import { readTrajectoryFile } from "../../engine/trajectory/reader.js";
import { SAMPLES } from "./trajectories.js";

let browser: PanelBrowser;
let dir = "";

before(async () => {
  requireBuild();
  dir = tempDir("panel-export");
  browser = await PanelBrowser.launch();
});

after(async () => {
  await browser?.close();
  removeTempDirs();
});

// One sample per kind of run: rows added, changed, removed, moved; no world change; a minefield.
// (Every sample's lines pass the panel's guards: protocol.test.ts.)
const KINDS = [
  "add_contact_with_name_and_phone_number_adapted",
  "cellular_off_adapted",
  "remove_contact_by_phone_adapted",
  "update_contact_relationship_with_relationship_adapted",
  "find_temperature_f_with_location_and_time_diff_multiple_user_turn_adapted",
  "find_current_city_insufficient_information",
];

test("saved samples export to one file that opens offline and shows the transcript's run and score", async () => {
  const files = readdirSync(SAMPLES).filter((f) => KINDS.some((k) => f === `${k}.trajectory.jsonl`));
  assert.equal(files.length, KINDS.length);
  for (const file of files) {
    const source = join(SAMPLES, file);
    const out = join(dir, file.replace(/\.trajectory\.jsonl$/, ".html"));
    const r = runCli(["replay", source, "--html", out]);
    assert.equal(r.status, 0, r.stderr);
    assert.deepEqual(lines(r.stdout), [`wrote ${out}`]);

    const html = readFileSync(out, "utf8");
    // Self-contained: no element loads anything; the bundle and the data are inline.
    assert.doesNotMatch(html, /\s(src|href)=/i, file);
    assert.equal((html.match(/<script\b/g) ?? []).length, 2, file);

    // What `replay` prints, computed the same way: this build's evaluation of the file.
    const trajectory = readTrajectoryFile(source);
    const evaluation = evaluateTrajectory(trajectory);

    const { page, problems } = await browser.open(out);
    assert.equal(await textOf(page, "[data-testid=scenario-name]"), trajectory.header.scenario.name, file);
    assert.equal(await textOf(page, "[data-testid=message-count]"), String(trajectory.messages.length), file);
    assert.equal(await textOf(page, "[data-testid=turn-count]"), String(evaluation.turn_count), file);
    assert.equal(await textOf(page, "[data-testid=score]"), formatScore(evaluation.score), file);
    const matched = [...evaluation.milestones, ...evaluation.minefields].filter((n) => n.matched_at !== null).length;
    assert.equal(await page.locator(".node-chip.hit, .node-chip.partial, .node-chip.stepped").count(), matched, file);
    assert.deepEqual(
      problems,
      { consoleErrors: [], consoleWarnings: [], pageErrors: [], dialogs: [], requests: [], blockedByCsp: [] },
      file,
    );
    await page.close();
  }
});

test("replay --html fails like the rest of the CLI: missing input, unwritable output, malformed trajectory", () => {
  const missing = runCli(["replay", join(dir, "nope.trajectory.jsonl"), "--html", join(dir, "x.html")]);
  assert.equal(missing.status, 3);
  assert.match(missing.stderr, /^toolsandbox: .*nope\.trajectory\.jsonl: no such file or directory\n$/);

  const source = join(SAMPLES, "cellular_off_adapted.trajectory.jsonl");
  const unwritable = runCli(["replay", source, "--html", join(dir, "no-such-dir", "x.html")]);
  assert.equal(unwritable.status, 3);
  assert.match(unwritable.stderr, /^toolsandbox: .*no-such-dir\/x\.html: no such file or directory\n$/);

  const broken = join(dir, "broken.trajectory.jsonl");
  writeFileSync(broken, `${readFileSync(source, "utf8").split("\n")[0]}\n{"type":"message","message":{}}\n`);
  const malformed = runCli(["replay", broken, "--html", join(dir, "broken.html")]);
  assert.equal(malformed.status, 4);
  assert.equal(malformed.stdout, "");
});

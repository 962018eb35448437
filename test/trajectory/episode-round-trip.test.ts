// The trajectory as the real engine writes it: every sample scenario (and the test fixtures) is
// played with the scripted roles, written, read back and compared with the live episode.
import { after, test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Episode } from "../../engine/episode/episode.js";
import type { EpisodeEvent } from "../../engine/episode/types.js";
import { createScriptedRoles } from "../../engine/roles/scripted.js";
import { loadScenarioFile } from "../../engine/scenario/load.js";
import { readTrajectoryFile } from "../../engine/trajectory/reader.js";
import { checkLine } from "../../engine/trajectory/schema.js";
import { TrajectoryWriter } from "../../engine/trajectory/writer.js";

const dirs = ["sample-scenarios", "test/fixtures/scenarios/suite"].filter(existsSync);
const files = dirs.flatMap((d) =>
  readdirSync(d)
    .filter((f) => f.endsWith(".scenario.yaml"))
    .sort()
    .map((f) => join(d, f)),
);
const out = mkdtempSync(join(tmpdir(), "toolsandbox-round-trip-"));
after(() => rmSync(out, { recursive: true, force: true }));

for (const file of files) {
  test(`${file}: the trajectory read back equals the episode that wrote it`, async () => {
    const { scenario, diagnostics } = loadScenarioFile(file);
    assert.ok(scenario, diagnostics.map((d) => d.message).join("; "));
    const path = join(out, `${scenario.name}.trajectory.jsonl`);
    const writer = TrajectoryWriter.create(path, {
      type: "header",
      format: "toolsandbox-trajectory",
      version: 1,
      scenario,
      run: { agent: "scripted", user: "scripted", seed: 11, options: {} },
    });
    const events: EpisodeEvent[] = [];
    const episode = new Episode({
      scenario,
      ...createScriptedRoles(scenario),
      seed: 11,
      onEvent: (e) => {
        events.push(e);
        writer.write(e);
      },
    });
    await episode.run();
    writer.close();

    for (const [i, line] of readFileSync(path, "utf8").trimEnd().split("\n").entries()) {
      const check = checkLine(JSON.parse(line));
      assert.ok(check.ok, `line ${i + 1}: ${check.ok ? "" : check.error}`);
    }
    const t = readTrajectoryFile(path);
    assert.deepEqual(t.warnings, []);
    assert.deepEqual(t.header.scenario, JSON.parse(JSON.stringify(scenario)));
    assert.deepEqual(t.events, JSON.parse(JSON.stringify(events)));
    assert.deepEqual(t.messages, JSON.parse(JSON.stringify(episode.messages)));
    assert.equal(t.endReason, episode.ended?.reason);
    for (let i = 0; i <= episode.messages.length; i++) {
      assert.deepEqual(t.worldAt(i), JSON.parse(JSON.stringify(episode.world.at(i))), `world at message ${i}`);
    }
  });
}

// "Open Surviving Run": the mutant a strength warning names, played into a trajectory file the
// replay panel opens as any saved run; the run is the wrong agent's, and it passes the milestones.
import { after, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { writeSurvivingRun } from "../../client/host/surviving-run.js";
import { checkScenarioFileSource } from "../../engine/scenario/load.js";
import { YamlSource } from "../../engine/scenario/yaml-source.js";
import { checkReferenceAndStrength } from "../../engine/strength/checked-strength.js";
import { succeeds } from "../../engine/strength/catalogue.js";
import { strengthDiagnostics } from "../../engine/strength/strength-findings.js";
import { type SurvivorRef, survivorRefOf } from "../../engine/strength/survivor-run.js";
import { readTrajectoryFile } from "../../engine/trajectory/reader.js";
import { removeTempDirs, tempDir } from "./fixtures.js";

after(removeTempDirs);

const FILE = "test/strength/fixtures/message_without_content.scenario.yaml";
const TEXT = readFileSync(FILE, "utf8");
const CONTENT = "How's the new album coming along";

/** The survivor the warning on `content` names, as the language server sends it. */
async function contentSurvivor(): Promise<SurvivorRef> {
  const src = new YamlSource(TEXT, FILE);
  const { scenario } = checkScenarioFileSource(src);
  assert.ok(scenario);
  const { strength } = await checkReferenceAndStrength(scenario, src);
  assert.ok(strength);
  const warning = strengthDiagnostics(strength, src).find(
    (d) => d.code === "strength-survivor" && d.message.includes("send_message_with_phone_number.content"),
  );
  const ref = survivorRefOf(warning?.data);
  assert.ok(ref, "the warning names its mutant");
  return ref;
}

test("the surviving mutant's run is written where the replay panel opens it: the wrong text sent, and a passing score", async () => {
  const ref = await contentSurvivor();
  const root = tempDir();
  const folder = join(root, ".toolsandbox", "strength");
  const run = await writeSurvivingRun(TEXT, FILE, ref, root);
  assert.ok(run.ok, run.ok ? "" : run.problem);
  assert.equal(run.file, join(folder, `message_without_content.survivor-${ref.mutant + 1}.trajectory.jsonl`));
  assert.match(run.label, /^wrong-argument at step 1: /);
  const trajectory = readTrajectoryFile(run.file);
  assert.equal(trajectory.header.scenario.name, "message_without_content");
  assert.ok(trajectory.evaluation, "the run is scored");
  assert.ok(succeeds(trajectory.evaluation.score), `the wrong agent passes: it scores ${trajectory.evaluation.score}`);
  assert.ok(
    trajectory.evaluation.milestones.every((m) => m.matched_at !== null),
    "every milestone is reached",
  );
  const sent = trajectory.worldAt(trajectory.messages.length - 1).MESSAGING ?? [];
  const texts = sent.filter((row) => row.recipient_phone_number === "+12453344098").map((row) => row.content);
  assert.equal(texts.length, 1);
  assert.notEqual(texts[0], CONTENT, "the message sent is the mutant's, not the reference's");

  // The same mutant again replaces the file with the same run.
  const before = readFileSync(run.file, "utf8");
  const again = await writeSurvivingRun(TEXT, FILE, ref, root);
  assert.ok(again.ok);
  assert.equal(stripTimes(readFileSync(again.file, "utf8")), stripTimes(before));
});

test("a survivor named before the text changed is refused with one line, and a broken text says it has errors", async () => {
  const ref = await contentSurvivor();
  const folder = tempDir();
  const stale = await writeSurvivingRun(TEXT, FILE, { ...ref, change: 'content "other"' }, folder);
  assert.deepEqual(
    stale.ok ? null : stale.problem.split(": ")[0],
    "the scenario has changed since its strength was measured; wrong-argument at step 1",
  );
  const broken = await writeSurvivingRun("name: [", FILE, ref, folder);
  assert.deepEqual(broken, { ok: false, problem: "the scenario has errors (see the Problems view), so its mutants cannot be played" });
});

/** Wall-clock times differ between two plays; nothing else may. */
const stripTimes = (text: string): string =>
  text.replace(/"(started_at|ended_at|time|timestamp|wall_ms|duration_ms)":\s*("[^"]*"|[0-9.]+)/g, '"$1":_');

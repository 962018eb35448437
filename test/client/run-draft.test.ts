// "Save Run as Scenario…" without the editor: a sample's saved run becomes a draft beside its
// scenario that the checker accepts, named after the file chosen; a damaged or errored run is
// refused in one line before anything is asked or written.
import { after, test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { parse } from "yaml";
import { proposedDraftPath, readDraftableRun, scenarioNameOfFile, writeRunDraft } from "../../client/host/run-draft.js";
import { checkScenarioText } from "../../engine/scenario/resolve.js";
import { removeTempDirs, scenarioPath, tempDir } from "./fixtures.js";

after(removeTempDirs);

const SAMPLE = "send_message_with_contact_content_cellular_off_adapted";
const RUN = join("sample-scenarios", "trajectories", `${SAMPLE}.trajectory.jsonl`);

function readable(file: string) {
  const run = readDraftableRun(file);
  assert.ok(run.ok, run.ok ? "" : run.problem);
  return run.trajectory;
}

test("the draft is proposed beside the scenario the run played, else in the workspace root, else beside the run", () => {
  const trajectory = readable(RUN);
  const name = `${SAMPLE}_draft.scenario.yaml`;
  assert.equal(
    proposedDraftPath(trajectory, { scenarioFile: scenarioPath(SAMPLE), workspaceRoot: "/ws", runFile: RUN }),
    join(dirname(scenarioPath(SAMPLE)), name),
  );
  assert.equal(proposedDraftPath(trajectory, { scenarioFile: null, workspaceRoot: "/ws", runFile: RUN }), join("/ws", name));
  assert.equal(
    proposedDraftPath(trajectory, { scenarioFile: null, workspaceRoot: null, runFile: RUN }),
    join("sample-scenarios", "trajectories", name),
  );
});

test("the scenario's name comes from the file chosen, as the CLI names it", () => {
  assert.equal(scenarioNameOfFile("/ws/Send Later.scenario.yaml"), "send_later");
  assert.equal(scenarioNameOfFile("/ws/x_draft.scenario.yml"), "x_draft");
  assert.equal(scenarioNameOfFile("/ws/---.yaml"), "draft");
});

test("a sample's saved run is written as a draft the checker accepts, with its summary and notes", () => {
  const out = join(tempDir(), "send_later.scenario.yaml");
  const written = writeRunDraft(readable(RUN), RUN, out);
  assert.deepEqual(written.errors, []);
  assert.match(written.summary, /^wrote send_later\.scenario\.yaml: 3 milestones, a reference of 4 steps/);
  const text = readFileSync(out, "utf8");
  assert.equal(parse(text).name, "send_later");
  const checked = checkScenarioText(text, out);
  assert.ok(checked.scenario !== null);
  assert.deepEqual(
    checked.diagnostics.filter((d) => d.severity === "error"),
    [],
  );
  // Writing it again (the save dialog confirmed the replacement) gives the same bytes.
  writeRunDraft(readable(RUN), RUN, out);
  assert.equal(readFileSync(out, "utf8"), text);
});

test("a damaged run is refused in one line", () => {
  const damaged = join(tempDir(), "damaged.trajectory.jsonl");
  const lines = readFileSync(RUN, "utf8").split("\n");
  lines[3] = "{ not json";
  writeFileSync(damaged, lines.join("\n"));
  const run = readDraftableRun(damaged);
  assert.equal(run.ok, false);
  assert.match(
    run.ok ? "" : run.problem,
    /^damaged\.trajectory\.jsonl: the run file is damaged \(line 4: invalid JSON .*\); a draft needs a whole run$/,
  );
  assert.doesNotMatch(run.ok ? "" : run.problem, /\n/);
});

test("an errored run is refused in one line", () => {
  const errored = join(tempDir(), "errored.trajectory.jsonl");
  const text = readFileSync(RUN, "utf8")
    .split("\n")
    .filter((l) => !l.startsWith('{"type":"evaluation"'))
    .map((l) =>
      l.startsWith('{"type":"end"') ? l.replace('"reason":"end_conversation"', '"reason":"model_error","detail":"HTTP 500"') : l,
    );
  writeFileSync(errored, text.join("\n"));
  const run = readDraftableRun(errored);
  assert.equal(
    run.ok ? "" : run.problem,
    "errored.trajectory.jsonl: the run errored (model_error: HTTP 500); a draft needs a run that played to its end",
  );
});

test("a missing run file is one line naming it", () => {
  const missing = join(tempDir(), "gone.trajectory.jsonl");
  const run = readDraftableRun(missing);
  assert.match(run.ok ? "" : run.problem, /^gone\.trajectory\.jsonl: cannot read the run \(.*ENOENT.*\)$/);
  assert.ok(!existsSync(missing));
});

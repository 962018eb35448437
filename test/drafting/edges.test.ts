// Where a draft's `after` edges come from: a run of a fixture that holds each kind of evidence,
// played and recorded by `toolsandbox run` with the scripted roles. A send that failed until
// cellular came on follows the cellular change (state); a contact changed through the id its add
// returned follows the add (data flow); a search whose result nothing used is in no milestone;
// and the two independent chains are not ordered against each other.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { draftScenario } from "../../engine/drafting/draft.js";
import { scoreReference } from "../../engine/evaluation/reference-check.js";
import { checkScenarioText } from "../../engine/scenario/resolve.js";
import type { Scenario } from "../../engine/scenario/model.js";
import { readRunFile } from "../../engine/trajectory/run-damage.js";
import { removeTempDirs, requireBuild, runCli, tempDir } from "../cli/harness.js";

const FIXTURE = "test/drafting/fixtures/retry_then_rename.scenario.yaml";
let drafted: Scenario;
let text: string;

before(async () => {
  requireBuild();
  const out = tempDir("draft-edges");
  const r = runCli(["run", FIXTURE, "--out", out]);
  assert.equal(r.status, 0, r.stderr);
  const run = readRunFile(join(out, "retry_then_rename.trajectory.jsonl"));
  assert.equal(run.damage, null);
  text = draftScenario(run.trajectory!, { name: "retry_then_rename_draft", source: "retry_then_rename.trajectory.jsonl" }).text;
  const checked = checkScenarioText(text, "retry_then_rename_draft.scenario.yaml");
  assert.deepEqual(
    checked.diagnostics.filter((d) => d.severity === "error").map((d) => d.message),
    [],
  );
  drafted = checked.scenario!;
});
after(removeTempDirs);

/** The milestones' comments with their wrapped lines joined. */
const comments = (): string => text.replace(/\n +# /g, " ");

const node = (id: string) => {
  const found = drafted.milestones.find((m) => m.id === id);
  assert.ok(found, `no milestone ${id} in\n${text}`);
  return found;
};

test("one milestone per world change, on its table", () => {
  assert.deepEqual(
    drafted.milestones.map((m) => [m.id, m.constraints.map((c) => `${c.kind} ${c.table}`)]),
    [
      ["updated_setting", ["update SETTING"]],
      ["added_messaging", ["addition MESSAGING"]],
      ["added_contact", ["addition CONTACT"]],
      ["updated_contact", ["update CONTACT"]],
    ],
  );
});

test("a call that failed until the state changed follows that change, and says so", () => {
  assert.deepEqual(node("added_messaging").after, ["updated_setting"]);
  assert.match(
    comments(),
    /send_message_with_phone_number failed until set_cellular_service_status \(reference step 2\) changed the world/,
  );
});

test("a call whose argument an earlier result returned follows it; a generated id is matched by no milestone", () => {
  const update = node("updated_contact");
  assert.deepEqual(update.after, ["added_contact"]);
  assert.match(comments(), /its person_id came from what add_contact \(reference step 5\) returned/);
  assert.deepEqual(update.constraints[0]!.target, [{ relationship: "friend" }]);
  assert.ok(!("person_id" in node("added_contact").constraints[0]!.target[0]!));
});

test("no edge from mere order, and no milestone needs the unused search", async () => {
  assert.deepEqual(node("updated_setting").after, []);
  assert.deepEqual(node("added_contact").after, [], "the contact chain does not wait for the message");
  assert.ok(!JSON.stringify(drafted.milestones).includes("search_contacts"));
  const withoutSearch = {
    ...drafted,
    reference: drafted.reference.filter((s) => !(s.kind === "agent_calls" && s.calls.some((c) => c.tool === "search_contacts"))),
  };
  assert.equal((await scoreReference(drafted)).score, 1);
  assert.equal((await scoreReference(withoutSearch)).score, 1);
});

test("timestamps are close within the clock's tolerance and written relative to now; free text by its length", () => {
  const added = node("added_messaging").constraints[0]!;
  assert.deepEqual(added.measures.creation_timestamp, { kind: "close", atol: 60 });
  assert.match(text, /creation_timestamp: now$/m);
  assert.deepEqual(node("updated_contact").constraints[0]!.measures.relationship, { kind: "contains" });
  assert.equal(added.measures.content, undefined, "three words keep the table's ROUGE-L");
});

// `toolsandbox draft`: a saved run becomes a scenario file that validates, with its strength
// printed; the same run gives the same bytes; a damaged file and an errored run are each refused
// in one line with the exit code docs/cli.md gives (4 malformed trajectory, 1 a run that did not
// play to its end), and nothing is written.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { lines, removeTempDirs, requireBuild, runCli, tempDir } from "./harness.js";

const RUN = "sample-scenarios/trajectories/send_message_with_contact_content_cellular_off_adapted.trajectory.jsonl";

after(removeTempDirs);
before(requireBuild);

test("draft writes a scenario that validates, prints its strength, and writes the same bytes again", () => {
  const dir = tempDir("draft");
  const out = join(dir, "send_later.scenario.yaml");
  const r = runCli(["draft", RUN, "--out", out]);
  assert.equal(r.status, 0, r.stderr);
  const printed = lines(r.stdout);
  assert.match(printed[0]!, /^wrote .*send_later\.scenario\.yaml: 3 milestones, a reference of 4 steps, from /);
  assert.match(printed[1]!, /send_later\.scenario\.yaml: strength \d+\/\d+ \(\d+%\) · \d+ wrong agents? pass/);
  assert.ok(
    printed.some((l) => /:\d+:\d+: (survived|no-coverage) /.test(l)),
    "no wrong agent that passes is named",
  );
  const text = readFileSync(out, "utf8");
  assert.match(text, /^name: send_later$/m);
  assert.match(text, /^ {2}# send_message_with_phone_number \(reference step 2\) added a MESSAGING row/m);
  const v = runCli(["validate", out]);
  assert.equal(v.status, 0, v.stdout + v.stderr);

  const again = join(dir, "again.scenario.yaml");
  assert.equal(runCli(["draft", RUN, "--out", again, "--name", "send_later", "--no-strength"]).status, 0);
  assert.equal(readFileSync(again, "utf8"), text);
  const refused = runCli(["draft", RUN, "--out", out]);
  assert.equal(refused.status, 3);
  assert.match(refused.stderr, /exists already \(--force overwrites it\)/);
});

test("a damaged run file is refused in one line, exit 4, and nothing is written", () => {
  const dir = tempDir("draft-damaged");
  const damaged = join(dir, "damaged.trajectory.jsonl");
  const text = readFileSync(RUN, "utf8").split("\n");
  text[3] = "{ not json";
  writeFileSync(damaged, text.join("\n"));
  const out = join(dir, "d.scenario.yaml");
  const r = runCli(["draft", damaged, "--out", out]);
  assert.equal(r.status, 4);
  assert.deepEqual(lines(r.stderr), [
    `toolsandbox: ${damaged}: the run file is damaged (line 4: invalid JSON (${jsonError()})); a draft needs a whole run`,
  ]);
  assert.equal(r.stdout, "");
  assert.ok(!existsSync(out));
});

test("an errored run is refused in one line, exit 1, and nothing is written", () => {
  const dir = tempDir("draft-errored");
  const errored = join(dir, "errored.trajectory.jsonl");
  const text = readFileSync(RUN, "utf8")
    .split("\n")
    .filter((l) => !l.startsWith('{"type":"evaluation"'))
    .map((l) =>
      l.startsWith('{"type":"end"')
        ? l.replace('"reason":"end_conversation"', '"reason":"model_error","detail":"HTTP 500 after 3 attempts"')
        : l,
    );
  writeFileSync(errored, text.join("\n"));
  const out = join(dir, "e.scenario.yaml");
  const r = runCli(["draft", errored, "--out", out]);
  assert.equal(r.status, 1, r.stderr);
  assert.deepEqual(lines(r.stderr), [
    `toolsandbox: ${errored}: the run errored (model_error: HTTP 500 after 3 attempts); a draft needs a run that played to its end`,
  ]);
  assert.ok(!existsSync(out));
});

/** Node's own wording for the JSON error of "{ not json". */
function jsonError(): string {
  try {
    JSON.parse("{ not json");
  } catch (e) {
    return (e as Error).message;
  }
  return "";
}

test("a missing run file is exit 3 and a bad --name exit 2, each one line", () => {
  const dir = tempDir("draft-usage");
  const missing = runCli(["draft", join(dir, "none.trajectory.jsonl"), "--out", join(dir, "a.scenario.yaml")]);
  assert.equal(missing.status, 3);
  assert.equal(lines(missing.stderr).length, 1);
  assert.match(missing.stderr, /none\.trajectory\.jsonl: no such file or directory/);
  const badName = runCli(["draft", RUN, "--out", join(dir, "b.scenario.yaml"), "--name", "Not-A-Name"]);
  assert.equal(badName.status, 2);
  assert.deepEqual(lines(badName.stderr), ['toolsandbox: --name: "Not-A-Name" is not a scenario name (letters a-z, digits and _)']);
});

test("a run with scrambled tool names drafts a reference with the real names, and keeps the scrambling", () => {
  const dir = tempDir("draft-scrambled");
  const sample = "sample-scenarios/send_message_with_contact_content_cellular_off_adapted.scenario.yaml";
  assert.equal(runCli(["run", sample, "--augment", "--out", dir]).status, 0);
  const run = join(dir, "send_message_with_contact_content_cellular_off_adapted_3_distraction_tools_tool_name_scrambled.trajectory.jsonl");
  const out = join(dir, "scrambled.scenario.yaml");
  const r = runCli(["draft", run, "--out", out, "--no-strength"]);
  assert.equal(r.status, 0, r.stderr);
  assert.ok(!r.stdout.includes("left out"), r.stdout);
  const text = readFileSync(out, "utf8");
  assert.match(text, /- tool: send_message_with_phone_number$/m);
  assert.match(text, /augmentations: \[tool_name_scrambled\]/);
  assert.equal(runCli(["validate", out]).status, 0);
});

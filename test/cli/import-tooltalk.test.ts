// `toolsandbox import tooltalk`, run as a user runs it: the 78 conversations become the scenario
// files kept in tooltalk-scenarios/ (in any timezone), and bad conversation files are one line
// each while the others are still written.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { buildCli, lines, removeTempDirs, runCli, tempDir } from "./harness.js";

const DATA = "third_party/tooltalk";
const KEPT = "tooltalk-scenarios";

before(buildCli);
after(removeTempDirs);

test("importing both folders writes the 78 scenarios of tooltalk-scenarios/, byte for byte in another timezone", () => {
  const out = tempDir("import");
  const r = runCli(["import", "tooltalk", join(DATA, "easy"), join(DATA, "tooltalk"), "--out", out], { TZ: "Pacific/Chatham" });
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.stderr, "");
  assert.deepEqual(lines(r.stdout), [`78 of 78 conversations imported into ${out}`]);
  const written = readdirSync(out).sort();
  assert.deepEqual(written, readdirSync(KEPT).filter((f) => f.endsWith(".scenario.yaml")).sort());
  const schema = relative(out, resolve("schemas/scenario.schema.json"));
  for (const file of written) {
    const [modeline, ...rest] = readFileSync(join(out, file), "utf8").split("\n");
    assert.equal(modeline, `# yaml-language-server: $schema=${schema}`, file);
    assert.equal(rest.join("\n"), readFileSync(join(KEPT, file), "utf8").split("\n").slice(1).join("\n"), file);
  }
});

test("a bad conversation file is one line naming the file and the JSON path; the others are imported and the exit code is 1", () => {
  const input = tempDir("import-bad");
  const good = JSON.parse(readFileSync(join(DATA, "easy", "AddAlarm-easy.json"), "utf8")) as Record<string, unknown>;
  copyFileSync(join(DATA, "easy", "AddAlarm-easy.json"), join(input, "a-good.json"));
  writeFileSync(join(input, "b-truncated.json"), '{"name": "x", "conversation": [');
  const { user, ...noUser } = good;
  writeFileSync(join(input, "c-no-user.json"), JSON.stringify(noUser, null, 2));
  writeFileSync(join(input, "d-same-name.json"), JSON.stringify({ ...good, user }, null, 2));
  const turns = good["conversation"] as Record<string, unknown>[];
  writeFileSync(join(input, "e-unknown-tool.json"), JSON.stringify({ ...good, name: "Other", conversation: turns.map((t) => ("apis" in t ? { ...t, apis: [{ request: { api_name: "LaunchRocket", parameters: {} }, response: null, exception: null }] } : t)) }, null, 2));
  const out = tempDir("import-bad-out");
  const r = runCli(["import", "tooltalk", input, "--out", out]);
  assert.equal(r.status, 1, r.stderr);
  const errors = lines(r.stderr);
  assert.equal(errors.length, 4, r.stderr);
  assert.match(errors[0] ?? "", /^toolsandbox: .*b-truncated\.json:1:\d+: invalid JSON: /);
  assert.match(errors[1] ?? "", /^toolsandbox: .*c-no-user\.json:1:1: \$\.user: /);
  assert.equal(errors[2], `toolsandbox: ${join(input, "d-same-name.json")}: $.name: the scenario name tooltalk_add_alarm_easy is already used by ${join(input, "a-good.json")}`);
  assert.equal(errors[3], `toolsandbox: ${join(input, "e-unknown-tool.json")}: $.conversation[1].apis[0].request.api_name: ToolTalk has no tool named "LaunchRocket"`);
  assert.deepEqual(lines(r.stdout), [`1 of 5 conversations imported into ${out}`]);
  assert.deepEqual(readdirSync(out), ["tooltalk_add_alarm_easy.scenario.yaml"]);
});

test("a missing input is exit 3, an unknown source exit 2, each with one line and nothing written", () => {
  const out = tempDir("import-missing");
  const missing = runCli(["import", "tooltalk", "no-such-folder", "--out", join(out, "x")]);
  assert.equal(missing.status, 3);
  assert.deepEqual(lines(missing.stderr), ["toolsandbox: no-such-folder: no such file or directory"]);
  assert.equal(existsSync(join(out, "x")), false);
  const unknown = runCli(["import", "bfcl", DATA, "--out", out]);
  assert.equal(unknown.status, 2);
  assert.deepEqual(lines(unknown.stderr), ['toolsandbox: unknown import source "bfcl" (supported: tooltalk, toolsandbox)']);
});

test("an empty folder is exit 3", () => {
  const empty = tempDir("import-empty");
  mkdirSync(join(empty, "sub"));
  const r = runCli(["import", "tooltalk", empty, "--out", tempDir("import-empty-out")]);
  assert.equal(r.status, 3);
  assert.deepEqual(lines(r.stderr), [`toolsandbox: ${empty}: no *.json files in this directory`]);
});

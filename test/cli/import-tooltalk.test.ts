// `toolsandbox import tooltalk`, run as a user runs it on ToolTalk-format data (our fixture; the
// published 78 conversations: test/conformance/tooltalk/cli/import-tooltalk.test.ts): its root
// becomes self-contained scenario files (the same bytes in any timezone), each of which checks
// and runs in both modes alone in an empty folder; bad conversation files are one line each while
// the others are still written.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { requireBuild, lines, removeTempDirs, runCli, tempDir } from "./harness.js";
import { assertEachRunsAlone, assertSameAsInProcess, cliImport } from "./tooltalk-import-checks.js";
import { importedToolTalkFolder, toolTalkDataRoot, toolTalkDatabasesFolder } from "../fixtures/tooltalk-data.js";

const DATA = toolTalkDataRoot();
const DATABASES = toolTalkDatabasesFolder();

before(requireBuild);
after(removeTempDirs);

const FIXTURE = { root: toolTalkDataRoot, importedFolder: importedToolTalkFolder, conversations: 5 };
const importedRoot = cliImport(FIXTURE);

test("importing a ToolTalk-format data root writes its 5 scenarios, the bytes of an in-process import in another timezone", () => {
  assertSameAsInProcess(FIXTURE, importedRoot());
});

test("each imported scenario, copied alone into an empty folder, validates and runs in both modes with its reference scoring 1.0", () => {
  assertEachRunsAlone(FIXTURE, importedRoot());
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
  writeFileSync(
    join(input, "e-unknown-tool.json"),
    JSON.stringify(
      {
        ...good,
        name: "Other",
        conversation: turns.map((t) =>
          "apis" in t ? { ...t, apis: [{ request: { api_name: "LaunchRocket", parameters: {} }, response: null, exception: null }] } : t,
        ),
      },
      null,
      2,
    ),
  );
  const out = tempDir("import-bad-out");
  const r = runCli(["import", "tooltalk", input, "--databases", DATABASES, "--out", out]);
  assert.equal(r.status, 1, r.stderr);
  const errors = lines(r.stderr);
  assert.equal(errors.length, 4, r.stderr);
  assert.match(errors[0] ?? "", /^toolsandbox: .*b-truncated\.json:1:\d+: invalid JSON: /);
  assert.match(errors[1] ?? "", /^toolsandbox: .*c-no-user\.json:1:1: \$\.user: /);
  assert.equal(
    errors[2],
    `toolsandbox: ${join(input, "d-same-name.json")}: $.name: the scenario name tooltalk_add_alarm_easy is already used by ${join(input, "a-good.json")}`,
  );
  assert.equal(
    errors[3],
    `toolsandbox: ${join(input, "e-unknown-tool.json")}: $.conversation[1].apis[0].request.api_name: ToolTalk has no tool named "LaunchRocket"`,
  );
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

test("a folder without conversations, even in subfolders, is exit 3", () => {
  const empty = tempDir("import-empty");
  mkdirSync(join(empty, "sub"));
  const r = runCli(["import", "tooltalk", empty, "--databases", DATABASES, "--out", tempDir("import-empty-out")]);
  assert.equal(r.status, 3);
  assert.deepEqual(lines(r.stderr), [`toolsandbox: ${empty}: no *.json conversation files in this directory or below it`]);
});

test("without a databases folder under, beside or named for the paths, the import is one line (exit 2) and writes nothing", () => {
  const input = tempDir("import-no-db");
  copyFileSync(join(DATA, "easy", "AddAlarm-easy.json"), join(input, "a.json"));
  const out = join(tempDir("import-no-db-out"), "x");
  const r = runCli(["import", "tooltalk", input, "--out", out]);
  assert.equal(r.status, 2);
  assert.deepEqual(lines(r.stderr), [
    `toolsandbox: no ToolTalk databases folder (with Account.json ... Weather.json) under or beside ${input}; name it with --databases`,
  ]);
  assert.equal(existsSync(out), false);
  const wrong = runCli(["import", "tooltalk", input, "--databases", input, "--out", out]);
  assert.equal(wrong.status, 2);
  assert.deepEqual(lines(wrong.stderr), [
    `toolsandbox: ${input}: not ToolTalk's databases folder (it needs Account.json ... Weather.json)`,
  ]);
});

test("a conversation folder finds the databases beside it", () => {
  const out = tempDir("import-leaf");
  const r = runCli(["import", "tooltalk", join(DATA, "easy"), "--out", out]);
  assert.equal(r.status, 0, r.stderr);
  assert.deepEqual(lines(r.stdout), [`3 of 3 conversations imported into ${out}`]);
});

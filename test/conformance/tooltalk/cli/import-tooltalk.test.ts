// `toolsandbox import tooltalk`, run as a user runs it on their copy of ToolTalk's data: its root
// becomes 78 self-contained scenario files (the same bytes in any timezone), each of which checks
// and runs in both modes alone in an empty folder; bad conversation files are one line each while
// the others are still written.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { requireBuild, lines, removeTempDirs, runCli, tempDir } from "../../../cli/harness.js";
import { importedToolTalkFolder, toolTalkDataRoot, toolTalkDatabasesFolder } from "../published-data.js";

const DATA = toolTalkDataRoot();
const DATABASES = toolTalkDatabasesFolder();

before(requireBuild);
after(removeTempDirs);

let rootImport: string | undefined;

/** The data root imported by the CLI in another timezone (once). */
function importedRoot(): string {
  if (rootImport !== undefined) return rootImport;
  const out = tempDir("import");
  const r = runCli(["import", "tooltalk", DATA, "--out", out], { TZ: "Pacific/Chatham" });
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.stderr, "");
  assert.deepEqual(lines(r.stdout), [`78 of 78 conversations imported into ${out}`]);
  rootImport = out;
  return out;
}

test("importing ToolTalk's data root writes its 78 scenarios, the bytes of an in-process import in another timezone", () => {
  const out = importedRoot();
  const written = readdirSync(out).sort();
  const reference = importedToolTalkFolder();
  assert.equal(written.length, 78);
  assert.deepEqual(written, readdirSync(reference).sort());
  const schema = relative(out, resolve("schemas/scenario.schema.json"));
  for (const file of written) {
    const [modeline, ...rest] = readFileSync(join(out, file), "utf8").split("\n");
    assert.equal(modeline, `# yaml-language-server: $schema=${schema}`, file);
    assert.equal(rest.join("\n"), readFileSync(join(reference, file), "utf8").split("\n").slice(1).join("\n"), file);
  }
});

test("each imported scenario, copied alone into an empty folder, validates and runs in both modes with its reference scoring 1.0", () => {
  const out = importedRoot();
  const alone = tempDir("import-alone");
  const folders = readdirSync(out)
    .sort()
    .map((file, i) => {
      const folder = join(alone, String(i));
      mkdirSync(folder);
      copyFileSync(join(out, file), join(folder, file));
      return folder;
    });
  const validate = runCli(["validate", ...folders]);
  assert.equal(validate.status, 0, validate.stdout + validate.stderr);
  assert.deepEqual(lines(validate.stdout), ["78 files checked: no problems"]);
  const played = runCli(["run", ...folders, "--out", join(alone, "runs")]);
  assert.equal(played.status, 0, played.stderr);
  const summary = JSON.parse(readFileSync(join(alone, "runs", "summary.json"), "utf8")) as { scenarios: { name: string; score: number }[] };
  assert.equal(summary.scenarios.length, 78);
  for (const s of summary.scenarios) assert.equal(s.score, 1, s.name);
  const simulated = runCli(["run", ...folders, "--mode", "tooltalk", "--out", join(alone, "runs-tt")]);
  assert.equal(simulated.status, 0, simulated.stderr);
  assert.match(simulated.stdout, /success rate 1\.000 \(78 of 78, macro\)/);
  assert.match(simulated.stdout, /78 conversations run, 0 failed/);
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
  assert.deepEqual(lines(r.stdout), [`28 of 28 conversations imported into ${out}`]);
});

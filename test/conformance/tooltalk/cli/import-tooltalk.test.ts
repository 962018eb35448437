// `toolsandbox import tooltalk`, run as a user runs it on their copy of ToolTalk's published data: its
// root becomes 78 self-contained scenario files (the same bytes in any timezone), each of which
// checks and runs in both modes alone in an empty folder. The command's errors and the same checks
// on our own fixture: test/cli/import-tooltalk.test.ts.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { requireBuild, lines, removeTempDirs, runCli, tempDir } from "../../../cli/harness.js";
import { assertEachRunsAlone, assertSameAsInProcess, cliImport } from "../../../cli/tooltalk-import-checks.js";
import { importedToolTalkFolder, toolTalkDataRoot } from "../published-data.js";

const DATA = toolTalkDataRoot();

before(requireBuild);
after(removeTempDirs);

const PUBLISHED = { root: toolTalkDataRoot, importedFolder: importedToolTalkFolder, conversations: 78 };
const importedRoot = cliImport(PUBLISHED);

test("importing ToolTalk's data root writes its 78 scenarios, the bytes of an in-process import in another timezone", () => {
  assertSameAsInProcess(PUBLISHED, importedRoot());
});

test("each imported scenario, copied alone into an empty folder, validates and runs in both modes with its reference scoring 1.0", () => {
  assertEachRunsAlone(PUBLISHED, importedRoot());
});

test("the easy folder alone finds the databases beside it: its 28 conversations", () => {
  const out = tempDir("import-leaf");
  const r = runCli(["import", "tooltalk", join(DATA, "easy"), "--out", out]);
  assert.equal(r.status, 0, r.stderr);
  assert.deepEqual(lines(r.stdout), [`28 of 28 conversations imported into ${out}`]);
});

// `validate` and `stats` on the 78 scenarios imported from ToolTalk's published data (the user's
// copy), as a user runs them: validate passes them all, stats counts ToolTalk's tools and tables.
// The same on our own fixture, and a run of one under `eval`: test/cli/tooltalk-scenarios.test.ts.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { requireBuild, removeTempDirs } from "../../../cli/harness.js";
import { assertStatsCounts, assertValidates } from "../../../cli/tooltalk-import-checks.js";
import { importedToolTalkFolder } from "../published-data.js";

const FOLDER = importedToolTalkFolder();

before(requireBuild);
after(removeTempDirs);

test("validate checks each of the 78 imported scenarios, plays its reference and finds no problem", () => {
  assertValidates(FOLDER, 78);
});

test("stats counts ToolTalk's tools and tables: every reference call, every constraint's table, nothing of ToolSandbox's", () => {
  const text = assertStatsCounts(FOLDER);
  assert.match(text, /^CreateEvent +\d+ +78 +/m);
  assert.match(text, /^CALENDAR +\d+ +\d+ +\d+ +\d+$/m);
  assert.match(text, /^CALENDAR\.attendees +\d+/m);
});

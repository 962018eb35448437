// Where the conformance tests (`npm run conformance:tooltalk`) and the bench find ToolTalk's
// published data (its 78 conversations and eight databases): the copy a user keeps, never this
// repository. By default ../shared/data/tooltalk beside the repository root; TOOLSANDBOX_TOOLTALK_DATA
// names another folder. Without the data a test fails with one line saying where it looked; it never
// skips. `npm test` reads our own fixture instead (test/fixtures/tooltalk-data.ts); both are read by
// test/fixtures/tooltalk-loader.ts.
import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { isDatabasesFolder } from "../../../engine/packs/tooltalk/database-files.js";
import { toolTalkDataAt } from "../../fixtures/tooltalk-loader.js";

const TOOLTALK_DATA_ENV = "TOOLSANDBOX_TOOLTALK_DATA";
const REPO_ROOT = resolve(__dirname, "..", "..", "..");

/** An error whose whole report is its message: no stack trace under it. */
function oneLine(message: string): Error {
  const error = new Error(message);
  error.stack = message;
  return error;
}

/** ToolTalk's data root (holding databases/, easy/, tooltalk/), checked. */
function checkedDataRoot(): string {
  const given = process.env[TOOLTALK_DATA_ENV];
  const root = given !== undefined && given !== "" ? resolve(given) : resolve(REPO_ROOT, "..", "shared", "data", "tooltalk");
  const how = given ? `${TOOLTALK_DATA_ENV}=${given}` : `the default; set ${TOOLTALK_DATA_ENV} to ToolTalk's data folder`;
  if (!existsSync(root)) throw oneLine(`ToolTalk's data is not at ${root} (${how})`);
  for (const part of ["easy", "tooltalk"]) {
    if (!existsSync(join(root, part))) throw oneLine(`ToolTalk's data at ${root} has no ${part}/ folder (${how})`);
  }
  if (!isDatabasesFolder(join(root, "databases")))
    throw oneLine(`ToolTalk's data at ${root} has no databases/ folder with the eight databases (${how})`);
  return root;
}

const published = toolTalkDataAt(checkedDataRoot);

/** ToolTalk's data root, checked: a missing folder throws one line saying where it looked. */
export const toolTalkDataRoot = published.root;
export const toolTalkDatabasesFolder = (): string => join(published.root(), "databases");
/** ToolTalk's eight databases as rows, nobody logged in (read once per process). */
export const toolTalkDatabases = published.databases;
/** The 28 easy conversations then the 50 golden ones, each in file-name order. */
export const toolTalkConversations = published.conversations;
/** The 78 conversations imported as scenarios into a temporary folder (once per process). */
export const importedToolTalkFolder = published.importedFolder;

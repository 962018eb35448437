// Where the conformance tests (`npm run conformance:tooltalk`) and the bench find ToolTalk's
// published data (its 78 conversations and eight databases): the copy a user keeps, never this
// repository. By default ../shared/data/tooltalk beside the repository root; TOOLSANDBOX_TOOLTALK_DATA
// names another folder. Without the data a test fails with one line saying where it looked; it never
// skips. `npm test` reads our own fixture instead (test/fixtures/tooltalk-data.ts).
import { existsSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { loadConversationFolder } from "../../../engine/benchmarks/tooltalk/evaluation/conversation-files.js";
import type { ToolTalkConversation } from "../../../engine/benchmarks/tooltalk/evaluation/types.js";
import { isDatabasesFolder, readToolTalkDatabases } from "../../../engine/packs/tooltalk/database-files.js";
import { importConversation } from "../../../engine/benchmarks/tooltalk/importer/import-conversation.js";
import { SCENARIO_FILE_SUFFIX } from "../../../engine/benchmarks/tooltalk/importer/names.js";
import type { Tables } from "../../../engine/world/types.js";

const TOOLTALK_DATA_ENV = "TOOLSANDBOX_TOOLTALK_DATA";
const REPO_ROOT = resolve(__dirname, "..", "..", "..");

/** An error whose whole report is its message: no stack trace under it. */
function oneLine(message: string): Error {
  const error = new Error(message);
  error.stack = message;
  return error;
}

/** ToolTalk's data root (holding databases/, easy/, tooltalk/), checked. */
export function toolTalkDataRoot(): string {
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

export function toolTalkDatabasesFolder(): string {
  return join(toolTalkDataRoot(), "databases");
}

let databases: Tables | undefined;

/** ToolTalk's eight databases as rows, nobody logged in (read once per process). */
export function toolTalkDatabases(): Tables {
  databases ??= readToolTalkDatabases(toolTalkDatabasesFolder());
  return databases;
}

/** The 28 easy conversations then the 50 golden ones, each in file-name order. */
export function toolTalkConversations(): ToolTalkConversation[] {
  const root = toolTalkDataRoot();
  return [...loadConversationFolder(join(root, "easy")), ...loadConversationFolder(join(root, "tooltalk"))];
}

let imported: string | undefined;

/**
 * A temporary folder holding the 78 conversations imported as scenarios (once per process), with
 * the repository's schema in their modelines as `toolsandbox import` would write from the repo root.
 */
export function importedToolTalkFolder(): string {
  if (imported !== undefined) return imported;
  const folder = mkdtempSync(join(tmpdir(), "tooltalk-scenarios-"));
  const schemaPath = join(REPO_ROOT, "schemas", "scenario.schema.json").split("\\").join("/");
  for (const conversation of toolTalkConversations()) {
    const { name, text } = importConversation(conversation, { schemaPath, databases: toolTalkDatabases() });
    writeFileSync(join(folder, `${name}${SCENARIO_FILE_SUFFIX}`), text);
  }
  imported = folder;
  return folder;
}

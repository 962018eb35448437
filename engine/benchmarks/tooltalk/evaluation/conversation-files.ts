// Loading ToolTalk conversations from disk: one file, or every `*.json` of a folder and its
// subfolders (the databases folder left out), in sorted path order (ToolTalk lists a folder in the
// file system's order, which varies by machine). File system errors are left to the caller, which
// knows how to report them.
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { isDatabasesFolder } from "../../../packs/tooltalk/database-files.js";
import { parseConversation } from "./conversation.js";
import type { ToolTalkConversation } from "./types.js";

export function loadConversationFile(path: string): ToolTalkConversation {
  return parseConversation(readFileSync(path, "utf8"), path);
}

const byCodeUnit = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** The `*.json` file names of a folder, sorted by code unit as Python's `sorted` would. */
export function conversationFileNames(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith(".json"))
    .map((entry) => entry.name)
    .sort(byCodeUnit);
}

/**
 * Every conversation file under `folder`: its own `*.json` files first, then each subfolder's in
 * sorted name order. A folder holding ToolTalk's eight databases is not searched.
 */
export function conversationFilesUnder(folder: string): string[] {
  if (isDatabasesFolder(folder)) return [];
  const subfolders = readdirSync(folder, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort(byCodeUnit);
  return [
    ...conversationFileNames(folder).map((name) => join(folder, name)),
    ...subfolders.flatMap((name) => conversationFilesUnder(join(folder, name))),
  ];
}

export function loadConversationFolder(folder: string): ToolTalkConversation[] {
  return conversationFilesUnder(folder).map(loadConversationFile);
}

// Loading ToolTalk conversations from disk: one file, or every `*.json` of a folder in sorted
// file-name order (ToolTalk lists a folder in the file system's order, which varies by machine).
// File system errors are left to the caller, which knows how to report them.
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { parseConversation } from "./conversation.js";
import type { ToolTalkConversation } from "./types.js";

export function loadConversationFile(path: string): ToolTalkConversation {
  return parseConversation(readFileSync(path, "utf8"), path);
}

/** The `*.json` file names of a folder, sorted by code unit as Python's `sorted` would. */
export function conversationFileNames(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith(".json"))
    .map((entry) => entry.name)
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

export function loadConversationFolder(folder: string): ToolTalkConversation[] {
  return conversationFileNames(folder).map((name) => loadConversationFile(join(folder, name)));
}

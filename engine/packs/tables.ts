// Every pack's tables by id, without the tools: light enough for the webview bundle and the
// trajectory reader, which need keys, column types and timestamp columns but never run a tool.
import { TOOLSANDBOX_TABLES } from "./toolsandbox/tables.js";
import { TOOLTALK_TABLES } from "./tooltalk/tables.js";
import type { PackId, PackTables } from "./types.js";

const TABLES: Readonly<Record<PackId, PackTables>> = {
  toolsandbox: TOOLSANDBOX_TABLES,
  tooltalk: TOOLTALK_TABLES,
};

export function packTables(id: PackId): PackTables {
  return TABLES[id];
}

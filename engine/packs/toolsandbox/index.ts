// The ToolSandbox pack: the upstream tools over the four tables, its default world, and the
// execution of a call as upstream's console runs it. The tools are in tools/, the table schemas in
// table-schemas.ts, the default world in default-world.ts; this file presents them as a WorldPack.
import { TOOLSANDBOX_APPS } from "./apps.js";
import { TOOLS, toolByName } from "./tools/catalog.js";
import { executeTool } from "../../tools/execute.js";
import { defaultWorld, uuid5 } from "./default-world.js";
import type { Row, Tables } from "../../world/types.js";
import type { PackRuntime, WorldPack } from "../types.js";
import { TOOLSANDBOX_TABLES } from "./tables.js";

/** ToolSandbox's tools keep no state between calls (ids come from the episode's seeded generator). */
const RUNTIME: PackRuntime = {
  execute: executeTool,
  clone: () => RUNTIME,
};

/** `world.base: empty`: the settings row stays (a device always has settings), every other table is empty. */
function emptyWorld(now: number): Tables {
  const tables: Record<string, readonly Row[]> = {};
  for (const [name, rows] of Object.entries(defaultWorld(now))) tables[name] = TOOLSANDBOX_TABLES.schemas.get(name)?.singleton ? rows : [];
  return tables;
}

export const TOOLSANDBOX_PACK: WorldPack = {
  ...TOOLSANDBOX_TABLES,
  tools: TOOLS,
  apps: TOOLSANDBOX_APPS,
  toolByName,
  defaultWorld,
  emptyWorld,
  createRuntime: () => RUNTIME,
  newRowDefault(table, column, row, ctx) {
    // Upstream derives a contact's person_id from the name; the device owner is the one is_self row.
    if (table.name === "CONTACT" && column.name === "person_id") return typeof row.name === "string" ? uuid5(row.name) : undefined;
    if (column.name === "creation_timestamp") return ctx.now;
    if (column.name === "is_self") return false;
    return undefined;
  },
};

// The ToolTalk pack (Farn and Shin, 2023): its 28 tools over the tables of its eight databases with
// the login session, plus the simulated user's end_conversation. ToolTalk's data does not ship:
// the default world is empty, and imported scenarios carry their rows (importer/world-rows.ts).
import { TOOLTALK_APPS } from "./apps.js";
import { USER_TOOLS } from "../../tools/user-tools.js";
import type { ToolDefinition } from "../../tools/types.js";
import type { WorldPack } from "../types.js";
import { TOOLTALK_APIS } from "./tools/apis.js";
import { defaultWorld, emptyWorld } from "./databases.js";
import { ToolTalkRuntime } from "./tools/runtime.js";
import { TOOLTALK_TABLES } from "./tables.js";

export { requiresAuth } from "./tools/apis.js";
export { withConversationUser, type ConversationUser } from "./databases.js";
export { ToolTalkRuntime, firstNewIds, runToolTalkCall, type ToolTalkCallRecord } from "./tools/runtime.js";

const TOOLS: readonly ToolDefinition[] = [...TOOLTALK_APIS.map((api) => api.definition), ...USER_TOOLS];
const BY_NAME: ReadonlyMap<string, ToolDefinition> = new Map(TOOLS.map((t) => [t.name, t]));

export const TOOLTALK_PACK: WorldPack = {
  ...TOOLTALK_TABLES,
  tools: TOOLS,
  apps: TOOLTALK_APPS,
  toolByName: (name) => BY_NAME.get(name),
  defaultWorld,
  emptyWorld,
  createRuntime: () => ToolTalkRuntime.fresh(),
};

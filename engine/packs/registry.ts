// The world packs a scenario may choose (`world.pack`), by id.
import { TOOLSANDBOX_PACK } from "./toolsandbox/index.js";
import { TOOLTALK_PACK } from "./tooltalk/index.js";
import type { PackId, WorldPack } from "./types.js";

const BY_ID: Readonly<Record<PackId, WorldPack>> = {
  toolsandbox: TOOLSANDBOX_PACK,
  tooltalk: TOOLTALK_PACK,
};

/** Every pack, ToolSandbox first. */
export const PACKS: readonly WorldPack[] = Object.values(BY_ID);

export function packById(id: PackId): WorldPack {
  return BY_ID[id];
}

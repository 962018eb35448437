// The packs tool creation knows: their case specs and the app of each tool. ToolSandbox's only,
// for now: ToolTalk's tools keep session state in the pack runtime, which the Python contract
// (a world dict in, a result out) does not carry yet.
import { appOf } from "../../../scenario/apps.js";
import { TOOLSANDBOX_PACK } from "../../../packs/toolsandbox/index.js";
import type { ToolDefinition } from "../../../tools/types.js";
import type { CaseWorld, ToolCaseSpecs } from "./cases.js";
import { TOOLSANDBOX_CASES } from "./toolsandbox-cases.js";

export interface CreationPack {
  readonly id: string;
  readonly world: CaseWorld;
  readonly specs: readonly ToolCaseSpecs[];
  readonly toolByName: (name: string) => ToolDefinition | undefined;
  readonly appOf: (tool: ToolDefinition) => string;
}

export const CREATION_PACKS: ReadonlyMap<string, CreationPack> = new Map([
  [
    "toolsandbox",
    {
      id: "toolsandbox",
      world: TOOLSANDBOX_PACK,
      specs: TOOLSANDBOX_CASES,
      toolByName: (name: string) => TOOLSANDBOX_PACK.toolByName(name),
      appOf: (tool: ToolDefinition) => appOf(TOOLSANDBOX_PACK, tool.name) ?? "Other",
    },
  ],
]);

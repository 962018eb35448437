// Shared set-up for the tool tests: the default world at a fixed clock, no web data, counting uuids.
import type { JsonValue } from "../../engine/base/json.js";
import { executeTool, type ToolOutcome } from "../../engine/tools/execute.js";
import type { ToolContext, ToolDefinition } from "../../engine/tools/types.js";
import { defaultWorld, uuid5 } from "../../engine/packs/toolsandbox/default-world.js";
import { TOOLSANDBOX_SCHEMAS } from "../../engine/packs/toolsandbox/table-schemas.js";
import { WorldTransaction } from "../../engine/world/transaction.js";
import type { CellValue, Row, Tables } from "../../engine/world/types.js";

export const NOW = 1763719200;

export const IDS = {
  tomas: uuid5("Tomas Haake"),
  fredrik: uuid5("Fredrik Thordendal"),
  john: uuid5("John Petrucci"),
  homer: uuid5("Homer S"),
  reminder0: uuid5("reminder_0"),
  reminder1: uuid5("reminder_1"),
  reminder2: uuid5("reminder_2"),
} as const;

/** The n-th uuid4 the test context hands out (1-based). */
export const uuidN = (n: number): string => `00000000-0000-4000-8000-${String(n).padStart(12, "0")}`;

export function makeContext(tables: Tables = defaultWorld(NOW)): ToolContext & { readonly world: WorldTransaction } {
  let issued = 0;
  return {
    world: new WorldTransaction(tables, TOOLSANDBOX_SCHEMAS),
    clock: { now: NOW, timezone: "America/Los_Angeles" },
    web: { places: [], weather: [], stocks: [], exchange_rates: { base: "USD", rates: {} } },
    uuid4: () => uuidN(++issued),
  };
}

/** The default world with some SETTING columns changed. */
export function worldWithSettings(patch: Readonly<Record<string, CellValue>>): Tables {
  const base = defaultWorld(NOW);
  const setting = base.SETTING?.[0];
  if (!setting) throw new Error("default world has no SETTING row");
  return { ...base, SETTING: [{ ...setting, ...patch }] };
}

/** The default world with one table replaced. */
export function worldWithTable(table: string, rows: readonly Row[]): Tables {
  return { ...defaultWorld(NOW), [table]: rows };
}

export function findTool(tools: readonly ToolDefinition[], name: string): ToolDefinition {
  const def = tools.find((t) => t.name === name);
  if (!def) throw new Error(`no tool ${name}`);
  return def;
}

/** Runs a tool by name from `tools` against `ctx`. */
export function call(
  tools: readonly ToolDefinition[],
  name: string,
  args: Readonly<Record<string, JsonValue>>,
  ctx: ToolContext,
): ToolOutcome {
  return executeTool(findTool(tools, name), args, ctx);
}

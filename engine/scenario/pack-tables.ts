// The world pack a scenario chooses (`world.pack`) and the table names written against it: world
// sections, constraint tables and guardrail lists name the pack's tables, so they are checked here
// rather than by the JSON Schema (which cannot know the pack).
import { packById } from "../packs/registry.js";
import { packTables } from "../packs/tables.js";
import { DEFAULT_PACK_ID, isPackId, PACK_IDS, type PackId, type WorldPack } from "../packs/types.js";
import type { TableSchema } from "../world/types.js";
import type { CheckContext } from "./check-context.js";
import { obj } from "./raw.js";
import { closestMatch, didYouMean } from "./suggest.js";
import type { Path } from "./yaml-source.js";

/** The message bus as a table constraints may target; never a world table. */
export const SANDBOX = "SANDBOX";

/** The pack `world.pack` names; an unknown id (which the schema reports) falls back to the default. */
export function resolvePack(world: unknown): WorldPack {
  const id = obj(world)?.pack;
  return packById(isPackId(id) ? id : DEFAULT_PACK_ID);
}

/** How a table name is written: capitals, digits and underscores (the schema's pattern). */
const TABLE_NAME = /^[A-Z][A-Z0-9_]*$/;

/** What to tell an author about a table name the pack lacks: the closest table, or the pack that has it. */
function tableHint(pack: WorldPack, name: string, sandbox: boolean): { suggestion: string | null; elsewhere: PackId | undefined } {
  const suggestion = closestMatch(name, [...pack.schemas.keys(), ...(sandbox ? [SANDBOX] : [])]);
  const upper = name.toUpperCase();
  const elsewhere = suggestion === null ? PACK_IDS.find((id) => id !== pack.id && packTables(id).schemas.has(upper)) : undefined;
  return { suggestion, elsewhere };
}

/** True when `name` (written in lower case, say) is best explained as a misspelt table rather than an unknown key. */
export function looksLikeTable(pack: WorldPack, name: string): boolean {
  const { suggestion, elsewhere } = tableHint(pack, name, false);
  return TABLE_NAME.test(name) || suggestion !== null || elsewhere !== undefined;
}

/**
 * The world table `name` of the scenario's pack, or null after reporting it as unknown at `path`
 * (with the closest name, or the pack that does have it). `sandbox` admits SANDBOX as a name.
 */
export function lookupTable(
  ctx: CheckContext,
  path: Path,
  name: string,
  options: { sandbox: boolean; anchor?: "key" | "value" },
): TableSchema | typeof SANDBOX | null {
  if (options.sandbox && name === SANDBOX) return SANDBOX;
  const schema = ctx.pack.schemas.get(name);
  if (schema) return schema;
  const anchor = options.anchor ?? "value";
  if (name === SANDBOX) {
    ctx.reporter.report(
      path,
      "sandbox-not-world",
      "SANDBOX is the message bus, not a world table: only snapshot and tool_trace_extract constraints compare it.",
      { anchor },
    );
    return null;
  }
  const { suggestion, elsewhere } = tableHint(ctx.pack, name, options.sandbox);
  const upper = name.toUpperCase();
  const hint =
    suggestion !== null
      ? didYouMean(suggestion)
      : elsewhere !== undefined
        ? ` ${upper} is a table of the ${elsewhere} pack; set \`world.pack: ${elsewhere}\` to use it.`
        : "";
  ctx.reporter.report(path, "unknown-table", `The ${ctx.pack.id} world has no table "${name}".${hint}`, {
    anchor,
    data: suggestion === null ? undefined : { suggestion },
  });
  return null;
}

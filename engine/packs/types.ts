// A world pack: the tables a scenario's world is made of, the tools that act on them, and how a
// call's outcome is shown to the agent. A scenario chooses its pack (`world.pack`); nothing outside
// a pack may assume one pack's tables or tools. Two packs exist: ToolSandbox's and ToolTalk's.
//
// Table schemas live apart from the tools (`PackTables`) so light consumers (the webview, the
// trajectory reader) can know a pack's keys and column types without bundling its tools or data.
import type { JsonValue } from "../base/json.js";
import type { ToolContext, ToolDefinition } from "../tools/types.js";
import type { ToolOutcome } from "../tools/execute.js";
import type { CellValue, ColumnSchema, TableSchema, Tables } from "../world/types.js";

export const PACK_IDS = ["toolsandbox", "tooltalk"] as const;
export type PackId = (typeof PACK_IDS)[number];

/** The pack a scenario without `world.pack` uses. */
export const DEFAULT_PACK_ID: PackId = "toolsandbox";

export function isPackId(value: unknown): value is PackId {
  return PACK_IDS.some((id) => id === value);
}

/**
 * Where the language server finds values for a column or argument by its name: the ids of a table
 * labelled for people ("Homer S" next to a person_id). `suffix` matches every name ending in it
 * (sender_person_id); `exact` matches one name, and only outside other tables (an argument, or a
 * column of `table` itself). `only` narrows an exact name to the tables and tools listed, for a
 * name whose values depend on where it is (ToolTalk's `sender`: an address in the inbox, a
 * username among messages).
 */
export interface ValueSource {
  readonly match: { readonly suffix: string } | { readonly exact: string; readonly only?: readonly string[] };
  readonly table: string;
  readonly column: string;
  /** The column shown next to each value. */
  readonly label?: string;
}

/** What a pack is told when it fills in a column a scenario's new row leaves out. */
export interface NewRowContext {
  readonly scenarioName: string;
  /** The scenario clock's now, POSIX seconds. */
  readonly now: number;
  /** The row's 1-based position among the rows the scenario adds to this table. */
  readonly n: number;
}

/** What every consumer may know about a pack without loading its tools. */
export interface PackTables {
  readonly id: PackId;
  /** One line for hovers and `tools --json`. */
  readonly title: string;
  /** World tables in display order. SANDBOX (the message bus) is never among them. */
  readonly schemas: ReadonlyMap<string, TableSchema>;
  /** Value completion sources; absent = each table's key column, unlabelled. */
  readonly valueSources?: readonly ValueSource[];
}

/** Per-episode mutable state of a pack's tools (generators, caches). Cloned per parallel ordering. */
export interface PackRuntime {
  /**
   * Runs one call whose tool exists and is callable. Argument binding and type checks, the rendering
   * of results and errors as the agent sees them, and any pack rule (ToolTalk: the login session,
   * the injected session token) happen here.
   */
  execute(tool: ToolDefinition, args: Readonly<Record<string, JsonValue>>, ctx: ToolContext): ToolOutcome;
  /** An independent copy, so each ordering of parallel calls starts from the same state. */
  clone(): PackRuntime;
}

/** A group of a pack's tools, as the apps of a phone group them (DialogTool's apps). */
export interface PackApp {
  readonly name: string;
  /** One line on what the app is for: what an agent choosing the app first (hierarchical selection) is shown. */
  readonly description: string;
  readonly tools: readonly string[];
  /**
   * The app's transactional tools (DialogTool): those that change something the user cares about
   * or send something on the user's behalf, which an agent must confirm with the user before
   * calling. A subset of `tools`.
   */
  readonly transactional: readonly string[];
}

export interface WorldPack extends PackTables {
  /**
   * Every tool of the pack in the order agents see them. It includes `end_conversation`, visible
   * to the user only: the user simulator ends every episode with it, whatever the pack.
   */
  readonly tools: readonly ToolDefinition[];
  toolByName(name: string): ToolDefinition | undefined;
  /** The agent's tools grouped into apps; every agent tool is in exactly one. */
  readonly apps: readonly PackApp[];
  /** The world a scenario starts from before its own changes (`world.base: default`). */
  defaultWorld(now: number): Tables;
  /** The smallest valid world (`world.base: empty`). */
  emptyWorld(now: number): Tables;
  /** A fresh runtime for one episode. */
  createRuntime(): PackRuntime;
  /**
   * A default for `column` of a row a scenario adds without it (ToolSandbox: a contact's person_id
   * from its name). Undefined falls back to the generic rule: a string key column gets a uuid5 of
   * the scenario name, table and position; a nullable column null; anything else must be given.
   */
  newRowDefault?(
    table: TableSchema,
    column: ColumnSchema,
    row: Readonly<Record<string, CellValue>>,
    ctx: NewRowContext,
  ): CellValue | undefined;
}

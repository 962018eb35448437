// A world pack: the tables a scenario's world is made of, the tools that act on them, and how a
// call's outcome is shown to the agent. A scenario chooses its pack (`world.pack`); nothing outside
// a pack may assume one pack's tables or tools. Two packs exist: ToolSandbox's and ToolTalk's.
//
// Table schemas live apart from the tools (`PackTables`) so light consumers (the webview, the
// trajectory reader) can know a pack's keys and column types without bundling its tools or data.
import type { JsonValue } from "../json.js";
import type { ToolContext, ToolDefinition } from "../tools/types.js";
import type { ToolOutcome } from "../tools/execute.js";
import type { TableSchema, Tables } from "../world/types.js";

export const PACK_IDS = ["toolsandbox", "tooltalk"] as const;
export type PackId = (typeof PACK_IDS)[number];

/** What every consumer may know about a pack without loading its tools. */
export interface PackTables {
  readonly id: PackId;
  /** One line for hovers and `tools --json`. */
  readonly title: string;
  /** World tables in display order. SANDBOX (the message bus) is never among them. */
  readonly schemas: ReadonlyMap<string, TableSchema>;
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

export interface WorldPack extends PackTables {
  /** Every tool of the pack in the order agents see them. */
  readonly tools: readonly ToolDefinition[];
  toolByName(name: string): ToolDefinition | undefined;
  /** The world a scenario starts from before its own changes (`world.base: default`). */
  defaultWorld(now: number): Tables;
  /** The smallest valid world (`world.base: empty`). */
  emptyWorld(now: number): Tables;
  /** A fresh runtime for one episode. */
  createRuntime(): PackRuntime;
}

// Test cases of a tool, with their expected outcomes computed by our own implementation of it (the
// engine is the oracle). A case is a call and the world it starts from; the Python contract the
// model writes to (docs/dialogtool.md, "Tool creation"):
//
//   def <tool>(world, **arguments)
//
// `world` is a dict: each table the tool reads or writes (name -> list of row dicts), `now` (the
// current POSIX time) and `new_ids` (the ids a new row takes, first unused first: pop(0)). The
// function returns the tool's result and changes `world` in place, or raises. A pack whose session
// lives in a table (ToolTalk's SESSION: who is logged in) passes it as one of the tables.
import type { JsonObject, JsonValue } from "../../../base/json.js";
import type { PackRuntime } from "../../../packs/types.js";
import type { ToolDefinition } from "../../../tools/types.js";
import { cellJson } from "../../../world/cells.js";
import { WorldTransaction } from "../../../world/transaction.js";
import type { Row, TableSchema, Tables } from "../../../world/types.js";
import { DEFAULT_WEB_DATA } from "../../../tools/default-web-data.js";

/** What kind of case it is: an ordinary call, an odd input, or a call whose outcome hangs on the world. */
export type CaseKind = "valid" | "edge" | "state";

/** A case as written: its call, and how its world differs from the pack's default world. */
export interface CaseSpec {
  readonly label: string;
  readonly kind: CaseKind;
  readonly arguments: { readonly [name: string]: JsonValue };
  /** Changes the default world's tables (a copy) before the call. */
  readonly world?: (tables: Record<string, Row[]>) => void;
}

export interface ToolCaseSpecs {
  readonly tool: string;
  /** The tables the tool reads or writes: the ones its world holds. */
  readonly tables: readonly string[];
  readonly cases: readonly CaseSpec[];
}

export type Expected =
  | { readonly kind: "returned"; readonly result: JsonValue; readonly world: JsonObject }
  /** `exception` is the class name Python code should raise: the last dotted part of ours. */
  | { readonly kind: "raised"; readonly exception: string; readonly message: string };

export interface ToolCase {
  readonly id: string;
  readonly label: string;
  readonly kind: CaseKind;
  readonly arguments: { readonly [name: string]: JsonValue };
  readonly world: JsonObject;
  readonly expected: Expected;
}

/** The fixed clock and ids of every case: the same cases, byte for byte, on every run. */
const CASE_NOW = 1_717_200_000;
const CASE_TIMEZONE = "UTC";
export const CASE_NEW_IDS: readonly string[] = [1, 2, 3].map((n) => `00000000-0000-4000-8000-00000000000${n}`);

export interface CaseWorld {
  readonly defaultWorld: (now: number) => Tables;
  readonly schemas: ReadonlyMap<string, TableSchema>;
  /** The pack's runtime: every case runs through a fresh one, the call path of an episode. */
  readonly createRuntime: () => PackRuntime;
  /**
   * For a pack whose runtime draws the ids of new items itself (ToolTalk: one generator per tool):
   * the first `count` ids the tool draws in a fresh runtime, [] for a tool that makes none. A call
   * that returns took the first. Absent: the ids are CASE_NEW_IDS, handed out as the call asks.
   */
  readonly toolIds?: (tool: string, count: number) => readonly string[];
}

function worldJson(tables: Tables, names: readonly string[], newIds: readonly string[]): JsonObject {
  const out: Record<string, JsonValue> = {};
  for (const name of names)
    out[name] = (tables[name] ?? []).map((row) => Object.fromEntries(Object.entries(row).map(([k, v]) => [k, cellJson(v)])));
  out.now = CASE_NOW;
  out.new_ids = [...newIds];
  return out;
}

/** Python's class name for one of our error types ("polars.exceptions.NoDataError" -> "NoDataError"). */
export const exceptionClass = (pyType: string): string => pyType.split(".").pop() ?? pyType;

/** Runs our implementation on each case and keeps what it did as the expected outcome. */
export function generateCases(tool: ToolDefinition, specs: ToolCaseSpecs, world: CaseWorld): ToolCase[] {
  const drawn = world.toolIds?.(tool.name, CASE_NEW_IDS.length);
  const newIds = drawn ?? CASE_NEW_IDS;
  return specs.cases.map((spec, index) => {
    const tables: Record<string, Row[]> = {};
    for (const [name, rows] of Object.entries(world.defaultWorld(CASE_NOW))) tables[name] = rows.map((r) => ({ ...r }));
    spec.world?.(tables);
    const ids = [...newIds];
    const tx = new WorldTransaction(tables, world.schemas);
    const outcome = world.createRuntime().execute(tool, spec.arguments, {
      world: tx,
      clock: { now: CASE_NOW, timezone: CASE_TIMEZONE },
      web: DEFAULT_WEB_DATA,
      uuid4: () => {
        const id = ids.shift();
        if (id === undefined) throw new Error(`case "${spec.label}" of ${tool.name} needs more than ${CASE_NEW_IDS.length} new ids`);
        return id;
      },
    });
    // Where the runtime draws its own ids, a call that returned took the first one (if the tool makes any).
    if (drawn !== undefined && outcome.ok) ids.shift();
    const expected: Expected = outcome.ok
      ? { kind: "returned", result: outcome.result, world: worldJson(tx.tables(), specs.tables, ids) }
      : { kind: "raised", exception: exceptionClass(outcome.error.pyType), message: outcome.error.message };
    return {
      id: `${tool.name}-${index + 1}`,
      label: spec.label,
      kind: spec.kind,
      arguments: spec.arguments,
      world: worldJson(tables, specs.tables, newIds),
      expected,
    };
  });
}

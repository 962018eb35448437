// ToolTalk's per-user collections (`database[username][item_id]`) over flat rows. Two things a flat
// table cannot show are kept beside it, per episode:
// - whether a user's collection exists while empty. ToolTalk never removes a user's key once it
//   exists, and several tools answer differently for "no collection" and "empty collection"
//   (QueryCalendar: "User … has no events." vs an empty list; CompleteReminder: KeyError vs "not
//   found"). A collection exists if the user has rows, or had one deleted, or AddReminder created it.
// - which events CreateEvent wrote: it builds the event with its keys in another order than the
//   database's, and QueryCalendar returns the stored dict, so the text the model reads differs.
import type { JsonValue } from "../../../base/json.js";
import type { CellValue, Row } from "../../../world/types.js";
import type { WorldTransaction } from "../../../world/transaction.js";
import { pyEquals, requireHashable, type PyValue } from "./python-semantics.js";

/** One identity for keys Python's dict treats as the same (1 == 1.0 == True). */
function identity(value: PyValue): string {
  if (typeof value === "number" || typeof value === "boolean") return `n:${Number(value)}`;
  return `s:${JSON.stringify(value)}`;
}

export class CollectionState {
  private constructor(
    private readonly emptied: Map<string, Set<string>>,
    private readonly created: Set<string>,
  ) {}

  static fresh(): CollectionState {
    return new CollectionState(new Map(), new Set());
  }

  clone(): CollectionState {
    return new CollectionState(new Map([...this.emptied].map(([table, owners]) => [table, new Set(owners)])), new Set(this.created));
  }

  /** The user's collection exists even if every row of it is gone. */
  keep(table: string, owner: PyValue): void {
    let owners = this.emptied.get(table);
    if (!owners) this.emptied.set(table, (owners = new Set()));
    owners.add(identity(owner));
  }

  /** `username in database`. */
  exists(world: WorldTransaction, table: string, owner: PyValue): boolean {
    return world.rows(table).some((r) => pyEquals(r.username, owner)) || (this.emptied.get(table)?.has(identity(owner)) ?? false);
  }

  markCreated(owner: PyValue, id: PyValue, created: boolean): void {
    const key = `${identity(owner)}\u0000${identity(id)}`;
    if (created) this.created.add(key);
    else this.created.delete(key);
  }

  wasCreated(owner: PyValue, id: PyValue): boolean {
    return this.created.has(`${identity(owner)}\u0000${identity(id)}`);
  }
}

/** The user's items in order (Python: `database[username].values()`). */
export function ownedRows(world: WorldTransaction, table: string, owner: PyValue): Row[] {
  return world.rows(table).filter((r) => pyEquals(r.username, owner));
}

/** Position of `database[username][id]`, or -1. The id must be hashable, as a dict key. */
export function findItem(world: WorldTransaction, table: string, idColumn: string, owner: PyValue, id: PyValue): number {
  requireHashable(id);
  return world.rows(table).findIndex((r) => pyEquals(r.username, owner) && pyEquals(r[idColumn], id));
}

/**
 * `database[username][id] = item`: an existing id keeps its place and gets the new item (ToolTalk's
 * generated ids can repeat ones already stored), a new one goes after everything else.
 */
export function putItem(world: WorldTransaction, table: string, idColumn: string, row: Row): void {
  const position = findItem(world, table, idColumn, row.username ?? null, row[idColumn] ?? null);
  if (position < 0) world.insert(table, row);
  else world.updateAt(table, position, row);
}

/** `del database[username][id]` for an item known to exist; its owner's collection stays. */
export function deleteItem(world: WorldTransaction, collections: CollectionState, table: string, position: number): void {
  const removed = world.deleteAt(table, position);
  collections.keep(table, removed.username ?? null);
}

/**
 * A value a tool stores, as a cell. ToolTalk stores whatever the model sent; scalars and lists of
 * strings are kept as they are, anything else (a dict where a string belongs) as its JSON text.
 */
export function toCell(value: PyValue): CellValue {
  if (value === null || typeof value !== "object") return value;
  if (Array.isArray(value) && value.every((item) => typeof item === "string")) return value as readonly string[];
  return JSON.stringify(value);
}

/** A cell as part of a response (lists copied, so a response never aliases the world). */
export function cellJson(value: CellValue | undefined): JsonValue {
  if (value === undefined) return null;
  return Array.isArray(value) ? [...value] : (value as JsonValue);
}

// What a ground-truth call did to the world, as the constraint a milestone can check: the rows it
// added, removed or changed, from the tables it touched as they were before and after it ran.
// Only values the call determines go into a target, so a milestone never depends on a value the
// tools generate at random:
//
// - added rows: every column but a generated key (a new alarm, event or reminder id) and the
//   login secrets (session token, verification code); null columns are left out, since ToolTalk
//   only checks the arguments the ground truth gives;
// - removed rows: the key, and the owner (alarm ids repeat across users);
// - changed rows: the key, the owner, and the columns that changed, secrets excepted;
// - singleton tables (SESSION): the new values of the columns that changed, as a snapshot.
//
// A call whose changes cancel out (an update that sets what was there) has no effect. A call whose
// changes to one table are of two kinds (a row added, another removed) has one effect per kind.
import type { JsonObject, JsonValue } from "../../../base/json.js";
import type { CellValue, Row, RowChange, TableSchema, Tables } from "../../../world/types.js";

/** A change to one table, as the constraint kind that checks it (a singleton table: its snapshot). */
export interface TableEffect {
  readonly kind: "addition" | "removal" | "update" | "snapshot";
  readonly table: string;
  readonly rows: readonly Row[];
}

/** Columns whose values a tool generates: a target never names them. */
const SECRETS: Readonly<Record<string, readonly string[]>> = {
  ACCOUNT: ["session_token", "verification_code"],
  SESSION: ["session_token"],
};

const OWNER = "username";

function sameCell(a: CellValue | undefined, b: CellValue | undefined): boolean {
  return JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
}

function argumentStrings(args: JsonObject): Set<string> {
  const out = new Set<string>();
  const add = (value: JsonValue): void => {
    if (typeof value === "string") out.add(value);
    else if (Array.isArray(value)) value.forEach(add);
  };
  Object.values(args).forEach(add);
  return out;
}

function pick(row: Row, columns: readonly string[]): Row {
  return Object.fromEntries(columns.filter((c) => c in row).map((c) => [c, row[c] ?? null]));
}

function identity(schema: TableSchema): string[] {
  const owner = schema.columns.some((c) => c.name === OWNER) && schema.key !== OWNER ? [OWNER] : [];
  return [...owner, schema.key];
}

function addedRow(row: Row, schema: TableSchema, args: JsonObject): Row {
  const secrets = SECRETS[schema.name] ?? [];
  const given = argumentStrings(args);
  const columns = schema.columns
    .map((c) => c.name)
    .filter((name) => !secrets.includes(name))
    .filter((name) => row[name] !== null && row[name] !== undefined)
    .filter((name) => name !== schema.key || (typeof row[name] === "string" && given.has(row[name])));
  return pick(row, columns);
}

function changedRow(before: Row, after: Row, schema: TableSchema): Row | null {
  const secrets = SECRETS[schema.name] ?? [];
  const changed = schema.columns.map((c) => c.name).filter((name) => !sameCell(before[name], after[name]));
  if (changed.length === 0) return null;
  return pick(after, [...identity(schema), ...changed.filter((name) => !secrets.includes(name) && !identity(schema).includes(name))]);
}

function identityKey(row: Row, schema: TableSchema): string {
  return JSON.stringify(identity(schema).map((column) => row[column] ?? null));
}

/**
 * The effects of one call: the net difference between each table it touched before and after the
 * call, rows paired by identity (owner and key), so a row changed field by field is one changed row
 * and a row whose id was overwritten by a new item is a change, not an addition. Tables are
 * reported in the order of their first change.
 */
export function callEffects(
  changes: readonly RowChange[],
  before: Tables,
  after: Tables,
  schemas: ReadonlyMap<string, TableSchema>,
  args: JsonObject,
): TableEffect[] {
  const effects: TableEffect[] = [];
  const tables = [...new Set(changes.map((c) => c.table))];
  for (const table of tables) {
    const schema = schemas.get(table);
    if (!schema) continue;
    const old = before[table] ?? [];
    const now = after[table] ?? [];
    if (schema.singleton) {
      const secrets = SECRETS[schema.name] ?? [];
      const was: Row = old[0] ?? {};
      const is: Row = now[0] ?? {};
      const changed = schema.columns.map((c) => c.name).filter((n) => !sameCell(was[n], is[n]) && !secrets.includes(n));
      if (changed.length > 0) effects.push({ kind: "snapshot", table, rows: [pick(is, changed)] });
      continue;
    }
    // Rows of the same identity are paired in order; what is left over was added or removed.
    const waiting = new Map<string, Row[]>();
    for (const row of old) waiting.set(identityKey(row, schema), [...(waiting.get(identityKey(row, schema)) ?? []), row]);
    const added: Row[] = [];
    const updated: Row[] = [];
    for (const row of now) {
      const previous = waiting.get(identityKey(row, schema))?.shift();
      if (previous === undefined) added.push(addedRow(row, schema, args));
      else {
        const changed = changedRow(previous, row, schema);
        if (changed !== null) updated.push(changed);
      }
    }
    const removed = [...waiting.values()].flat().map((row) => pick(row, identity(schema)));
    if (added.length > 0) effects.push({ kind: "addition", table, rows: added });
    if (removed.length > 0) effects.push({ kind: "removal", table, rows: removed });
    if (updated.length > 0) effects.push({ kind: "update", table, rows: updated });
  }
  return effects;
}

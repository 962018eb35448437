// ToolTalk's eight databases as world rows, checked as they are read. Each database is a JSON object
// keyed by username (weather: by place); every item becomes one row carrying its owner, in the
// files' own order, user by user and item by item. The databases are not part of this repository:
// database-files.ts reads them from the user's copy of ToolTalk's data, and the importer inlines
// the rows each conversation needs into its scenario.
import type { CellValue, ColumnSchema, Row, TableSchema, Tables } from "../../world/types.js";
import { ACCOUNT, ALARM, CALENDAR, EMAIL, HISTORIC_WEATHER, MESSAGE, REMINDER, SESSION, TOOLTALK_TABLE_LIST, WEATHER } from "./tables.js";

/** The SESSION row when nobody is logged in. */
export const NO_SESSION: Row = { username: null, session_token: null };

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function fail(file: string, path: readonly string[], problem: string): never {
  throw new Error(`${file}: ${path.join(" > ")}: ${problem}`);
}

/** A cell of the column's type; a missing nullable field is null. */
function cell(file: string, path: readonly string[], column: ColumnSchema, value: unknown): CellValue {
  if (value === undefined || value === null) {
    if (column.nullable) return null;
    fail(file, path, `${column.name} is missing`);
  }
  const ok =
    column.type === "string"
      ? typeof value === "string"
      : column.type === "int"
        ? Number.isInteger(value)
        : column.type === "float"
          ? typeof value === "number"
          : column.type === "bool"
            ? typeof value === "boolean"
            : Array.isArray(value) && value.every((item) => typeof item === "string");
  if (!ok)
    fail(
      file,
      path,
      `${column.name} should be ${column.type === "string_list" ? "a list of strings" : `a ${column.type}`}, got ${JSON.stringify(value)}`,
    );
  return value as CellValue;
}

/**
 * One item as a row. `given` holds the values that come from the keys above the item (its owner,
 * the item's own key); every other column is read from the item, and no field may be unknown.
 */
function row(file: string, path: readonly string[], schema: TableSchema, item: unknown, given: Readonly<Record<string, string>>): Row {
  if (!isObject(item)) fail(file, path, "expected an object");
  const known = new Set(schema.columns.map((c) => c.name));
  const extra = Object.keys(item).find((k) => !known.has(k) || (k in given && item[k] !== given[k]));
  if (extra !== undefined)
    fail(file, path, extra in given ? `${extra} differs from its key ${JSON.stringify(given[extra])}` : `unknown field ${extra}`);
  const out: Record<string, CellValue> = {};
  for (const column of schema.columns)
    out[column.name] = column.name in given ? given[column.name]! : cell(file, path, column, item[column.name]);
  return out;
}

function entries(file: string, path: readonly string[], value: unknown): [string, unknown][] {
  if (!isObject(value)) fail(file, path, "expected an object");
  return Object.entries(value);
}

/** username -> { item id -> item } into rows; the id field must repeat its key. */
function ownedItems(file: string, db: unknown, schema: TableSchema, idColumn: string): Row[] {
  return entries(file, [], db).flatMap(([owner, items]) =>
    entries(file, [owner], items).map(([id, item]) => row(file, [owner, id], schema, item, { username: owner, [idColumn]: id })),
  );
}

/** place -> { date or month -> figures }; the key column is `keyColumn`. */
function placeItems(file: string, db: unknown, schema: TableSchema, keyColumn: string): Row[] {
  return entries(file, [], db).flatMap(([place, items]) =>
    entries(file, [place], items).map(([key, item]) => row(file, [place, key], schema, item, { location: place, [keyColumn]: key })),
  );
}

/** The eight databases as ToolTalk names them (their file names without ".json"). */
export interface DatabaseSources {
  readonly Account: unknown;
  readonly Alarm: unknown;
  readonly Calendar: unknown;
  readonly Email: unknown;
  readonly Message: unknown;
  readonly Reminder: unknown;
  readonly Weather: unknown;
  readonly HistoricWeather: unknown;
}

/**
 * Every database as rows, plus the empty session; a database of the wrong shape is an Error naming
 * the file (under `folder`) and the item.
 */
export function databaseTables(db: DatabaseSources, folder: string): Tables {
  const at = (name: string): string => `${folder}/${name}`;
  return {
    [ACCOUNT.name]: entries(at("Account.json"), [], db.Account).map(([username, item]) =>
      row(at("Account.json"), [username], ACCOUNT, item, { username }),
    ),
    [SESSION.name]: [NO_SESSION],
    [ALARM.name]: ownedItems(at("Alarm.json"), db.Alarm, ALARM, "alarm_id"),
    [CALENDAR.name]: ownedItems(at("Calendar.json"), db.Calendar, CALENDAR, "event_id"),
    [EMAIL.name]: ownedItems(at("Email.json"), db.Email, EMAIL, "email_id"),
    [MESSAGE.name]: ownedItems(at("Message.json"), db.Message, MESSAGE, "message_id"),
    [REMINDER.name]: ownedItems(at("Reminder.json"), db.Reminder, REMINDER, "reminder_id"),
    [WEATHER.name]: placeItems(at("Weather.json"), db.Weather, WEATHER, "date"),
    [HISTORIC_WEATHER.name]: placeItems(at("HistoricWeather.json"), db.HistoricWeather, HISTORIC_WEATHER, "month"),
  };
}

/**
 * `world.base: default`. ToolTalk's data does not ship with this package, so a ToolTalk world has
 * no default rows: it is the empty world, nobody logged in. Imported scenarios write their rows.
 */
export function defaultWorld(now: number): Tables {
  return emptyWorld(now);
}

/** `world.base: empty`: no data at all, nobody logged in. */
export function emptyWorld(_now: number): Tables {
  return Object.fromEntries(TOOLTALK_TABLE_LIST.map((t) => [t.name, t.name === SESSION.name ? [NO_SESSION] : []]));
}

/** The `user` block of a ToolTalk conversation: who the user is, and whether they start logged in. */
export interface ConversationUser {
  readonly username: string;
  readonly session_token?: string;
  readonly verification_code?: string;
}

/**
 * The world at the start of a conversation (ToolTalk's init_conversation_state): a user with a
 * session_token starts logged in with it, and a verification_code is already stored.
 */
export function withConversationUser(tables: Tables, user: ConversationUser): Tables {
  const patch: Record<string, CellValue> = {};
  if (user.session_token !== undefined) patch.session_token = user.session_token;
  if (user.verification_code !== undefined) patch.verification_code = user.verification_code;
  if (Object.keys(patch).length === 0) return tables;
  const accounts = tables[ACCOUNT.name] ?? [];
  const position = accounts.findIndex((r) => r.username === user.username);
  if (position < 0) throw new Error(`the conversation's user ${user.username} has no account in the ACCOUNT table`);
  const updated = accounts.map((r, i) => (i === position ? { ...r, ...patch } : r));
  const session =
    user.session_token === undefined ? tables[SESSION.name] : [{ username: user.username, session_token: user.session_token }];
  return { ...tables, [ACCOUNT.name]: updated, [SESSION.name]: session ?? [NO_SESSION] };
}

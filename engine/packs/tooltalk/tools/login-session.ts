// The login session: ToolTalk's executor keeps one session token and hands it to every tool that
// needs a login; the tools find the account by that token. Here the token lives in the SESSION
// row, so the world shows who is logged in.
import type { WorldTransaction } from "../../../world/transaction.js";
import type { CellValue, Row } from "../../../world/types.js";
import { apiException } from "./api.js";
import { pyEquals, requireHashable, type PyValue } from "./python-semantics.js";
import { ACCOUNT, SESSION } from "../tables.js";

export interface AccountRef {
  readonly position: number;
  readonly row: Row;
}

/** The logged-in user's token, or null when nobody is logged in. */
export function currentToken(world: WorldTransaction): CellValue {
  return world.rows(SESSION.name)[0]?.session_token ?? null;
}

/** Records who is logged in (both null: nobody). */
export function setSession(world: WorldTransaction, username: CellValue, token: CellValue): void {
  const row: Row = { username, session_token: token };
  if (world.rows(SESSION.name).length === 0) world.insert(SESSION.name, row);
  else world.updateAt(SESSION.name, 0, row);
}

/** ToolTalk's check_session_token: the first account holding the token. */
export function accountByToken(world: WorldTransaction, token: PyValue): AccountRef {
  const rows = world.rows(ACCOUNT.name);
  const position = rows.findIndex((r) => pyEquals(token, r.session_token));
  if (position < 0) throw apiException("Invalid session_token.");
  return { position, row: rows[position]! };
}

/** `database[username]` of the Account database, or undefined (`username not in database`). */
export function accountByUsername(world: WorldTransaction, username: PyValue): AccountRef | undefined {
  requireHashable(username);
  const rows = world.rows(ACCOUNT.name);
  const position = rows.findIndex((r) => pyEquals(r.username, username));
  return position < 0 ? undefined : { position, row: rows[position]! };
}

/** Changes some fields of an account in place. */
export function updateAccount(world: WorldTransaction, account: AccountRef, patch: Readonly<Record<string, CellValue>>): AccountRef {
  return { position: account.position, row: world.updateAt(ACCOUNT.name, account.position, patch) };
}

// A ToolTalk world, runtime and clock for tests: calls go through the runtime exactly as an episode
// or the ToolTalk evaluation loop sends them. The world is our fixture's databases
// (test/fixtures/tooltalk/databases/, invented rows) unless a test gives its own, and the clock is
// frozen at FIXTURE_NOW, the moment the fixture's conversations take place.
import type { JsonValue } from "../../../engine/base/json.js";
import {
  TOOLTALK_PACK,
  ToolTalkRuntime,
  withConversationUser,
  type ConversationUser,
  type ToolTalkCallRecord,
} from "../../../engine/packs/tooltalk/index.js";
import { WorldTransaction } from "../../../engine/world/transaction.js";
import type { Row, Tables } from "../../../engine/world/types.js";
import { toolTalkDatabases } from "../../fixtures/tooltalk-data.js";

/** The fixture conversations' metadata.timestamp: 2024-03-13, a Wednesday, 08:00. */
export const FIXTURE_NOW = "2024-03-13 08:00:00";

/** POSIX seconds of a "YYYY-MM-DD HH:MM:SS" wall time read in UTC. */
export function utcSeconds(timestamp: string): number {
  return Date.parse(`${timestamp.replace(" ", "T")}Z`) / 1000;
}

export interface Harness {
  readonly world: WorldTransaction;
  readonly runtime: ToolTalkRuntime;
  call(api: string, parameters?: Readonly<Record<string, JsonValue>> | null): ToolTalkCallRecord;
  rows(table: string): readonly Row[];
}

interface HarnessOptions {
  readonly user?: ConversationUser;
  readonly timestamp?: string;
  readonly base?: Tables;
}

/** `user` logged in when it has a session_token, the clock frozen at `timestamp` (UTC, so the wall time is the timestamp itself). */
export function harness(options: HarnessOptions = {}): Harness {
  const now = utcSeconds(options.timestamp ?? FIXTURE_NOW);
  const base = options.base ?? toolTalkDatabases();
  const world = new WorldTransaction(options.user ? withConversationUser(base, options.user) : base, TOOLTALK_PACK.schemas);
  const runtime = ToolTalkRuntime.fresh();
  return {
    world,
    runtime,
    call: (api, parameters = {}) => runtime.call(world, { now, timezone: "UTC" }, api, parameters),
    rows: (table) => world.rows(table),
  };
}

/** A harness with `username` logged in under the token "token-<username>". */
export function loggedIn(username: string, timestamp?: string): Harness {
  return harness({ user: { username, session_token: `token-${username}` }, ...(timestamp ? { timestamp } : {}) });
}

export function ownRows(h: Harness, table: string, username: string): readonly Row[] {
  return h.rows(table).filter((r) => r.username === username);
}

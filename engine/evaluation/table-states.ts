// What the evaluation reads of the episode, table by table: each table's rows at a message, a
// state key equal for two messages exactly when the rows are (world tables change at a few
// messages, so a long run has few states), and the guardrail-equality classes the matcher's gates
// compare. Shared by both node lists of an evaluation (node-scorer.ts scores against it).
import type { Message } from "../episode/types.js";
import type { Row, TableSchema, Tables } from "../world/types.js";
import { constraintSimilarity, sandboxRow } from "./measures/index.js";
import type { GuardrailConstraint, MeasuredRow } from "./measures/types.js";
import { SANDBOX_TABLE } from "./guardrails.js";

/** The episode as the evaluation sees it. */
interface EpisodeView {
  readonly messages: readonly Message[];
  /** The world at message i. Returning the same array for an unchanged table lets scores be shared. */
  readonly worldAt: (index: number) => Tables;
  /** The index the "initial" reference reads: the opening user message. */
  readonly initialIndex: number;
  /** The world tables' schemas in the scenario's pack (SANDBOX is never among them). */
  readonly schemas: ReadonlyMap<string, TableSchema>;
}

const EMPTY: readonly Row[] = [];

/**
 * What constraints on one table see at each message: its rows, and a state key that is equal for
 * two indices exactly when the rows are the same (the message index for SANDBOX; for a world table
 * the earliest index asked about that holds the very same rows array). The matcher asks for
 * hundreds of thousands of (node, index, reference) combinations, so keys are kept in an array.
 */
export class TableStates {
  private readonly keys: Int32Array | null;
  private readonly firstIndexOf = new Map<readonly Row[], number>();
  private readonly messageRows = new Map<number, readonly MeasuredRow[]>();
  private readonly projections = new Map<string, (index: number) => number>();
  /** Guardrail-equality classes: by state key, and one representative's rows per class. */
  private readonly classOfKey = new Map<number, number>();
  private readonly representatives: (readonly MeasuredRow[])[] = [];
  /** The world table's schema; undefined for SANDBOX or a table outside the pack. */
  readonly schema: TableSchema | undefined;

  constructor(
    readonly table: string,
    private readonly episode: EpisodeView,
  ) {
    this.schema = episode.schemas.get(table);
    this.keys = table === SANDBOX_TABLE ? null : new Int32Array(Math.max(1, episode.messages.length)).fill(-1);
  }

  key(index: number): number {
    const keys = this.keys;
    if (keys === null) return index;
    const known = keys[index] ?? -1;
    if (known >= 0) return known;
    const rows = this.episode.worldAt(index)[this.table] ?? EMPTY;
    let key = this.firstIndexOf.get(rows);
    if (key === undefined) this.firstIndexOf.set(rows, (key = index));
    if (index < keys.length) keys[index] = key;
    return key;
  }

  /**
   * A class id equal for two indices exactly when a guardrail comparing the table at one with
   * the table at the other holds. Each new state is compared with one representative per class
   * known so far, by the guardrail measure itself; states are few (a world table changes at a
   * few messages), so this is cheap.
   */
  equalityClass(index: number): number {
    const key = this.key(index);
    let found = this.classOfKey.get(key);
    if (found === undefined) {
      const rows = this.rows(index);
      const guardrail: GuardrailConstraint = { kind: "guardrail", table: this.table, reference: { kind: "initial" } };
      found = this.representatives.findIndex(
        (reference) => constraintSimilarity(guardrail, { current: rows, reference, schema: this.schema }).similarity === 1,
      );
      if (found < 0) found = this.representatives.push(rows) - 1;
      this.classOfKey.set(key, found);
    }
    return found;
  }

  /**
   * For SANDBOX: a class id per message, equal for two messages exactly when their rows hold the
   * same values in `columns` (what a constraint reading only those columns can tell apart).
   * One table of ids per column set, filled as messages are asked.
   */
  projectionClass(columns: readonly string[]): (index: number) => number {
    const name = JSON.stringify(columns);
    let read = this.projections.get(name);
    if (!read) {
      const ids = new Map<string, number>();
      const known = new Int32Array(Math.max(1, this.episode.messages.length)).fill(-1);
      read = (index: number): number => {
        const cached = known[index] ?? -1;
        if (cached >= 0) return cached;
        const row = this.rows(index)[0];
        const text = row === undefined ? "" : JSON.stringify(columns.map((c) => row[c] ?? null));
        let id = ids.get(text);
        if (id === undefined) ids.set(text, (id = ids.size));
        if (index < known.length) known[index] = id;
        return id;
      };
      this.projections.set(name, read);
    }
    return read;
  }

  rows(index: number): readonly MeasuredRow[] {
    if (this.keys !== null) return this.episode.worldAt(index)[this.table] ?? EMPTY;
    let rows = this.messageRows.get(index);
    if (!rows) {
      const message = this.episode.messages[index];
      rows = message ? [sandboxRow(message)] : [];
      this.messageRows.set(index, rows);
    }
    return rows;
  }
}

/** The tables' states, shared by both node lists of an evaluation. */
export class StateCache {
  private readonly tables = new Map<string, TableStates>();
  private readonly keys = new Map<string, (index: number) => number>();
  /** Every index is below this: the message count, at least 1. */
  readonly span: number;

  constructor(readonly episode: EpisodeView) {
    this.span = Math.max(1, episode.messages.length);
  }

  table(name: string): TableStates {
    let states = this.tables.get(name);
    if (!states) this.tables.set(name, (states = new TableStates(name, this.episode)));
    return states;
  }

  /**
   * A key per message, equal for two messages exactly when every one of `tables` passes the
   * guardrail between them: the combination of the tables' equality classes. One function per
   * set of tables, so the matcher computes each key once however many gates share it.
   */
  guardrailKey(tables: readonly string[]): (index: number) => number {
    const sorted = [...new Set(tables)].sort();
    const name = JSON.stringify(sorted);
    let key = this.keys.get(name);
    if (!key) {
      const states = sorted.map((t) => this.table(t));
      const ids = new Map<string, number>();
      const known = new Int32Array(this.span).fill(-1);
      key = (index: number): number => {
        const cached = known[index] ?? -1;
        if (cached >= 0) return cached;
        const combination = states.map((t) => t.equalityClass(index)).join(",");
        let id = ids.get(combination);
        if (id === undefined) ids.set(combination, (id = ids.size));
        if (index < known.length) known[index] = id;
        return id;
      };
      this.keys.set(name, key);
    }
    return key;
  }
}

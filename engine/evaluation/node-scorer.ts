// Scores the nodes of one list (the milestones, or the minefields) at candidate messages: each
// constraint's similarity against the state at the message, a node's similarity from those
// (reference 5.8), and the explanation of each constraint for the result.
//
// Cache. Like upstream, every constraint's score is kept per (node, constraint, index, reference
// index). World tables only change at a few messages, so for a world-table constraint each index
// is first mapped to a state key shared by all messages holding the very same rows array (the
// world history shares an unchanged table between snapshots): a long conversation with few
// changes costs as many comparisons as it has distinct states, not messages. The values are the
// same as with raw indices, since a measure sees nothing but the rows.
import type { Message } from "../episode/types.js";
import type { Milestone } from "../scenario/model.js";
import type { Row, Tables } from "../world/types.js";
import { constraintSimilarity, sandboxRow } from "./measures/index.js";
import type { ConstraintScore, GuardrailConstraint, MeasuredConstraint, MeasuredRow } from "./measures/types.js";
import { SANDBOX_TABLE } from "./guardrails.js";
import type { ConstraintResult, ReferenceUsed } from "./result.js";

/** The episode as the evaluation sees it. */
export interface EpisodeView {
  readonly messages: readonly Message[];
  /** The world at message i. Returning the same array for an unchanged table lets scores be shared. */
  readonly worldAt: (index: number) => Tables;
  /** The index the "initial" reference reads: the opening user message. */
  readonly initialIndex: number;
}

/** A constraint with its reference resolved to a node position in the list. */
interface BoundConstraint {
  readonly constraint: MeasuredConstraint;
  readonly states: TableStates;
  readonly guardrail: boolean;
  /** "initial", a node position, or null for no reference. */
  readonly reference: "initial" | number | null;
}

/** The matched index of a referenced node (only nodes in the node's reference list). */
export type ReferenceIndex = (node: number) => number;

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

  constructor(
    readonly table: string,
    private readonly episode: EpisodeView,
  ) {
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
}

export class NodeScorer {
  private readonly bound: readonly (readonly BoundConstraint[])[];
  /** Per node: positions of its guardrails, then of its written constraints (see similarity()). */
  private readonly guardrailPositions: readonly (readonly number[])[];
  private readonly writtenPositions: readonly (readonly number[])[];
  /** Per node and constraint: scores by (state key at the index, state key at the reference). */
  private readonly cache: (readonly Map<number, ConstraintScore>[])[];
  /** Per node: the node positions its constraints read, for the matcher. */
  readonly references: readonly (readonly number[])[];

  constructor(
    private readonly nodes: readonly Milestone[],
    guardrails: readonly (readonly GuardrailConstraint[])[],
    private readonly states: StateCache,
  ) {
    const position = new Map(nodes.map((n, i) => [n.id, i]));
    const bind = (constraint: MeasuredConstraint, guardrail: boolean): BoundConstraint => {
      const r = constraint.reference;
      const reference = r === null ? null : r.kind === "initial" ? "initial" : (position.get(r.id) ?? null);
      if (r !== null && r.kind === "milestone" && reference === null) throw new Error(`unknown reference "${r.id}"`);
      return { constraint, states: this.states.table(constraint.table), guardrail, reference };
    };
    this.bound = nodes.map((node, v) => [
      ...node.constraints.map((c) => bind(c, false)),
      ...(guardrails[v] ?? []).map((g) => bind(g, true)),
    ]);
    const positions = (list: readonly BoundConstraint[], guardrail: boolean): number[] =>
      [...list.keys()].filter((c) => list[c]!.guardrail === guardrail);
    this.guardrailPositions = this.bound.map((list) => positions(list, true));
    this.writtenPositions = this.bound.map((list) => positions(list, false));
    this.cache = this.bound.map((list) => list.map(() => new Map()));
    this.references = this.bound.map((list) => [
      ...new Set(list.flatMap((b) => (typeof b.reference === "number" ? [b.reference] : []))),
    ]);
  }

  /**
   * The node's similarity at `index`: the product of every constraint's similarity raised to
   * 1 / (number of written constraints), so guardrails (0 or 1) veto without diluting the mean.
   * Guardrails are looked at first: one that fails settles the answer without the costlier
   * measures (and the passing ones multiply by exactly 1). A node with no written constraint
   * (the schema forbids it; upstream divides by 0) scores the product of its guardrails.
   */
  similarity(node: number, index: number, refIndex: ReferenceIndex): number {
    for (const c of this.guardrailPositions[node]!) {
      if (this.score(node, c, index, refIndex).similarity === 0) return 0;
    }
    const written = this.writtenPositions[node]!;
    let product = 1;
    for (const c of written) {
      const s = this.score(node, c, index, refIndex).similarity;
      if (s === 0) return 0;
      product *= s;
    }
    return written.length === 0 ? product : product ** (1 / written.length);
  }

  /** Each constraint at `index`, written ones first, for the result. */
  results(node: number, index: number, refIndex: ReferenceIndex): { constraints: ConstraintResult[]; guardrails: ConstraintResult[] } {
    const constraints: ConstraintResult[] = [];
    const guardrails: ConstraintResult[] = [];
    this.bound[node]!.forEach((b, c) => {
      const { similarity, explanation } = this.score(node, c, index, refIndex);
      const result: ConstraintResult = {
        kind: b.constraint.kind,
        table: b.constraint.table,
        similarity,
        reference: this.referenceUsed(b, refIndex),
        explanation,
      };
      (b.guardrail ? guardrails : constraints).push(result);
    });
    return { constraints, guardrails };
  }

  /**
   * For a node that matched nowhere: the message that came closest. Compared in order: how many
   * of its constraints (guardrails included) score above 0, the sum of its written constraints'
   * similarities, then the share of compared columns that scored above 0 (so a row right in one
   * column of two beats a row right in none). The earliest message wins a tie.
   */
  closestMiss(node: number, first: number, last: number, refIndex: ReferenceIndex): number {
    const list = this.bound[node]!;
    let best = first;
    let bestKey: readonly number[] = [];
    for (let index = first; index <= last; index++) {
      let satisfied = 0;
      let sum = 0;
      let columns = 0;
      list.forEach((b, c) => {
        const { similarity, explanation } = this.score(node, c, index, refIndex);
        if (similarity > 0) satisfied++;
        if (!b.guardrail) sum += similarity;
        columns += columnCredit(explanation.pairs);
      });
      const key = [satisfied, sum, columns];
      if (isGreater(key, bestKey)) {
        best = index;
        bestKey = key;
      }
    }
    return best;
  }

  private referenceIndex(b: BoundConstraint, refIndex: ReferenceIndex): number | null {
    if (b.reference === null) return null;
    return b.reference === "initial" ? this.states.episode.initialIndex : refIndex(b.reference);
  }

  private referenceUsed(b: BoundConstraint, refIndex: ReferenceIndex): ReferenceUsed | null {
    const index = this.referenceIndex(b, refIndex);
    if (index === null || b.reference === null) return null;
    return { id: b.reference === "initial" ? "initial" : this.nodes[b.reference]!.id, index };
  }

  private score(node: number, c: number, index: number, refIndex: ReferenceIndex): ConstraintScore {
    const bound = this.bound[node]![c]!;
    const ref = this.referenceIndex(bound, refIndex);
    const { states } = bound;
    // Keys are below span, so (state key, reference state key + 1) packs into one number.
    const key = states.key(index) * (this.states.span + 1) + (ref === null ? 0 : states.key(ref) + 1);
    const cache = this.cache[node]![c]!;
    let score = cache.get(key);
    if (!score) {
      score = constraintSimilarity(bound.constraint, { current: states.rows(index), reference: ref === null ? null : states.rows(ref) });
      cache.set(key, score);
    }
    return score;
  }
}

/** The share of scored (non-neutral) columns, over all paired rows, that scored above 0. */
function columnCredit(pairs: ConstraintScore["explanation"]["pairs"]): number {
  let scored = 0;
  let positive = 0;
  for (const pair of pairs) {
    for (const { similarity } of pair.columns) {
      if (similarity === null) continue;
      scored++;
      if (similarity > 0) positive++;
    }
  }
  return scored === 0 ? 0 : positive / scored;
}

/** Lexicographic a > b; anything beats the empty key. */
function isGreater(a: readonly number[], b: readonly number[]): boolean {
  for (let i = 0; i < a.length; i++) {
    if (i >= b.length) return true;
    if (a[i]! !== b[i]!) return a[i]! > b[i]!;
  }
  return false;
}

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
//
// Guardrails against a milestone's state are not part of the similarity the matcher asks for:
// they are the matcher's gates (matching-gates.ts), one key gate per (node, related milestone)
// whose key says which guardrail-equality class the watched tables are in at a message. Two
// messages get the same class per table exactly when a guardrail between them holds (the
// comparison is an equivalence: equal row counts and equal cells, column by column), so the
// matcher compares keys instead of scoring guardrails, and a sink guarded against ten milestones
// is ten pairwise conditions rather than one similarity reading eleven indices. Guardrails
// against the initial state read no milestone and stay in the similarity.
import type { Milestone } from "../scenario/model.js";
import { constraintSimilarity } from "./measures/index.js";
import type { ConstraintScore, GuardrailConstraint, MeasuredConstraint } from "./measures/types.js";
import { SANDBOX_TABLE } from "./guardrails.js";
import { columnSimilarity } from "./measures/column-measures.js";
import { effectiveMeasures, measureFor } from "./measures/default-measures.js";
import { BoundedMemo } from "./matching/cache.js";
import type { KeyGate } from "./matching/gates.js";
import type { MatchClasses } from "./matching/problem.js";
import type { ConstraintResult, ReferenceUsed } from "./result.js";
import type { StateCache, TableStates } from "./table-states.js";

export { StateCache } from "./table-states.js";

/** A constraint with its reference resolved to a node position in the list. */
interface BoundConstraint {
  readonly constraint: MeasuredConstraint;
  readonly states: TableStates;
  readonly guardrail: boolean;
  /** "initial", a node position, or null for no reference. */
  readonly reference: "initial" | number | null;
  /**
   * The memo's key of the table at the node's message and at the referenced one: for a world
   * table its equality class (equal in every cell, so every measure scores it alike: a setting
   * toggled back and forth is two states, not one per toggle); for SANDBOX the class of what the
   * constraint reads of the message (readerOf), so a long run's look-alike messages are scored
   * once. Both are below the span.
   */
  readonly currentKey: (index: number) => number;
  readonly referenceKey: (index: number) => number;
}

/** The matched index of a referenced node (only nodes in the node's reference list). */
type ReferenceIndex = (node: number) => number;

/** closestMiss's scan of messages first..last: the best so far, as its comparison keys. */
interface MissScan {
  last: number;
  best: number;
  bestSatisfied: number;
  bestSum: number;
  /** The best's column share, once a tie needed it. */
  bestColumns: number | null;
}

/** Scans kept per node (one per window start and reference indices a prefix asked with). */
const MISS_SCANS_KEPT = 32;

/** sameAsPrevious()'s memo values (0: not read yet). */
const SAME = 1;
const DIFFERENT = 2;

export class NodeScorer {
  private readonly bound: readonly (readonly BoundConstraint[])[];
  /** Per node: positions of its guardrails against the initial state, then of its written constraints (see similarity()). */
  private readonly initialGuardrailPositions: readonly (readonly number[])[];
  private readonly writtenPositions: readonly (readonly number[])[];
  /**
   * Per node and constraint: similarities by (state key at the index, state key at the
   * reference). Numbers only: an explanation is built for the messages a result shows
   * (explained()), not for the thousands the matcher scores.
   */
  private readonly cache: (readonly BoundedMemo<number, number>[])[];
  /** Per node: closestMiss's running scans, by window start and the indices of what the node references. */
  private readonly missScans: Map<string, MissScan>[];
  /** Per node: the nodes its constraints and guardrails reference (what closestMiss's scores depend on besides the message). */
  private readonly missReferences: readonly (readonly number[])[];
  /** Per node and constraint: the column credit of an explanation, by scoreKey (closestMiss's tie-break). */
  private readonly columnCredits: (readonly BoundedMemo<number, number>[])[];
  /** Per node: positions of its constraints that read no milestone (null or "initial" reference). */
  private readonly unreferencedPositions: readonly (readonly number[])[];
  /** Every constraint reading a milestone's index, for sameAsPrevious(). */
  private readonly referencing: readonly BoundConstraint[];
  /** The distinct key functions of the gates, for sameAsPrevious(). */
  private readonly gateKeys: readonly ((index: number) => number)[];
  /** Per node: the constraints similarity() reads, and similarityRow()'s scratch of their state keys. */
  private readonly rowPositions: readonly (readonly number[])[];
  private readonly rowKeys: readonly Int32Array[];
  /** Per node: what tells indices apart for its own similarity and gates, and for its readers (classes()). */
  private readonly matchedReaders: readonly (readonly ((index: number) => number)[])[];
  private readonly referencedReaders: readonly (readonly ((index: number) => number)[])[];
  private readonly classIds: Map<string, number>[];
  /** Per node and constraint: whether the constraint scores 0 at a message whatever it references (zeroWhatever()), or null where that is not known. */
  private readonly fixedColumnsFail: readonly (readonly (((index: number) => boolean) | null)[])[];
  /** Per node: the node positions its written constraints read, for the matcher. */
  readonly references: readonly (readonly number[])[];
  /** Per node: its guardrails against milestones, as the matcher's gates (one per related milestone). */
  readonly gates: readonly (readonly KeyGate[])[];

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
      const states = this.states.table(constraint.table);
      const partial = { constraint, states, guardrail, reference: reference as BoundConstraint["reference"] };
      const world = states.table !== SANDBOX_TABLE;
      return {
        ...partial,
        currentKey: world ? (index) => states.equalityClass(index) : readerOf(partial, "matched"),
        referenceKey: world ? (index) => states.equalityClass(index) : readerOf(partial, "referenced"),
      };
    };
    this.bound = nodes.map((node, v) => [
      ...node.constraints.map((c) => bind(c, false)),
      ...(guardrails[v] ?? []).map((g) => bind(g, true)),
    ]);
    const positions = (list: readonly BoundConstraint[], keep: (b: BoundConstraint) => boolean): number[] =>
      [...list.keys()].filter((c) => keep(list[c]!));
    this.sameAsBefore = new Uint8Array(this.states.span + 1);
    this.initialGuardrailPositions = this.bound.map((list) => positions(list, (b) => b.guardrail && b.reference === "initial"));
    this.writtenPositions = this.bound.map((list) => positions(list, (b) => !b.guardrail));
    this.cache = this.bound.map((list) => list.map(() => new BoundedMemo<number, number>()));
    this.columnCredits = this.bound.map((list) => list.map(() => new BoundedMemo<number, number>()));
    this.missScans = this.bound.map(() => new Map());
    this.missReferences = this.bound.map((list) => [
      ...new Set(list.flatMap((b) => (typeof b.reference === "number" ? [b.reference] : []))),
    ]);
    this.unreferencedPositions = this.bound.map((list) => positions(list, (b) => typeof b.reference !== "number"));
    this.referencing = this.bound.flat().filter((b) => typeof b.reference === "number");
    this.rowPositions = this.bound.map((_, v) => [...this.initialGuardrailPositions[v]!, ...this.writtenPositions[v]!]);
    this.rowKeys = this.rowPositions.map((positions) => new Int32Array(positions.length));
    this.references = this.bound.map((list) => [
      ...new Set(list.flatMap((b) => (!b.guardrail && typeof b.reference === "number" ? [b.reference] : []))),
    ]);
    this.gates = this.bound.map((list) => {
      const tablesByNode = new Map<number, string[]>();
      for (const b of list) {
        if (!b.guardrail || typeof b.reference !== "number") continue;
        const tables = tablesByNode.get(b.reference) ?? [];
        tablesByNode.set(b.reference, [...tables, b.constraint.table]);
      }
      return [...tablesByNode].map(([ref, tables]): KeyGate => ({ ref, key: this.states.guardrailKey(tables) }));
    });
    this.gateKeys = [...new Set(this.gates.flatMap((list) => list.map((g) => g.key)))];
    this.matchedReaders = this.bound.map((list) => list.map((b) => readerOf(b, "matched")));
    this.referencedReaders = nodes.map((_, u) =>
      this.bound.flatMap((list) => list.filter((b) => b.reference === u).map((b) => readerOf(b, "referenced"))),
    );
    this.classIds = nodes.map(() => new Map<string, number>());
    this.fixedColumnsFail = this.bound.map((list) => list.map((b) => fixedColumnsFailAt(b)));
  }

  /**
   * Whether the node's similarity is 0 at `index` whatever the other nodes' indices: one of its
   * factors (a written constraint or a guardrail against the initial state) scores 0 there and
   * reads no milestone, or reads one but fails in a column the milestone cannot change
   * (fixedColumnsFailAt). Its value, gates or not, is then 0.
   */
  private zeroWhatever(node: number, index: number): boolean {
    const list = this.bound[node]!;
    const fails = this.fixedColumnsFail[node]!;
    for (const c of this.rowPositions[node]!) {
      const b = list[c]!;
      if (typeof b.reference !== "number") {
        if (this.score(node, c, index, noReference) === 0) return true;
      } else if (fails[c]?.(index)) {
        return true;
      }
    }
    return false;
  }

  /**
   * The matcher's index classes (matching/classes.ts): `matched(v, i)` combines what each of v's
   * constraints (guardrails included, which carry its gates' tables) reads at i; `referenced(u,
   * i)` what each constraint referencing u reads of u's message. A world table is read by its
   * rows (the guardrail-equality class, which is equality of every cell); a SANDBOX message by
   * the columns of the target a snapshot or tool_trace_extract compares it with, and as a
   * reference of tool_trace_extract by its tool traces alone; anything else on SANDBOX by the
   * message itself. So two messages share a class exactly when no measure could score them
   * differently. A message where the node scores 0 whatever the others' indices (zeroWhatever)
   * gets one class of its own for the node's similarity: a loop of traffic the milestone cannot
   * match is then a few classes, although every message differs in some column it reads.
   */
  classes(): MatchClasses {
    // One object per scorer: the matcher memoises what it reads per classes object (periodic-trim.ts).
    this.classesMade ??= this.makeClasses();
    return this.classesMade;
  }

  private classesMade: MatchClasses | null = null;

  private makeClasses(): MatchClasses {
    // Every other class is >= 0 (a reader's own value, or an id of classIds).
    const ZERO_CLASS = -1;
    const combine = (node: number, role: string, readers: readonly ((index: number) => number)[], index: number): number => {
      if (readers.length === 0) return 0;
      if (readers.length === 1) return readers[0]!(index);
      // Up to three readers with small classes pack into one number; more go through a string.
      let packed = 0;
      let small = readers.length <= 3;
      for (let r = 0; small && r < readers.length; r++) {
        const value = readers[r]!(index);
        small = value < 0x10000;
        packed = packed * 0x10000 + value;
      }
      const key = small ? `${role}${packed}` : `${role}:${readers.map((read) => read(index)).join(",")}`;
      const ids = this.classIds[node]!;
      let id = ids.get(key);
      if (id === undefined) ids.set(key, (id = ids.size));
      return id;
    };
    // A class depends on the message at the index and the world there alone, never on the
    // prefix scored, so each is computed once per run: the prefixes a debugger steps through then
    // cost the matcher's sweep, not a fresh reading of every message.
    const memo = (read: (node: number, index: number) => number): ((node: number, index: number) => number) => {
      const known = this.nodes.map(() => new Float64Array(this.states.span).fill(Number.NaN));
      return (node, index) => {
        const row = known[node]!;
        if (index >= row.length) return read(node, index);
        let value = row[index]!;
        if (Number.isNaN(value)) row[index] = value = read(node, index);
        return value;
      };
    };
    return {
      matched: memo((node, index) => (this.zeroWhatever(node, index) ? ZERO_CLASS : combine(node, "m", this.matchedReaders[node]!, index))),
      referenced: memo((node, index) => combine(node, "r", this.referencedReaders[node]!, index)),
    };
  }

  /**
   * Whether message `index` is interchangeable with index - 1 for the matcher (its
   * sameAsPrevious, index-compression.ts): every node's similarity, every gate and every reference
   * read the same at both, whatever the other indices. Checked from what a score depends on:
   * - as a referenced message: the state key of each referencing constraint's table (a SANDBOX
   *   reference reads the message itself, so never);
   * - as a gate's message: each gate key;
   * - as a node's message: the state keys of its world-table constraints, and the score of each
   *   SANDBOX constraint that reads no milestone (a function of the message alone). A node that
   *   scores 0 at both messages through a constraint reading no milestone is 0 there whatever
   *   the others read, so its other constraints need not agree.
   */
  sameAsPrevious(index: number): boolean {
    // Read once per run, as the classes are: the answer depends on the two messages alone.
    if (index >= this.sameAsBefore.length) return this.readSameAsPrevious(index);
    const known = this.sameAsBefore[index];
    if (known !== 0) return known === SAME;
    const same = this.readSameAsPrevious(index);
    this.sameAsBefore[index] = same ? SAME : DIFFERENT;
    return same;
  }

  /** sameAsPrevious() per index: 0 not read yet, else SAME or DIFFERENT. */
  private readonly sameAsBefore: Uint8Array;

  private readSameAsPrevious(index: number): boolean {
    const before = index - 1;
    for (const b of this.referencing) {
      if (b.states.table === SANDBOX_TABLE || b.states.key(index) !== b.states.key(before)) return false;
    }
    for (const key of this.gateKeys) if (key(index) !== key(before)) return false;
    for (let node = 0; node < this.bound.length; node++) {
      const zeroHere = this.scoresZero(node, index);
      if (zeroHere !== this.scoresZero(node, before)) return false;
      if (zeroHere) continue;
      const list = this.bound[node]!;
      for (let c = 0; c < list.length; c++) {
        const b = list[c]!;
        if (b.states.table !== SANDBOX_TABLE) {
          if (b.states.key(index) !== b.states.key(before)) return false;
        } else if (
          typeof b.reference === "number" ||
          this.score(node, c, index, noReference) !== this.score(node, c, before, noReference)
        ) {
          return false;
        }
      }
    }
    return true;
  }

  /** Whether one of the node's constraints that reads no milestone scores 0 at `index`. */
  private scoresZero(node: number, index: number): boolean {
    for (const c of this.unreferencedPositions[node]!) if (this.score(node, c, index, noReference) === 0) return true;
    return false;
  }

  /**
   * similarity() for indices first..first+count-1 into out[offset..] (the matcher's row oracle).
   * The similarity reads each constraint's score by the state keys at the index and at the
   * reference, and the reference is the same along a row: where every constraint's state key
   * at the index equals the previous index's (a world table unchanged between two messages),
   * the similarity is the previous one, the same scores multiplied the same way. SANDBOX keys
   * are the class of what the constraint reads of the message (readerOf), so look-alike messages share one.
   */
  similarityRow(node: number, refIndex: ReferenceIndex, first: number, count: number, out: Float64Array, offset: number): void {
    const positions = this.rowPositions[node]!;
    const keys = this.rowKeys[node]!;
    const list = this.bound[node]!;
    let previous = 0;
    for (let k = 0; k < count; k++) {
      const index = first + k;
      let same = k > 0;
      for (let p = 0; p < positions.length; p++) {
        const key = list[positions[p]!]!.currentKey(index);
        if (key !== keys[p]) {
          keys[p] = key;
          same = false;
        }
      }
      if (!same) previous = this.similarity(node, index, refIndex);
      out[offset + k] = previous;
    }
  }

  /**
   * The node's similarity at `index`, without its gates: the product of its written constraints'
   * similarities and its guardrails against the initial state, raised to 1 / (number of written
   * constraints), so guardrails (0 or 1) veto without diluting the mean. The matcher multiplies
   * in the guardrails against milestones (`gates`), which makes this upstream's similarity.
   * Guardrails are looked at first: one that fails settles the answer without the costlier
   * measures (and the passing ones multiply by exactly 1). A node with no written constraint
   * (the schema forbids it; upstream divides by 0) scores the product of its guardrails.
   */
  similarity(node: number, index: number, refIndex: ReferenceIndex): number {
    for (const c of this.initialGuardrailPositions[node]!) {
      if (this.score(node, c, index, refIndex) === 0) return 0;
    }
    const written = this.writtenPositions[node]!;
    let product = 1;
    for (const c of written) {
      const s = this.score(node, c, index, refIndex);
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
      const { similarity, explanation } = this.explained(node, c, index, refIndex);
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
    // The scan is a running best in message order, so the prefixes of one run (prefix-evaluation.ts)
    // extend the scan of a shorter prefix with the same window start and the same references
    // rather than starting again: a stop at message i + 1 looks at one more message.
    const scans = this.missScans[node]!;
    const signature = `${first}:${this.missReferences[node]!.map((u) => refIndex(u)).join(",")}`;
    let scan = scans.get(signature);
    if (scan === undefined || scan.last > last) {
      scan = { last: first - 1, best: first, bestSatisfied: -1, bestSum: -Infinity, bestColumns: null };
      if (scans.size >= MISS_SCANS_KEPT) scans.clear();
      scans.set(signature, scan);
    }
    // A constraint's column credit is a function of what its score is (scoreKey): a loop of
    // look-alike messages that tie builds each explanation once, and the prefixes of one run
    // share them, since a key means the same states in every prefix.
    const credits = this.columnCredits[node]!;
    const columnsAt = (index: number): number => {
      let columns = 0;
      list.forEach((_, c) => {
        const key = this.scoreKey(node, c, index, refIndex);
        let credit = credits[c]!.get(key);
        if (credit === undefined) {
          credit = columnCredit(this.explained(node, c, index, refIndex).explanation.pairs);
          credits[c]!.set(key, credit);
        }
        columns += credit;
      });
      return columns;
    };
    const fails = this.fixedColumnsFail[node]!;
    for (let index = scan.last + 1; index <= last; index++) {
      let satisfied = 0;
      let sum = 0;
      list.forEach((b, c) => {
        // A column the reference cannot change fails here: 0 without the (costly) comparison.
        const similarity = fails[c]?.(index) ? 0 : this.score(node, c, index, refIndex);
        if (similarity > 0) satisfied++;
        if (!b.guardrail) sum += similarity;
      });
      if (satisfied < scan.bestSatisfied || (satisfied === scan.bestSatisfied && sum < scan.bestSum)) continue;
      if (satisfied === scan.bestSatisfied && sum === scan.bestSum) {
        // The column share needs explanations: built only where the first two keys tie the best.
        scan.bestColumns ??= columnsAt(scan.best);
        const columns = columnsAt(index);
        if (!(columns > scan.bestColumns)) continue;
        scan.bestColumns = columns;
      } else {
        scan.bestColumns = null;
      }
      scan.best = index;
      scan.bestSatisfied = satisfied;
      scan.bestSum = sum;
    }
    scan.last = last;
    return scan.best;
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

  /** The constraint's similarity at `index` (memoised by state keys). */
  private score(node: number, c: number, index: number, refIndex: ReferenceIndex): number {
    const bound = this.bound[node]![c]!;
    const ref = this.referenceIndex(bound, refIndex);
    const { states } = bound;
    const key = this.scoreKey(node, c, index, refIndex);
    const cache = this.cache[node]![c]!;
    let score = cache.get(key);
    if (score === undefined) {
      const current = states.rows(index);
      score = constraintSimilarity(bound.constraint, {
        current,
        reference: ref === null ? null : states.rows(ref),
        schema: states.schema,
        scoreOnly: true,
      }).similarity;
      cache.set(key, score);
    }
    return score;
  }

  /**
   * What the constraint's score at `index` depends on: the state keys (or, for SANDBOX, the
   * classes of what it reads) at the index and at its reference. Keys are below span, so the
   * pair packs into one number.
   */
  private scoreKey(node: number, c: number, index: number, refIndex: ReferenceIndex): number {
    const bound = this.bound[node]![c]!;
    const ref = this.referenceIndex(bound, refIndex);
    return bound.currentKey(index) * (this.states.span + 1) + (ref === null ? 0 : bound.referenceKey(ref) + 1);
  }

  /** The constraint's similarity at `index` with its explanation, built afresh. */
  private explained(node: number, c: number, index: number, refIndex: ReferenceIndex): ConstraintScore {
    const bound = this.bound[node]![c]!;
    const ref = this.referenceIndex(bound, refIndex);
    const { states } = bound;
    return constraintSimilarity(bound.constraint, {
      current: states.rows(index),
      reference: ref === null ? null : states.rows(ref),
      schema: states.schema,
    });
  }
}

/** What a constraint reads of a message: as its own message ("matched") or as its reference's. */
function readerOf(b: Pick<BoundConstraint, "constraint" | "states">, role: "matched" | "referenced"): (index: number) => number {
  const { states, constraint } = b;
  if (states.table !== SANDBOX_TABLE) return (index) => states.equalityClass(index);
  if (role === "referenced") return constraint.kind === "tool_trace_extract" ? states.projectionClass(["tool_trace"]) : (index) => index;
  if (constraint.kind !== "snapshot" && constraint.kind !== "tool_trace_extract") return (index) => index;
  const columns = [...new Set(constraint.target.flatMap((row) => Object.keys(row)))].sort();
  return states.projectionClass(columns);
}

/**
 * For a SANDBOX snapshot or tool_trace_extract with one target row that reads a milestone: at a
 * message, whether a target column the milestone cannot change (every column but the one
 * tool_trace_extract fills) scores 0. The message is one row against one target row, so a
 * column scoring 0 makes the pair, and every filled variant of it, score 0. Remembered per class
 * of what the constraint reads of the message (readerOf), which fixes those columns. Null for any
 * other constraint.
 */
function fixedColumnsFailAt(b: BoundConstraint): ((index: number) => boolean) | null {
  const { constraint, states } = b;
  if (states.table !== SANDBOX_TABLE || typeof b.reference !== "number") return null;
  if ((constraint.kind !== "snapshot" && constraint.kind !== "tool_trace_extract") || constraint.target.length !== 1) return null;
  const filled = constraint.kind === "tool_trace_extract" ? (constraint.fill === "tool_trace" ? "tool_trace" : "content") : null;
  const fixed = Object.entries(constraint.target[0]!).filter(([column]) => column !== filled);
  if (fixed.length === 0) return null;
  const measures = effectiveMeasures(SANDBOX_TABLE, constraint.measures, states.schema);
  const known = new Map<number, boolean>();
  return (index) => {
    const key = b.currentKey(index);
    let fails = known.get(key);
    if (fails === undefined) {
      const row = states.rows(index)[0];
      fails =
        row !== undefined &&
        fixed.some(([column, expected]) => columnSimilarity(measureFor(measures, column), row[column] ?? null, expected).similarity === 0);
      known.set(key, fails);
    }
    return fails;
  };
}

/** For constraints that read no milestone: never called. */
function noReference(node: number): number {
  throw new Error(`internal error: a constraint reading no milestone read milestone ${node}`);
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

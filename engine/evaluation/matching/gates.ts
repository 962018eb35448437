// Gates: 0/1 conditions on a node and ONE other node (an ancestor), multiplied into the node's
// similarity. The evaluator's automatic guardrails are gates ("the table at this node's message
// equals the table at that node's message"); a sink after ten guarded milestones has ten of them.
//
// Why gates are not ordinary references: a node's similarity is a function of its own index and
// all its references' indices, so a node reading ten others is one factor over eleven indices
// (T^11 entries). A gate only ever looks at a pair, and the node value is
//   f_v(x_v, refs, gate refs) = g_v(x_v, refs) · Π_p h_{v,p}(x_v, x_p),   h ∈ {0, 1},
// which elimination rewrites exactly with one auxiliary binary b_v per gated node ("every gate
// of v holds"): the node term becomes b_v · g_v, and each gate becomes the pairwise hard
// constraint b_v = 1 ⇒ h_{v,p}(x_v, x_p) = 1. b_v = 0 is always allowed and scores 0, so the
// maximum over b_v is exactly f_v. Every gate is then a factor over (x_p, b_v, x_v), and a sink
// gated by ten parallel milestones has small induced width. (Where cheaper, a gate is folded
// into the node's own table instead, e.g. a gate on a node it references anyway; see
// matching-elimination-factors.ts.) The down-set sweep simply reads a gate's node like a
// reference, through GatedLookup below.
//
// Two kinds, same meaning (the node's similarity counts only when every gate holds):
// - a pair gate, holds(index, refIndex): any predicate; factor of 2·T² entries.
// - a key gate, key(index): holds exactly when key(index) === key(refIndex). The evaluator's
//   guardrails are of this kind (key = which snapshot-equality class the watched tables are in).
//   Elimination can split the pair through a class variable c = key(x_p) (K classes), so
//   removing x_p keeps x_v an order bound and costs O(K·T²) instead of the O(T³) a general
//   pair needs.
//
// This file validates gates and caches their answers: each (pair gate, index, reference index)
// and each (key function, index) is asked at most once per bestMatch call, like the similarity.

import { BoundedMemo, type SimilarityLookup } from "./cache.js";

/** A gate whose predicate is arbitrary. */
export interface PairGate {
  /** The node compared with: a strict ancestor of the gated node (it may also be one of its references). */
  readonly ref: number;
  /** Whether the gate holds with the gated node at `index` and `ref` at `refIndex` (refIndex <= index). */
  readonly holds: (index: number, refIndex: number) => boolean;
}

/** A gate that holds exactly when both indices have the same key. */
export interface KeyGate {
  /** The node compared with: a strict ancestor of the gated node (it may also be one of its references). */
  readonly ref: number;
  /**
   * A key per candidate index (a number, not NaN). Gates sharing one function (the same object)
   * share its cached keys, so pass one function per distinct key, not one per gate.
   */
  readonly key: (index: number) => number;
}

export type MatchGate = PairGate | KeyGate;

/** A gate as the strategies see it: the gated node's view of one (ref, problem-wide gate id). */
export interface GateRef {
  readonly ref: number;
  readonly gate: number;
}

/** A key gate's classes over lo..hi: dense ids 0..count-1, equal exactly when the keys are. */
export interface GateClasses {
  /** Identifies the key function: gates with the same id are the same constraint on the same pair. */
  readonly id: number;
  readonly count: number;
  /** of[index - lo]. */
  readonly of: Int32Array;
}

/** What the strategies read gates through. Gate ids are problem-wide. */
export interface GateLookup {
  /** Whether gate `gate` holds with its node at `index` and its reference at `refIndex`. */
  holds(gate: number, index: number, refIndex: number): boolean;
  /** A key gate's classes, or null for a pair gate. */
  classes(gate: number): GateClasses | null;
}

/** Largest dense per-gate answer table (bytes); larger spans fall back to a bounded memo. */
const DENSE_GATE_LIMIT = 1 << 24;

/**
 * Validates `gates` (one list per node, or undefined for none) against the DAG and returns each
 * node's gates with problem-wide ids, numbered in node order then list order. Throws an Error
 * naming the fault, like the references' validation.
 */
export function validateGates(
  nodeCount: number,
  gates: readonly (readonly MatchGate[])[] | undefined,
  isAncestor: (u: number, v: number) => boolean,
): { perNode: GateRef[][]; flat: MatchGate[] } {
  const perNode: GateRef[][] = Array.from({ length: nodeCount }, () => []);
  const flat: MatchGate[] = [];
  if (gates === undefined) return { perNode, flat };
  if (!Array.isArray(gates) || gates.length !== nodeCount) {
    throw new Error(
      `bestMatch: gates must list one array per node (${nodeCount}), got ${Array.isArray(gates) ? gates.length : typeof gates}`,
    );
  }
  gates.forEach((list: unknown, v) => {
    if (!Array.isArray(list)) throw new Error(`bestMatch: gates[${v}] must be an array of gates`);
    (list as readonly unknown[]).forEach((gate, i) => {
      const g = (typeof gate === "object" && gate !== null ? gate : {}) as Record<string, unknown>;
      const u = g.ref;
      if (typeof u !== "number" || !Number.isInteger(u) || u < 0 || u >= nodeCount || !isAncestor(u, v)) {
        throw new Error(`bestMatch: gate ${i} of node ${v} compares with node ${String(u)}, which is not one of its ancestors in the DAG`);
      }
      const isPair = typeof g.holds === "function";
      const isKey = typeof g.key === "function";
      if (isPair === isKey)
        throw new Error(`bestMatch: gate ${i} of node ${v} must have exactly one of holds(index, refIndex) and key(index)`);
      perNode[v]!.push({ ref: u, gate: flat.length });
      flat.push(gate as MatchGate);
    });
  });
  return { perNode, flat };
}

/** Memoises the gates' answers for one bestMatch call over the candidate indices lo..hi. */
export class GateCache implements GateLookup {
  /** Per gate: 0 = not asked, 1 = fails, 2 = holds, at (index - lo) * span + (refIndex - lo); null until used. */
  private readonly dense: (Uint8Array | null)[];
  private readonly sparse: (BoundedMemo<number, boolean> | null)[];
  /** Per key function: its classes, made on first use. */
  private readonly byFunction = new Map<(index: number) => number, GateClasses>();
  private readonly classesOf: (GateClasses | null | undefined)[];

  constructor(
    private readonly gates: readonly MatchGate[],
    private readonly lo: number,
    private readonly span: number,
  ) {
    this.dense = gates.map(() => null);
    this.sparse = gates.map(() => null);
    this.classesOf = gates.map(() => undefined);
  }

  holds(gate: number, index: number, refIndex: number): boolean {
    const classes = this.classes(gate);
    if (classes) return classes.of[index - this.lo] === classes.of[refIndex - this.lo];
    const slot = (index - this.lo) * this.span + (refIndex - this.lo);
    if (this.span * this.span <= DENSE_GATE_LIMIT) {
      const table = (this.dense[gate] ??= new Uint8Array(this.span * this.span));
      const known = table[slot]!;
      if (known !== 0) return known === 2;
      const answer = this.ask(gate, index, refIndex);
      table[slot] = answer ? 2 : 1;
      return answer;
    }
    const map = (this.sparse[gate] ??= new BoundedMemo());
    const known = map.get(slot);
    if (known !== undefined) return known;
    const answer = this.ask(gate, index, refIndex);
    map.set(slot, answer);
    return answer;
  }

  classes(gate: number): GateClasses | null {
    const known = this.classesOf[gate];
    if (known !== undefined) return known;
    const g = this.gates[gate]!;
    if (!("key" in g)) return (this.classesOf[gate] = null);
    let classes = this.byFunction.get(g.key);
    if (!classes) {
      const ids = new Map<number, number>();
      const of = new Int32Array(this.span);
      for (let k = 0; k < this.span; k++) {
        const key: unknown = g.key(this.lo + k);
        if (typeof key !== "number" || Number.isNaN(key)) {
          throw new Error(`bestMatch: the key of gate ${gate} at index ${this.lo + k} is ${String(key)}; expected a number`);
        }
        let id = ids.get(key);
        if (id === undefined) ids.set(key, (id = ids.size));
        of[k] = id;
      }
      classes = { id: this.byFunction.size, count: ids.size, of };
      this.byFunction.set(g.key, classes);
    }
    return (this.classesOf[gate] = classes);
  }

  private ask(gate: number, index: number, refIndex: number): boolean {
    const answer: unknown = (this.gates[gate] as PairGate).holds(index, refIndex);
    if (typeof answer !== "boolean") {
      throw new Error(`bestMatch: gate ${gate} returned ${String(answer)} for (${index}, ${refIndex}); expected true or false`);
    }
    return answer;
  }
}

/**
 * The gated similarity through plain references, for the down-set sweep: node v "references"
 * its references followed by its gates' nodes not already among them (mergedReferences), and
 * its value is 0 when a gate fails, else the similarity of its own references (asked only then).
 */
export class GatedLookup implements SimilarityLookup {
  /** Per node: each gate's position in the merged list. */
  private readonly gatePositions: number[][];
  /** Per node: a reused buffer of the similarity's own reference indices. */
  private readonly own: number[][];

  constructor(
    private readonly similarity: SimilarityLookup,
    private readonly gates: GateLookup,
    references: readonly (readonly number[])[],
    private readonly nodeGates: readonly (readonly GateRef[])[],
    merged: readonly (readonly number[])[],
  ) {
    this.gatePositions = nodeGates.map((list, v) => list.map((g) => merged[v]!.indexOf(g.ref)));
    this.own = references.map((refs) => new Array<number>(refs.length).fill(0));
  }

  get(node: number, index: number, refIndices: readonly number[]): number {
    const list = this.nodeGates[node]!;
    if (list.length === 0) return this.similarity.get(node, index, refIndices);
    const positions = this.gatePositions[node]!;
    for (let k = 0; k < list.length; k++) {
      if (!this.gates.holds(list[k]!.gate, index, refIndices[positions[k]!]!)) return 0;
    }
    const own = this.own[node]!;
    for (let j = 0; j < own.length; j++) own[j] = refIndices[j]!;
    return this.similarity.get(node, index, own);
  }

  fill(node: number, refIndices: readonly number[], first: number, count: number, out: Float64Array, offset: number): void {
    for (let k = 0; k < count; k++) out[offset + k] = this.get(node, first + k, refIndices);
  }
}

/** Each node's references followed by its gates' nodes that are not references, without duplicates. */
export function mergedReferences(references: readonly (readonly number[])[], gates: readonly (readonly GateRef[])[]): number[][] {
  return references.map((refs, v) => {
    const merged = [...refs];
    for (const g of gates[v]!) if (!merged.includes(g.ref)) merged.push(g.ref);
    return merged;
  });
}

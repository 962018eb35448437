// The variables and factors variable elimination works on (matching-elimination.ts), and their
// tables: built once over the full candidate range, then sliced to each pass's windows.
//
// Variables: 0..n-1 are the component's nodes (a node's index, its window a range of messages);
// after them come auxiliary variables, never a pass's target and never in an order constraint:
//   - b_v (2 values) for each node v with gates: 1 when v's similarity counts ("every gate holds");
//   - c_g (K values) for each key gate g of v on p: the key class of x_p (matching-gates.ts).
// Factors, each with a node last (its variable fastest in the table, so rows are contiguous):
//   - node v without gates, over [...references, v]: v's similarity;
//   - node v with gates, over [...references, b_v, v]: 0 when b_v = 0, v's similarity when 1;
//   - pair gate g of v on p, over [p, b_v, v]: 0 when b_v = 0 or holds(x_v, x_p), else -Infinity;
//   - key gate g of v on p, as two factors: [c_g, p], 0 when class(x_p) = c_g; and
//     [c_g, b_v, v], 0 when b_v = 0 or class(x_v) = c_g; -Infinity otherwise.
// Maximising over c_g gives back exactly "b_v = 0 or class(x_v) = class(x_p)", and over b_v the
// node's gated similarity (matching-gates.ts). Every table is -Infinity (and asks nothing)
// where its nodes' indices break the ancestor order; the order constraints exclude those
// entries anyway.
//
// c_g is deferred: the plan may eliminate it only after x_p (or when p is the pass's target).
// Eliminated first, it would leave a general pairwise table over (x_p, b_v, x_v), and removing
// x_p from a fan (root -> p -> sink) would then cost T³; after x_p, the message over (c_g, …)
// keeps the sink an order bound (a prefix maximum), O(K·T²).

import { type SimilarityLookup } from "./matching-cache.js";
import { type GateClasses, type GateLookup, type GateRef } from "./matching-gates.js";

/** A component renumbered 0..n-1 (ascending problem ids), as the elimination reads it. */
export interface EliminationComponent {
  readonly nodeCount: number;
  readonly references: readonly (readonly number[])[];
  /** Each node's gates: the (local) node compared with and the problem-wide gate id. */
  readonly gates: readonly (readonly GateRef[])[];
  /** Transitive reduction of the component's edges. */
  readonly orders: readonly (readonly [number, number])[];
  isAncestor(u: number, v: number): boolean;
}

type FactorSource =
  | { readonly kind: "node"; readonly node: number; readonly gated: boolean }
  | { readonly kind: "class"; readonly classes: GateClasses }
  | { readonly kind: "key"; readonly classes: GateClasses }
  | { readonly kind: "pair"; readonly gate: number };

export class EliminationFactors {
  /** Widths of every variable over the full range: span for the nodes, then the auxiliaries'. */
  readonly fullWidths: readonly number[];
  /** Each factor's variables, a node last. */
  readonly scopes: readonly (readonly number[])[];
  /** Per auxiliary c_g of a key gate on p: p (null for the other variables). */
  private readonly classOf: readonly (number | null)[];
  private readonly sources: readonly FactorSource[];
  /** Per node factor: (earlier, later) positions in its scope of ancestor-ordered references. */
  private readonly referenceOrders: readonly (readonly (readonly [number, number])[])[];
  private readonly fullTables: (Float64Array | null)[];
  private readonly span: number;
  private readonly nodeCount: number;

  constructor(
    component: EliminationComponent,
    private readonly lookup: SimilarityLookup,
    private readonly gates: GateLookup,
    private readonly lo: number,
    hi: number,
  ) {
    const n = (this.nodeCount = component.nodeCount);
    this.span = hi - lo + 1;
    const widths: number[] = new Array<number>(n).fill(this.span);
    const defer: (number | null)[] = new Array<number | null>(n).fill(null);
    const scopes: number[][] = [];
    const sources: FactorSource[] = [];
    const referenceOrders: (readonly [number, number])[][] = [];
    const addVariable = (width: number, deferUntil: number | null): number => {
      widths.push(width);
      defer.push(deferUntil);
      return widths.length - 1;
    };
    const addFactor = (vars: number[], source: FactorSource): void => {
      scopes.push(vars);
      sources.push(source);
      const pairs: [number, number][] = [];
      if (source.kind === "node") {
        const refs = component.references[source.node]!;
        refs.forEach((a, p) => refs.forEach((b, q) => void (component.isAncestor(a, b) && pairs.push([p, q]))));
      }
      referenceOrders.push(pairs);
    };

    for (let v = 0; v < n; v++) {
      const refs = component.references[v]!;
      const gates = component.gates[v]!;
      if (gates.length === 0) {
        addFactor([...refs, v], { kind: "node", node: v, gated: false });
        continue;
      }
      const b = addVariable(2, null);
      addFactor([...refs, b, v], { kind: "node", node: v, gated: true });
      const seen = new Set<string>();
      for (const { ref, gate } of gates) {
        const classes = this.gates.classes(gate);
        if (!classes) {
          addFactor([ref, b, v], { kind: "pair", gate });
          continue;
        }
        // The same key function on the same pair is the same constraint.
        const key = `${ref}:${classes.id}`;
        if (seen.has(key)) continue;
        seen.add(key);
        const c = addVariable(classes.count, ref);
        addFactor([c, ref], { kind: "class", classes });
        addFactor([c, b, v], { kind: "key", classes });
      }
    }
    this.fullWidths = widths;
    this.classOf = defer;
    this.scopes = scopes;
    this.sources = sources;
    this.referenceOrders = referenceOrders;
    this.fullTables = scopes.map(() => null);
  }

  /**
   * For the planner: deferUntil[c_g] = p when the class variables of the key gates on p are
   * to be eliminated after x_p (null otherwise). Deferring makes x_p's step carry all of them
   * (a product of their class counts) instead of the gated nodes' indices, so it pays only while
   * that product stays within x_p's own width: not for a hub with many gated children (a root
   * before ten guarded milestones: their class variables go first, each leaving a small
   * pairwise table), nor for a node already fixed to one index.
   */
  deferUntil(widths: readonly number[]): (number | null)[] {
    const product = new Map<number, number>();
    this.classOf.forEach((p, c) => p !== null && product.set(p, (product.get(p) ?? 1) * widths[c]!));
    return this.classOf.map((p) => (p !== null && product.get(p)! <= widths[p]! && widths[p]! > 1 ? p : null));
  }

  /**
   * Factor f's table over the windows (min, width per variable, auxiliaries at 0 and full
   * width): the full table itself, or a slice of it, a row copy per combination of the other
   * variables. Tables are never written to.
   */
  table(f: number, min: readonly number[], width: readonly number[]): Float64Array {
    const vars = this.scopes[f]!;
    const full = (this.fullTables[f] ??= this.fullTable(f));
    const fullMin = (u: number): number => (u < this.nodeCount ? this.lo : 0);
    if (vars.every((u) => min[u] === fullMin(u) && width[u] === this.fullWidths[u])) return full;
    const last = vars[vars.length - 1]!;
    const columns = width[last]!;
    const leading = vars.slice(0, -1);
    const rows = leading.reduce((p, u) => p * width[u]!, 1);
    const table = new Float64Array(rows * columns);
    const digits = new Array<number>(leading.length).fill(0);
    for (let row = 0; row < rows; row++) {
      let fullRow = 0;
      for (let j = 0; j < leading.length; j++) {
        const u = leading[j]!;
        fullRow = fullRow * this.fullWidths[u]! + min[u]! - fullMin(u) + digits[j]!;
      }
      const start = fullRow * this.span + min[last]! - this.lo;
      table.set(full.subarray(start, start + columns), row * columns);
      for (let j = leading.length - 1; j >= 0; j--) {
        if (++digits[j]! < width[leading[j]!]!) break;
        digits[j] = 0;
      }
    }
    return table;
  }

  private fullTable(f: number): Float64Array {
    const source = this.sources[f]!;
    const vars = this.scopes[f]!;
    switch (source.kind) {
      case "node":
        return this.nodeTable(f, vars, source.gated);
      case "class":
        return this.classTable(source.classes);
      case "key":
        return this.keyTable(source.classes);
      case "pair":
        return this.pairTable(source.gate);
    }
  }

  /**
   * Node v's similarity over [...refs, (b_v,) v], a row of v's indices per combination of
   * reference indices (two rows, b_v = 0 then 1, for a gated node); -Infinity (and no lookup)
   * where the indices break the ancestor order.
   */
  private nodeTable(f: number, vars: readonly number[], gated: boolean): Float64Array {
    const { lo, span } = this;
    const v = vars[vars.length - 1]!;
    const refCount = vars.length - (gated ? 2 : 1);
    const copies = gated ? 2 : 1;
    const rows = span ** refCount;
    const table = new Float64Array(rows * copies * span).fill(-Infinity);
    const refIndices = new Array<number>(refCount).fill(lo);
    const pairs = this.referenceOrders[f]!;
    for (let row = 0; row < rows; row++) {
      if (pairs.every(([p, q]) => refIndices[p]! <= refIndices[q]!)) {
        let start = 0; // v is after every reference
        for (const i of refIndices) start = Math.max(start, i - lo);
        const at = row * copies * span;
        if (gated) table.fill(0, at + start, at + span);
        const similarityRow = at + (copies - 1) * span;
        if (start < span) this.lookup.fill(v, refIndices, lo + start, span - start, table, similarityRow + start);
      }
      for (let j = refCount - 1; j >= 0; j--) {
        if (++refIndices[j]! <= lo + span - 1) break;
        refIndices[j] = lo;
      }
    }
    return table;
  }

  /** [c, p]: 0 where p's index is in class c. */
  private classTable(classes: GateClasses): Float64Array {
    const span = this.span;
    const table = new Float64Array(classes.count * span).fill(-Infinity);
    for (let k = 0; k < span; k++) table[classes.of[k]! * span + k] = 0;
    return table;
  }

  /** [c, b_v, v]: 0 where b_v = 0, or where v's index is in class c. */
  private keyTable(classes: GateClasses): Float64Array {
    const span = this.span;
    const table = new Float64Array(classes.count * 2 * span).fill(-Infinity);
    for (let c = 0; c < classes.count; c++) table.fill(0, 2 * c * span, (2 * c + 1) * span);
    for (let k = 0; k < span; k++) table[(2 * classes.of[k]! + 1) * span + k] = 0;
    return table;
  }

  /** [p, b_v, v]: 0 where p's index <= v's and b_v = 0 or the gate holds. */
  private pairTable(gate: number): Float64Array {
    const { lo, span } = this;
    const table = new Float64Array(span * 2 * span).fill(-Infinity);
    for (let p = 0; p < span; p++) {
      const unset = 2 * p * span;
      const set = unset + span;
      table.fill(0, unset + p, unset + span);
      for (let k = p; k < span; k++) if (this.gates.holds(gate, lo + k, lo + p)) table[set + k] = 0;
    }
    return table;
  }
}

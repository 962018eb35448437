// The variables and factors variable elimination works on (matching-elimination.ts), and their
// tables: built once over the full candidate range, then sliced to each pass's windows.
//
// Variables: 0..n-1 are the component's nodes (a node's index, its window a range of messages);
// after them come auxiliary variables, never a pass's target and never in an order constraint:
//   - b_v (2 values) for a node v with gates that need it: 1 when v's similarity counts ("every
//     gate holds", matching-gates.ts), 0 when it scores 0 (always allowed);
//   - c (K values) for a group of key gates of v on p: the key class of x_p.
// A node's gates are grouped by the node they compare with (p), and each group is placed where
// it costs least:
//   - p is one of v's references: the group is folded into v's own table, which already spans
//     x_p (0 where a gate fails; no b_v needed);
//   - key gates of one key function on a p that is no hub: a class variable c, through [c, p]
//     (0 when class(x_p) = c) and [c, b_v, v] (0 when b_v = 0 or class(x_v) = c). c is
//     deferred: the plan eliminates it only after x_p, so removing x_p from a fan (root -> p ->
//     sink) keeps the sink an order bound (a prefix maximum, O(K·T²)) where the pairwise table
//     of a general gate would need O(T³). A hub (a root before many gated children, whose class
//     counts multiply past T) gets pairwise tables instead: eliminated first, each leaves a
//     small message, while deferring all of them would make x_p's step carry them all at once;
//   - otherwise a pairwise table [p, b_v, v] (0 when b_v = 0 or every gate of the group holds)
//     or, when it is v's only group and v has no references, folded into v's table over [p, v]
//     (no b_v: the gate then acts like a reference whose index only the gate reads).
// Factors, each with a node last (its variable fastest in the table, so rows are contiguous):
//   - node v over [...references, (folded partner,) (b_v,) v]: v's similarity where its folded
//     gates hold; with b_v, -Infinity there when b_v = 1 and 0 throughout b_v = 0;
//   - the gate factors above; -Infinity elsewhere.
// Maximising over c gives back exactly "b_v = 0 or class(x_v) = class(x_p)", and over b_v the
// node's gated similarity. Every table is -Infinity (and asks nothing) where its nodes' indices
// break the ancestor order; the order constraints exclude those entries anyway.

import { giveTable, takeTable } from "../buffers.js";
import type { SimilarityLookup } from "../cache.js";
import type { GateClasses, GateLookup, GateRef } from "../gates.js";

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

/** A node's gates on one other node. */
interface GateGroup {
  readonly ref: number;
  readonly gates: readonly number[];
  /** When every gate of the group is a key gate of one key function: its classes. */
  readonly classes: GateClasses | null;
}

type FactorSource =
  | {
      readonly kind: "node";
      readonly node: number;
      /** Node variables before (b_v and) v: the references, then a folded gate partner if any. */
      readonly leading: readonly number[];
      readonly refCount: number;
      readonly gated: boolean;
      /** Folded gates, with the position of their node in `leading`. */
      readonly folded: readonly { readonly gate: number; readonly at: number }[];
    }
  | { readonly kind: "class"; readonly classes: GateClasses }
  | { readonly kind: "key"; readonly classes: GateClasses }
  | { readonly kind: "pair"; readonly gates: readonly number[] };

export class EliminationFactors {
  /** Widths of every variable over the full range: span for the nodes, then the auxiliaries'. */
  readonly fullWidths: readonly number[];
  /** Each factor's variables, a node last. */
  readonly scopes: readonly (readonly number[])[];
  /**
   * Each factor's implied orders [u, w]: its table is -Infinity wherever u's index exceeds w's
   * (a node after its leading nodes, ancestor-ordered leading nodes, a pair gate's two nodes).
   */
  readonly implied: readonly (readonly (readonly [number, number])[])[];
  /** Per auxiliary class variable: the node whose class it is (null for the other variables). */
  private readonly classOf: readonly (number | null)[];
  private readonly sources: readonly FactorSource[];
  /** Per node factor: (earlier, later) positions in `leading` of ancestor-ordered nodes. */
  private readonly leadingOrders: readonly (readonly (readonly [number, number])[])[];
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
    const span = (this.span = hi - lo + 1);
    const widths: number[] = new Array<number>(n).fill(span);
    const classOf: (number | null)[] = new Array<number | null>(n).fill(null);
    const scopes: number[][] = [];
    const sources: FactorSource[] = [];
    const leadingOrders: (readonly [number, number])[][] = [];
    const implied: (readonly [number, number])[][] = [];
    const addVariable = (width: number, of: number | null): number => {
      widths.push(width);
      classOf.push(of);
      return widths.length - 1;
    };
    const addFactor = (vars: number[], source: FactorSource): void => {
      scopes.push(vars);
      sources.push(source);
      const pairs: [number, number][] = [];
      if (source.kind === "node") {
        const { leading } = source;
        leading.forEach((a, p) => {
          leading.forEach((b, q) => {
            if (component.isAncestor(a, b)) pairs.push([p, q]);
          });
        });
      }
      leadingOrders.push(pairs);
      if (source.kind === "node") {
        const { leading, node } = source;
        implied.push([
          ...pairs.map(([p, q]): [number, number] => [leading[p]!, leading[q]!]),
          ...leading.map((u): [number, number] => [u, node]),
        ]);
      } else {
        implied.push(source.kind === "pair" ? [[vars[0]!, vars[vars.length - 1]!]] : []);
      }
    };

    const groups = component.gates.map((list) => this.groupGates(list));
    // Hubs: nodes whose class variables, all deferred, would multiply past T values.
    const classProduct = new Map<number, number>();
    groups.forEach((list, v) => {
      for (const g of list) {
        if (g.classes && !component.references[v]!.includes(g.ref))
          classProduct.set(g.ref, (classProduct.get(g.ref) ?? 1) * g.classes.count);
      }
    });
    const classAllowed = (p: number): boolean => (classProduct.get(p) ?? 1) <= span;

    for (let v = 0; v < n; v++) {
      const refs = component.references[v]!;
      const inScope = groups[v]!.filter((g) => refs.includes(g.ref));
      const out = groups[v]!.filter((g) => !refs.includes(g.ref));
      const folded = inScope.flatMap((g) => g.gates.map((gate) => ({ gate, at: refs.indexOf(g.ref) })));
      const byClass = out.filter((g) => g.classes !== null && classAllowed(g.ref));
      const byTable = out.filter((g) => !byClass.includes(g));
      if (byClass.length === 0 && byTable.length === 1 && refs.length === 0) {
        const only = byTable[0]!;
        const partnerFolded = only.gates.map((gate) => ({ gate, at: 0 }));
        addFactor([only.ref, v], { kind: "node", node: v, leading: [only.ref], refCount: 0, gated: false, folded: partnerFolded });
        continue;
      }
      if (out.length === 0) {
        addFactor([...refs, v], { kind: "node", node: v, leading: refs, refCount: refs.length, gated: false, folded });
        continue;
      }
      const b = addVariable(2, null);
      addFactor([...refs, b, v], { kind: "node", node: v, leading: refs, refCount: refs.length, gated: true, folded });
      for (const g of byTable) addFactor([g.ref, b, v], { kind: "pair", gates: g.gates });
      for (const g of byClass) {
        const classes = g.classes!;
        const c = addVariable(classes.count, g.ref);
        addFactor([c, g.ref], { kind: "class", classes });
        addFactor([c, b, v], { kind: "key", classes });
      }
    }
    this.fullWidths = widths;
    this.classOf = classOf;
    this.scopes = scopes;
    this.sources = sources;
    this.leadingOrders = leadingOrders;
    this.implied = implied;
    this.fullTables = scopes.map(() => null);
  }

  /** The gates grouped by node, in order of first appearance; key gates repeating a key function on the same node dropped. */
  private groupGates(list: readonly GateRef[]): GateGroup[] {
    const byRef = new Map<number, number[]>();
    for (const { ref, gate } of list) {
      const gates = byRef.get(ref) ?? [];
      const classes = this.gates.classes(gate);
      if (!classes || !gates.some((other) => this.gates.classes(other)?.id === classes.id)) gates.push(gate);
      byRef.set(ref, gates);
    }
    return [...byRef].map(([ref, gates]) => {
      const first = this.gates.classes(gates[0]!);
      const classes = first && gates.every((g) => this.gates.classes(g)?.id === first.id) ? first : null;
      return { ref, gates, classes };
    });
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
    this.classOf.forEach((p, c) => {
      if (p !== null) product.set(p, (product.get(p) ?? 1) * widths[c]!);
    });
    return this.classOf.map((p) => (p !== null && product.get(p)! <= widths[p]! && widths[p]! > 1 ? p : null));
  }

  /**
   * Factor f's table over the windows (min, width per variable, auxiliaries at 0 and full
   * width): the full table itself, or a slice of it, a row copy per combination of the other
   * variables. Tables are never written to. Hand a slice back with releaseSlice() when the pass ends.
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
    const table = takeTable(rows * columns); // every row is written below
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

  /** Hands back a table table(f, …) returned, unless it is f's full table (kept for later passes). */
  releaseSlice(f: number, table: Float64Array): void {
    if (table !== this.fullTables[f]) giveTable(table);
  }

  /** Hands back the full tables: after this, the factors must not be used again. */
  release(): void {
    this.fullTables.forEach((table, f) => {
      if (table) giveTable(table);
      this.fullTables[f] = null;
    });
  }

  private fullTable(f: number): Float64Array {
    const source = this.sources[f]!;
    switch (source.kind) {
      case "node":
        return this.nodeTable(f, source);
      case "class":
        return this.classTable(source.classes);
      case "key":
        return this.keyTable(source.classes);
      case "pair":
        return this.pairTable(source.gates);
    }
  }

  /**
   * Node v's table over [...leading, (b_v,) v], a row of v's indices per combination of the
   * leading nodes' indices (two rows, b_v = 0 then 1, with b_v): v's similarity where its
   * folded gates hold, else 0 (-Infinity with b_v = 1); -Infinity (and no lookup) where the
   * indices break the ancestor order. The similarity is asked once per combination of the
   * references, whatever the folded partner's index.
   */
  private nodeTable(f: number, source: Extract<FactorSource, { kind: "node" }>): Float64Array {
    const { lo, span } = this;
    const { node: v, leading, refCount, gated, folded } = source;
    const copies = gated ? 2 : 1;
    const rows = span ** leading.length;
    const table = takeTable(rows * copies * span).fill(-Infinity);
    const indices = new Array<number>(leading.length).fill(lo);
    const refIndices = new Array<number>(refCount).fill(lo);
    const pairs = this.leadingOrders[f]!;
    const similarity = new Float64Array(span);
    const failed = gated ? -Infinity : 0;
    // Key gates (the evaluator's guardrails) compare class ids directly: the same answers as
    // holds(), without a call per cell. Any pair gate among them takes the general loop.
    const foldedClasses = folded.map(({ gate }) => this.gates.classes(gate)?.of ?? null);
    const keyed = foldedClasses.every((of) => of !== null) ? (foldedClasses as Int32Array[]) : null;
    const wanted = new Int32Array(folded.length);
    // Rows per combination of the references (a folded partner, if any, varies fastest).
    const partnerRows = span ** (leading.length - refCount);
    let refsValid = false;
    let refStart = 0;
    for (let row = 0; row < rows; row++) {
      if (row % partnerRows === 0) {
        for (let j = 0; j < refCount; j++) refIndices[j] = indices[j]!;
        refsValid = true;
        for (let k = 0; k < pairs.length; k++) {
          const p = pairs[k]![0];
          const q = pairs[k]![1];
          if (p < refCount && q < refCount && indices[p]! > indices[q]!) refsValid = false;
        }
        refStart = 0;
        for (let j = 0; j < refCount; j++) refStart = Math.max(refStart, refIndices[j]! - lo);
        if (refsValid && refStart < span) this.lookup.fill(v, refIndices, lo + refStart, span - refStart, similarity, refStart);
      }
      let ordered = refsValid;
      // Index loops: this runs once per row, mostly before the code is optimised (for-of allocates).
      for (let k = 0; k < pairs.length; k++) if (indices[pairs[k]![0]]! > indices[pairs[k]![1]]!) ordered = false;
      if (ordered) {
        let start = 0; // v is after every leading node
        for (let j = 0; j < indices.length; j++) start = Math.max(start, indices[j]! - lo);
        const at = row * copies * span;
        if (gated) table.fill(0, at + start, at + span);
        const values = at + (copies - 1) * span;
        if (folded.length === 0) {
          for (let x = start; x < span; x++) table[values + x] = similarity[x]!;
        } else if (keyed) {
          for (let g = 0; g < folded.length; g++) wanted[g] = keyed[g]![indices[folded[g]!.at]! - lo]!;
          if (keyed.length === 1) writeKeyed(table, values, start, span, similarity, keyed[0]!, wanted[0]!, failed);
          else writeKeyedAll(table, values, start, span, similarity, keyed, wanted, failed);
        } else {
          for (let x = start; x < span; x++) {
            let holds = true;
            for (const { gate, at: partner } of folded) if (!(holds = this.gates.holds(gate, lo + x, indices[partner]!))) break;
            table[values + x] = holds ? similarity[x]! : failed;
          }
        }
      }
      for (let j = leading.length - 1; j >= 0; j--) {
        if (++indices[j]! <= lo + span - 1) break;
        indices[j] = lo;
      }
    }
    return table;
  }

  /** [c, p]: 0 where p's index is in class c. */
  private classTable(classes: GateClasses): Float64Array {
    const span = this.span;
    const table = takeTable(classes.count * span).fill(-Infinity);
    for (let k = 0; k < span; k++) table[classes.of[k]! * span + k] = 0;
    return table;
  }

  /** [c, b_v, v]: 0 where b_v = 0, or where v's index is in class c. */
  private keyTable(classes: GateClasses): Float64Array {
    const span = this.span;
    const table = takeTable(classes.count * 2 * span).fill(-Infinity);
    for (let c = 0; c < classes.count; c++) table.fill(0, 2 * c * span, (2 * c + 1) * span);
    for (let k = 0; k < span; k++) table[(2 * classes.of[k]! + 1) * span + k] = 0;
    return table;
  }

  /** [p, b_v, v]: 0 where p's index <= v's and b_v = 0 or every gate holds. */
  private pairTable(gates: readonly number[]): Float64Array {
    const { lo, span } = this;
    const table = takeTable(span * 2 * span).fill(-Infinity);
    for (let p = 0; p < span; p++) {
      const unset = 2 * p * span;
      const set = unset + span;
      table.fill(0, unset + p, unset + span);
      for (let k = p; k < span; k++) if (gates.every((gate) => this.gates.holds(gate, lo + k, lo + p))) table[set + k] = 0;
    }
    return table;
  }
}

/** table[values + x] = similarity[x] where x's class is `wanted`, else `failed`, for x in start..span-1. */
function writeKeyed(
  table: Float64Array,
  values: number,
  start: number,
  span: number,
  similarity: Float64Array,
  of: Int32Array,
  wanted: number,
  failed: number,
): void {
  for (let x = start; x < span; x++) table[values + x] = of[x] === wanted ? similarity[x]! : failed;
}

/** writeKeyed for several key gates, which must all hold. */
function writeKeyedAll(
  table: Float64Array,
  values: number,
  start: number,
  span: number,
  similarity: Float64Array,
  classes: readonly Int32Array[],
  wanted: Int32Array,
  failed: number,
): void {
  for (let x = start; x < span; x++) {
    let holds = true;
    for (let g = 0; g < classes.length && holds; g++) holds = classes[g]![x] === wanted[g];
    table[values + x] = holds ? similarity[x]! : failed;
  }
}

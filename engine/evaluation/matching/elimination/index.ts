// Exact max-marginals of one connected component by variable elimination (bucket elimination
// for max-sum), with order constraints handled as prefix/suffix/range maxima.
//
// Variables are the component's nodes (node v's index ranges over its window) and, for gated
// nodes, a few auxiliary variables of 2 or K values. Factors (matching-elimination-factors.ts):
//   - one per node v over [...references of v, v]: v's similarity, -Infinity where the indices
//     break the ancestor order among those nodes (the oracle is never asked there); a gated
//     node's table also spans its "gates hold" bit or a gate's node;
//   - small pairwise tables for the gates (matching-gates.ts explains the reformulation);
//   - the messages elimination creates.
// Order constraints: the transitive reduction of the component's edges.
//
// A pass computes, for a chosen target node t and the current windows, marginal(i) = the best
// total of a valid mapping inside the windows with t at index i: every other variable is
// eliminated in a greedy order (matching-elimination-plan.ts explains a step and its cost) and
// the factors left, all over t alone, are added up. Exactness: eliminating x replaces the
// factors and constraints mentioning x by their maximum over x, which is the textbook
// max-sum identity max_x Σ f = Σ_{f without x} f + max_x Σ_{f with x} f; the prefix, suffix and
// range maxima compute exactly that maximum for constraints x >= l, x <= u (a step is
// matching-elimination-step.ts).
//
// Windows first get bounds consistency along the edges (min forward, max backward in
// topological order): indices outside the tightened windows are in no valid mapping, so
// dropping them loses nothing, and a node fixed by the tie-break shrinks its neighbours'
// tables to a single row.
//
// Implied orders. Every table also records orders it enforces by holding -Infinity (a node's
// table after its references; a message over a root and a sink after eliminating a child
// between them: half its entries). A step skips the entries that break one, since their sum is
// -Infinity whatever x is: the same maxima, about half the work on a root-and-sink fan.
// Bits. Every entry is computed by the same additions in the same order however a step is
// executed (fused kernels, skipped entries, table layouts), so a pass's marginals, and with
// them the tie-break's choices, do not depend on those choices. Messages and sliced tables
// come from the pool of matching-buffers.ts and go back to it when read.
//
// Cost. A step costs about T^(|shared| + 1) × (factors involved) + T^|message scope|, so a pass
// is exponential only in the scopes the greedy order meets, i.e. in the induced width of the
// interaction graph, and linear in n:
//   - order edges forming a forest, no references: O(T) per step, O(n·T) per pass;
//   - one reference per node along tree edges (chains, stars), or a root-and-sink fan whose
//     children reference the root: O(T²) per step, O(n·T²) per pass;
//   - the same fan with the evaluator's guardrails (children gated on the root, the sink on
//     every child): O(K·T²) per child, K the sink's key classes;
//   - filling the node tables: one lookup per (node, index, reference indices) in order, the
//     oracle's own T^(refs + 1) per node, asked in the first pass and cached after.
// The tie-break runs one pass per node, so a component costs at most n passes; after the first
// they shrink, since every fixed node narrows its neighbours' windows to what stays valid.

import { giveTable, takeTable } from "../buffers.js";
import type { SimilarityLookup } from "../cache.js";
import { MatchCapacityError, type IndexWindow } from "../dag.js";
import { EliminationFactors, type EliminationComponent } from "./factors.js";
import { messageScope, planElimination, stepShape, type StepShape } from "./plan.js";
import { eliminate, type Factor, type ImpliedOrder } from "./step.js";
import type { GateLookup } from "../gates.js";
import { topologicalOrder } from "../topological-order.js";

/** Largest elimination table the strategy choice accepts (doubles): 32 MiB, like one sweep layer. */
export const MAX_ELIMINATION_TABLE = 1 << 22;

/**
 * The choice plans with node 0 kept to the end; keeping another node can add one variable to
 * a message. Passes refuse plans past this multiple of the limit rather than exhaust memory.
 */
const PASS_TABLE_SLACK = 4;

export type { EliminationComponent } from "./factors.js";

export interface Marginal {
  /** The target's first candidate index after tightening; values[k] is for index first + k. */
  readonly first: number;
  readonly values: Float64Array;
}

export class EliminationSolver {
  private readonly topological: number[];
  private readonly predecessors: number[][];
  private readonly successors: number[][];
  private readonly factors: EliminationFactors;

  constructor(
    private readonly component: EliminationComponent,
    lookup: SimilarityLookup,
    gates: GateLookup,
    lo: number,
    hi: number,
  ) {
    const n = component.nodeCount;
    this.predecessors = Array.from({ length: n }, () => []);
    this.successors = Array.from({ length: n }, () => []);
    for (const [u, v] of component.orders) {
      this.predecessors[v]!.push(u);
      this.successors[u]!.push(v);
    }
    this.topological = topologicalOrder(this.predecessors);
    this.factors = new EliminationFactors(component, lookup, gates, lo, hi);
  }

  /** Operations and largest table of a pass with every window full, for the strategy choice. */
  estimate(): { work: number; largestTable: number } {
    const { fullWidths, scopes } = this.factors;
    return planElimination(fullWidths, scopes, this.component.orders, 0, this.factors.deferUntil(fullWidths));
  }

  /** marginal(i) for the target over the windows; null when no valid mapping fits the windows. */
  marginal(target: number, windows: readonly IndexWindow[]): Marginal | null {
    const tight = this.tighten(windows);
    if (!tight) return null;
    // The auxiliary variables keep their full domains.
    const { fullWidths, scopes } = this.factors;
    const min = [...tight.min, ...new Array<number>(fullWidths.length - tight.min.length).fill(0)];
    const width = [...tight.width, ...fullWidths.slice(tight.width.length)];
    const { implied } = this.factors;
    const initial = scopes.map((_, f) => this.factors.table(f, min, width));
    let factors: Factor[] = scopes.map((vars, f) => ({ vars, table: initial[f]!, message: false, implied: implied[f]! }));
    let orders: readonly (readonly [number, number])[] = this.component.orders;
    const plan = planElimination(width, scopes, orders, target, this.factors.deferUntil(width));
    if (plan.largestTable > PASS_TABLE_SLACK * MAX_ELIMINATION_TABLE) {
      throw new MatchCapacityError(`bestMatch: elimination would build a table of ${plan.largestTable} entries for node ${target}`);
    }
    // A message is read by one later step only: its table is then free for the next message of
    // its size (a fan makes one per child), through the pool (matching-buffers.ts).
    for (const x of plan.order) {
      const shape = stepShape(
        x,
        factors.map((f) => f.vars),
        orders,
        width,
      );
      const vars = messageScope(shape);
      const size = vars.reduce((p, v) => p * width[v]!, 1);
      const out = takeTable(size); // eliminate() writes every entry
      eliminate(x, shape, factors, min, width, out);
      for (const i of shape.involved) if (factors[i]!.message) giveTable(factors[i]!.table);
      const carried = messageOrders(x, shape, factors);
      factors = factors.filter((_, i) => !shape.involved.includes(i));
      factors.push({ vars, table: out, message: true, implied: carried });
      orders = shape.keptOrders;
    }
    const values = new Float64Array(width[target]!);
    for (const f of factors) {
      if (f.vars.length === 0) for (let k = 0; k < values.length; k++) values[k]! += f.table[0]!;
      else for (let k = 0; k < values.length; k++) values[k]! += f.table[k]!;
    }
    for (const f of factors) if (f.message) giveTable(f.table);
    initial.forEach((table, f) => {
      this.factors.releaseSlice(f, table);
    });
    return { first: min[target]!, values };
  }

  /** Hands the node and gate tables back to the pool (matching-buffers.ts): the solver must not be used afterwards. */
  release(): void {
    this.factors.release();
  }

  /** Bounds consistency along the edges; null if some window becomes empty. */
  private tighten(windows: readonly IndexWindow[]): { min: number[]; width: number[] } | null {
    const min = windows.map((w) => w.min);
    const max = windows.map((w) => w.max);
    for (const v of this.topological) for (const u of this.predecessors[v]!) min[v] = Math.max(min[v]!, min[u]!);
    for (let k = this.topological.length - 1; k >= 0; k--) {
      const v = this.topological[k]!;
      for (const w of this.successors[v]!) max[v] = Math.min(max[v]!, max[w]!);
    }
    const width = min.map((m, v) => max[v]! - m + 1);
    return width.every((w) => w > 0) ? { min, width } : null;
  }
}

/**
 * The implied orders of the message eliminating x makes: those of the factors it sums that do
 * not mention x (an entry breaking one is -Infinity for every x), and [l, w] for every l bounding
 * x from below and w from above, by an order constraint or a summed factor's implied order
 * (no x lies between them when l's index exceeds w's).
 */
function messageOrders(x: number, shape: StepShape, factors: readonly Factor[]): ImpliedOrder[] {
  const below = [...shape.lowerIn.map((p) => shape.shared[p]!), ...shape.lowerOut];
  const above = [...shape.upperIn.map((p) => shape.shared[p]!), ...shape.upperOut];
  const carried: ImpliedOrder[] = [];
  const add = (u: number, w: number): void => {
    if (u !== w && !carried.some(([a, b]) => a === u && b === w)) carried.push([u, w]);
  };
  for (const i of shape.involved) {
    for (const [u, w] of factors[i]!.implied) {
      if (w === x) below.push(u);
      else if (u === x) above.push(w);
      else add(u, w);
    }
  }
  for (const l of below) for (const w of above) add(l, w);
  return carried;
}

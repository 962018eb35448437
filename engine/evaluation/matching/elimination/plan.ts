// The shape of one variable-elimination step, and a greedy elimination order with its cost.
// matching-elimination.ts executes the steps; matching-strategy.ts uses the cost to choose
// between elimination and the sweep. The executor runs the steps stepShape() describes, and
// the planner prices each candidate from the same definitions (CostScratch), so the estimate
// describes the work the executor does.
//
// Eliminating variable x (a node's index) replaces every factor that mentions x, and every
// order constraint that mentions x, by one message over the other variables involved:
//   S  = the variables sharing a factor with x;
//   lowerIn / upperIn   = the variables of S constrained below / above x;
//   lowerOut / upperOut = the variables constrained below / above x that share no factor with it.
// The message is m(s, l, u) = max over x in [max(l), min(u)] of h(s, x), where h sums the
// factors and is -Infinity where x breaks a constraint with S. Only max(l) and min(u) matter,
// so per s the executor needs one suffix maximum (only lowerOut), one prefix maximum (only
// upperOut) or one range-maximum table (both) over x: a pure order constraint costs O(T) per s
// instead of the O(T²) a general pairwise factor would. The message table still has one entry
// per combination of S ∪ lowerOut ∪ upperOut, which is what the order below keeps small.
//
// Variables are node indices and, for gated nodes, auxiliary variables without order
// constraints (matching-elimination-factors.ts); some of those are deferred until a given node
// is gone. Order: repeatedly eliminate the eligible variable whose step costs least (ties:
// smaller message, then smaller id). Greedy orders are not always optimal, but they are for the structures milestone
// DAGs have in practice (chains, trees, stars, a fan between a root and a sink: messages of at
// most two variables), and the strategy choice falls back to the sweep when the estimate is
// poor. Planning costs O(n² · F · a) for n variables, F factors of arity <= a.

export interface StepShape {
  /** Positions, in the factor list, of the factors that mention x (kept in list order). */
  readonly involved: readonly number[];
  /** Variables sharing a factor with x, ascending. */
  readonly shared: readonly number[];
  /** Positions in `shared` of variables that must not exceed / not be exceeded by x. */
  readonly lowerIn: readonly number[];
  readonly upperIn: readonly number[];
  /** Variables bounding x through an order constraint only. */
  readonly lowerOut: readonly number[];
  readonly upperOut: readonly number[];
  /** The order constraints that do not mention x, in list order. */
  readonly keptOrders: readonly (readonly [number, number])[];
}

/**
 * The step of eliminating x. With `widths`, the shared variables are ordered narrow to wide
 * (then by id) instead of by id: the message's widest variables then vary fastest in its table,
 * so the steps reading it run along contiguous memory. The order changes where entries sit,
 * never their values (each is the same sum, factor by factor in list order).
 */
export function stepShape(
  x: number,
  scopes: readonly (readonly number[])[],
  orders: readonly (readonly [number, number])[],
  widths?: readonly number[],
): StepShape {
  const involved: number[] = [];
  const sharedSet = new Set<number>();
  scopes.forEach((scope, i) => {
    if (!scope.includes(x)) return;
    involved.push(i);
    for (const v of scope) if (v !== x) sharedSet.add(v);
  });
  const shared = [...sharedSet].sort(widths ? (a, b) => widths[a]! - widths[b]! || a - b : (a, b) => a - b);
  const lowerIn: number[] = [];
  const upperIn: number[] = [];
  const lowerOut: number[] = [];
  const upperOut: number[] = [];
  const keptOrders: (readonly [number, number])[] = [];
  for (const order of orders) {
    const [u, v] = order;
    if (v === x) {
      const at = shared.indexOf(u);
      if (at >= 0) lowerIn.push(at);
      else if (!lowerOut.includes(u)) lowerOut.push(u);
    } else if (u === x) {
      const at = shared.indexOf(v);
      if (at >= 0) upperIn.push(at);
      else if (!upperOut.includes(v)) upperOut.push(v);
    } else {
      keptOrders.push(order);
    }
  }
  return { involved, shared, lowerIn, upperIn, lowerOut, upperOut, keptOrders };
}

/** The variables of the message a step produces, in table order (last fastest). */
export function messageScope(shape: StepShape): number[] {
  return [...shape.shared, ...shape.lowerOut, ...shape.upperOut];
}

interface EliminationPlan {
  /** Every variable but the kept one, in elimination order. */
  readonly order: readonly number[];
  /** Estimated operations, building the initial factors included. */
  readonly work: number;
  /** Entries of the largest table built (initial factors included). */
  readonly largestTable: number;
}

/**
 * A greedy order eliminating every variable except `keep`, for factors over `scopes` and order
 * constraints `orders` ([u, v]: u's index <= v's), with `widths[v]` values for v. A variable x
 * with deferUntil[x] = y is only eliminated after y (at once when y is `keep`); y must not be
 * deferred itself, so some variable is always eligible.
 */
export function planElimination(
  widths: readonly number[],
  scopes: readonly (readonly number[])[],
  orders: readonly (readonly [number, number])[],
  keep: number,
  deferUntil: readonly (number | null)[] = [],
): EliminationPlan {
  const liveScopes: (readonly number[])[] = [...scopes];
  let liveOrders: readonly (readonly [number, number])[] = orders;
  let work = 0;
  let largestTable = 0;
  for (const scope of scopes) {
    const size = scope.reduce((p, v) => p * widths[v]!, 1);
    work += size * scope.length;
    largestTable = Math.max(largestTable, size);
  }
  // Remaining variables in ascending order (the order candidates are tried in, which settles ties).
  const remaining: number[] = [];
  const isRemaining = new Uint8Array(widths.length);
  for (let v = 0; v < widths.length; v++) {
    if (v === keep) continue;
    remaining.push(v);
    isRemaining[v] = 1;
  }
  const scratch = new CostScratch(widths.length);

  const order: number[] = [];
  while (remaining.length > 0) {
    let chosen = -1;
    let chosenWork = Infinity;
    let chosenTable = Infinity;
    for (const x of remaining) {
      const after = deferUntil[x];
      if (after !== undefined && after !== null && isRemaining[after] === 1) continue;
      scratch.measure(x, liveScopes, liveOrders, widths);
      const better = scratch.work < chosenWork || (scratch.work === chosenWork && scratch.tableSize < chosenTable);
      if (chosen < 0 || better) {
        chosen = x;
        chosenWork = scratch.work;
        chosenTable = scratch.tableSize;
      }
    }
    const shape = stepShape(chosen, liveScopes, liveOrders);
    for (let i = shape.involved.length - 1; i >= 0; i--) liveScopes.splice(shape.involved[i]!, 1);
    liveScopes.push(messageScope(shape));
    liveOrders = shape.keptOrders;
    work += chosenWork;
    largestTable = Math.max(largestTable, chosenTable);
    remaining.splice(remaining.indexOf(chosen), 1);
    isRemaining[chosen] = 0;
    order.push(chosen);
  }
  return { order, work: work + widths[keep]! * (liveScopes.length + 1), largestTable };
}

/**
 * The cost of eliminating x, from what stepShape(x, scopes, orders) would say, without building
 * the shape (the planner prices every remaining variable at every step, n² candidates, and
 * only the chosen one's shape is needed): with S the shared variables, B the order-only bounds
 * (L below, U above) and span x's width,
 *   tableSize = |S| · |L| · |U| (products of widths), the message's entries;
 *   work = |S| · span · (factors involved + 1 + range table) + tableSize · (1 + |B|),
 * where the range table is ceil(log2 span) + 1 with bounds on both sides, 1 with bounds on one.
 * Products are taken in a fixed order (shared ascending, bounds in order of appearance).
 */
class CostScratch {
  work = 0;
  tableSize = 0;
  /** stamp[v] === this.round: v shares a factor with x (1) or bounds it by an order only (2). */
  private readonly stamp: Int32Array;
  private readonly kind: Uint8Array;
  private round = 0;

  constructor(variables: number) {
    this.stamp = new Int32Array(variables);
    this.kind = new Uint8Array(variables);
  }

  measure(
    x: number,
    scopes: readonly (readonly number[])[],
    orders: readonly (readonly [number, number])[],
    widths: readonly number[],
  ): void {
    const round = ++this.round;
    const { stamp, kind } = this;
    let involved = 0;
    for (const scope of scopes) {
      if (!scope.includes(x)) continue;
      involved++;
      for (const v of scope) {
        if (v === x || stamp[v] === round) continue;
        stamp[v] = round;
        kind[v] = 1;
      }
    }
    let sharedSize = 1;
    for (let v = 0; v < stamp.length; v++) if (stamp[v] === round && kind[v] === 1) sharedSize *= widths[v]!;
    // Bounds through order constraints only, each variable once, in order of appearance.
    let lowerCount = 0;
    let upperCount = 0;
    let lowerSize = 1;
    let upperSize = 1;
    for (const [u, v] of orders) {
      if (v === x && stamp[u] !== round) {
        stamp[u] = round;
        kind[u] = 2;
        lowerCount++;
        lowerSize *= widths[u]!;
      } else if (u === x && stamp[v] !== round) {
        stamp[v] = round;
        kind[v] = 3;
        upperCount++;
        upperSize *= widths[v]!;
      }
    }
    const span = widths[x]!;
    const bounds = lowerCount + upperCount;
    this.tableSize = sharedSize * lowerSize * upperSize;
    const rangeTable = lowerCount > 0 && upperCount > 0 ? Math.ceil(Math.log2(span)) + 1 : bounds > 0 ? 1 : 0;
    this.work = sharedSize * span * (involved + 1 + rangeTable) + this.tableSize * (1 + bounds);
  }
}

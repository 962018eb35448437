// The shape of one variable-elimination step, and a greedy elimination order with its cost.
// matching-elimination.ts executes the steps; matching-strategy.ts uses the cost to choose
// between elimination and the sweep. Both read the step shape from stepShape(), so the
// estimate describes exactly the work the executor does.
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

export function stepShape(
  x: number,
  scopes: readonly (readonly number[])[],
  orders: readonly (readonly [number, number])[],
): StepShape {
  const involved: number[] = [];
  const sharedSet = new Set<number>();
  scopes.forEach((scope, i) => {
    if (!scope.includes(x)) return;
    involved.push(i);
    for (const v of scope) if (v !== x) sharedSet.add(v);
  });
  const shared = [...sharedSet].sort((a, b) => a - b);
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

export interface StepCost {
  /** Entries of the message table. */
  readonly tableSize: number;
  /** Elementary operations, roughly: table reads and writes. */
  readonly work: number;
}

export function stepCost(x: number, shape: StepShape, widths: readonly number[]): StepCost {
  const product = (vars: readonly number[]): number => vars.reduce((p, v) => p * widths[v]!, 1);
  const sharedSize = product(shape.shared);
  const span = widths[x]!;
  const bounds = shape.lowerOut.length + shape.upperOut.length;
  const tableSize = sharedSize * product(shape.lowerOut) * product(shape.upperOut);
  const rangeTable = shape.lowerOut.length > 0 && shape.upperOut.length > 0 ? Math.ceil(Math.log2(span)) + 1 : bounds > 0 ? 1 : 0;
  const work = sharedSize * span * (shape.involved.length + 1 + rangeTable) + tableSize * (1 + bounds);
  return { tableSize, work };
}

export interface EliminationPlan {
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
  const remaining = new Set<number>();
  for (let v = 0; v < widths.length; v++) if (v !== keep) remaining.add(v);

  const order: number[] = [];
  while (remaining.size > 0) {
    let chosen = -1;
    let chosenShape: StepShape | null = null;
    let chosenCost: StepCost = { tableSize: Infinity, work: Infinity };
    for (const x of remaining) {
      const after = deferUntil[x];
      if (after !== undefined && after !== null && remaining.has(after)) continue;
      const shape = stepShape(x, liveScopes, liveOrders);
      const cost = stepCost(x, shape, widths);
      const better = cost.work < chosenCost.work || (cost.work === chosenCost.work && cost.tableSize < chosenCost.tableSize);
      if (chosen < 0 || better) {
        chosen = x;
        chosenShape = shape;
        chosenCost = cost;
      }
    }
    const shape = chosenShape!;
    for (let i = shape.involved.length - 1; i >= 0; i--) liveScopes.splice(shape.involved[i]!, 1);
    liveScopes.push(messageScope(shape));
    liveOrders = shape.keptOrders;
    work += chosenCost.work;
    largestTable = Math.max(largestTable, chosenCost.tableSize);
    remaining.delete(chosen);
    order.push(chosen);
  }
  return { order, work: work + widths[keep]! * (liveScopes.length + 1), largestTable };
}

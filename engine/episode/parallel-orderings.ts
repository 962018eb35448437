// Parallel tool calls are run in every order (reference 4.6). If any order makes any call fail, the
// calls were not truly independent, and that failing order is what the agent gets: its responses
// in that order and the world it left behind. If every order succeeds, the original order wins.

/** Index orderings of n items in itertools.permutations order; the first is the identity. */
export function* permutations(n: number): Generator<number[]> {
  const order = Array.from({ length: n }, (_, i) => i);
  for (;;) {
    yield order.slice();
    // Next lexicographic permutation, which is the order itertools yields for distinct positions.
    let i = n - 2;
    while (i >= 0 && order[i]! > order[i + 1]!) i--;
    if (i < 0) return;
    let j = n - 1;
    while (order[j]! < order[i]!) j--;
    [order[i], order[j]] = [order[j]!, order[i]!];
    for (let lo = i + 1, hi = n - 1; lo < hi; lo++, hi--) [order[lo], order[hi]] = [order[hi]!, order[lo]!];
  }
}

interface OrderingRun<T> {
  /** The positions of the original calls, in the order they ran. */
  readonly order: readonly number[];
  /** Whatever running that order produced (responses, world, random state). */
  readonly outcome: T;
  readonly failed: boolean;
}

interface AllOrderingsResult<T> extends OrderingRun<T> {
  /** How many orderings were run (the cap may leave some unchecked). */
  readonly checked: number;
}

/** 7!: seven parallel calls are checked exhaustively; beyond that the check is partial. */
export const DEFAULT_MAX_ORDERINGS = 5040;

/**
 * Runs `count` calls in each ordering until one fails, up to `maxOrderings` orderings.
 * `runOrdering` must start from the same state every time (a fresh fork, a cloned generator).
 * Returns the first failing ordering, or the original ordering when none failed.
 */
export function checkAllOrderings<T>(
  count: number,
  runOrdering: (order: readonly number[]) => { outcome: T; failed: boolean },
  maxOrderings: number = DEFAULT_MAX_ORDERINGS,
): AllOrderingsResult<T> {
  const limit = Number.isNaN(maxOrderings) ? DEFAULT_MAX_ORDERINGS : Math.max(1, Math.floor(maxOrderings));
  let original: OrderingRun<T> | null = null;
  let checked = 0;
  for (const order of permutations(count)) {
    if (checked >= limit) break;
    const { outcome, failed } = runOrdering(order);
    checked++;
    if (failed) return { order, outcome, failed, checked };
    original ??= { order, outcome, failed };
    // A single call has one ordering; nothing else to compare against.
    if (count <= 1) break;
  }
  if (!original) throw new Error("checkAllOrderings: no ordering was run");
  return { ...original, checked };
}

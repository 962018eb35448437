// One topological order for the whole matcher: the smallest node id that is ready comes first
// (the lexicographically least order). Every stage that walks the milestone DAG uses it, so their
// orders agree and each is deterministic whatever order the edges were given in.

/** The nodes left on or behind a cycle; the message names them, as `bestMatch` reports bad input. */
class CycleError extends Error {
  override readonly name = "CycleError";
  constructor(readonly stuck: readonly number[]) {
    super(`bestMatch: the edges contain a cycle through nodes ${stuck.join(", ")}`);
  }
}

/** Nodes 0..n-1 with `predecessors[v]` listing the nodes that must come before v; throws CycleError on a cycle. */
export function topologicalOrder(predecessors: readonly (readonly number[])[]): number[] {
  const n = predecessors.length;
  const remaining = predecessors.map((list) => list.length);
  const successors: number[][] = Array.from({ length: n }, () => []);
  predecessors.forEach((list, v) => {
    for (const u of list) successors[u]!.push(v);
  });
  const ready = new MinHeap();
  remaining.forEach((count, v) => {
    if (count === 0) ready.push(v);
  });
  const order: number[] = [];
  while (ready.size > 0) {
    const v = ready.pop();
    order.push(v);
    for (const w of successors[v]!) if (--remaining[w]! === 0) ready.push(w);
  }
  if (order.length < n) {
    const placed = new Set(order);
    throw new CycleError([...Array(n).keys()].filter((v) => !placed.has(v)));
  }
  return order;
}

/** A binary min-heap of node ids. */
class MinHeap {
  private readonly items: number[] = [];

  get size(): number {
    return this.items.length;
  }

  push(value: number): void {
    const items = this.items;
    let i = items.push(value) - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (items[parent]! <= value) break;
      items[i] = items[parent]!;
      i = parent;
    }
    items[i] = value;
  }

  pop(): number {
    const items = this.items;
    const top = items[0]!;
    const last = items.pop()!;
    if (items.length > 0) {
      let i = 0;
      for (;;) {
        const left = 2 * i + 1;
        if (left >= items.length) break;
        const right = left + 1;
        const child = right < items.length && items[right]! < items[left]! ? right : left;
        if (items[child]! >= last) break;
        items[i] = items[child]!;
        i = child;
      }
      items[i] = last;
    }
    return top;
  }
}

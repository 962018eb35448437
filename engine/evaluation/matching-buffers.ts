// Reuse of the matcher's large tables, within a bestMatch call and across calls.
//
// A pass of variable elimination builds messages of up to millions of entries, the node tables
// are as large, and each is dead once the pass (or the call) ends. Allocated afresh, every such
// table is memory the kernel must map and zero on first write, and external memory that makes
// V8 collect garbage early: on a 300-message wide DAG that was a collection per evaluation. The
// evaluation of a run (or of many runs, `toolsandbox eval`, the language server's background
// scoring) asks for the same sizes again and again, so dead tables wait here, by length, for
// the next request of that length.
//
// A taken table holds whatever its last user wrote: every caller overwrites all of it before
// reading. Small tables are not kept (allocating them is cheap), and the tables kept add up to
// at most POOL_LIMIT_BYTES, so an idle process holds little.

/** Tables shorter than this (doubles) are left to the garbage collector. */
const MIN_POOLED_LENGTH = 1 << 12;

/** At most this many bytes wait in the pool (beyond that, given tables are dropped). */
const POOL_LIMIT_BYTES = 32 * 2 ** 20;

const free = new Map<number, Float64Array[]>();
let pooledBytes = 0;

/** A table of `length` doubles with unspecified contents: the caller writes every entry before reading it. */
export function takeTable(length: number): Float64Array {
  const table = free.get(length)?.pop();
  if (!table) return new Float64Array(length);
  pooledBytes -= table.byteLength;
  return table;
}

/** Hands a table back; the caller must not use it (or any view of it) afterwards. */
export function giveTable(table: Float64Array): void {
  if (table.length < MIN_POOLED_LENGTH || table.byteOffset !== 0 || table.length !== table.buffer.byteLength / 8) return;
  if (pooledBytes + table.byteLength > POOL_LIMIT_BYTES) return;
  const list = free.get(table.length);
  if (list) {
    if (list.includes(table)) throw new Error("bestMatch: internal error, a table was handed back twice");
    list.push(table);
  } else {
    free.set(table.length, [table]);
  }
  pooledBytes += table.byteLength;
}

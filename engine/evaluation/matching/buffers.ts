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
// A taken table holds whatever its last user wrote: every caller writes each entry before it
// reads it (test/evaluation/matching-buffers.test.ts checks that a pass's results do not depend
// on what the tables held). Small tables are not kept (allocating them is cheap), and the tables
// kept add up to at most POOL_LIMIT_BYTES, all an idle process holds on to.

/** Tables shorter than this (doubles) are left to the garbage collector. */
const MIN_POOLED_LENGTH = 1 << 12;

/** At most this many bytes wait in the pool (beyond that, given tables are dropped). */
const POOL_LIMIT_BYTES = 32 * 2 ** 20;

const free = new Map<number, Float64Array[]>();
let pooledBytes = 0;
/** When set (tests only), every taken table is filled with this value first. */
let poison: number | null = null;

/** A table of `length` doubles with unspecified contents: the caller writes every entry before reading it. */
export function takeTable(length: number): Float64Array {
  let table = free.get(length)?.pop();
  if (table) pooledBytes -= table.byteLength;
  else table = new Float64Array(length);
  if (poison !== null) table.fill(poison);
  return table;
}

/**
 * For tests: fill every table taken from now on with `value` (null: stop), so that a reader of
 * an entry nobody wrote sees a value no pass computes, whether the table is new or reused.
 */
export function poisonTakenTables(value: number | null): void {
  poison = value;
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

// Whether this process has the memory to parse a scenario file of a given size, asked before the
// file is read. Past V8's heap limit or the process's address-space limit (`ulimit -v`), parsing
// does not fail with an error anyone can catch: V8 aborts the process (std::bad_alloc, exit 134).
// So the loader compares an estimate of what parsing needs with what is left, and refuses with one
// line naming the limit that binds.
import { readFileSync } from "node:fs";
import { getHeapStatistics } from "node:v8";

/**
 * Memory parsing and checking take per byte of the file: measured at 46 on a 4.8 MB scenario of
 * 50,000 one-line list items (the densest real shape: many small nodes), 64 with a margin. A file
 * of one long string takes far less; the estimate is for the worst shape a scenario has.
 */
const PARSE_BYTES_PER_FILE_BYTE = 64;

interface MemoryShortfall {
  /** What parsing the file is estimated to need, in bytes. */
  readonly needed: number;
  /** What is left under the limit that binds, in bytes. */
  readonly available: number;
  /** The limit that binds, and how to raise it. */
  readonly limit: "address-space limit (ulimit -v)" | "JavaScript heap limit (NODE_OPTIONS=--max-old-space-size=<MiB>)";
}

/** Bytes left under the process's address-space limit (RLIMIT_AS), or null where it has none or it cannot be read. */
function addressSpaceLeft(): number | null {
  try {
    const limit = readFileSync("/proc/self/limits", "utf8").match(/^Max address space\s+(\d+|unlimited)\s/m)?.[1];
    const sizeKb = readFileSync("/proc/self/status", "utf8").match(/^VmSize:\s+(\d+) kB$/m)?.[1];
    if (limit === undefined || limit === "unlimited" || sizeKb === undefined) return null;
    return Math.max(0, Number(limit) - Number(sizeKb) * 1024);
  } catch {
    return null;
  }
}

/** Why a file of `bytes` cannot be parsed in this process's memory, or null when it fits the estimate. */
export function memoryShortfall(bytes: number): MemoryShortfall | null {
  const needed = bytes * PARSE_BYTES_PER_FILE_BYTE;
  const heap = getHeapStatistics().total_available_size;
  const addressSpace = addressSpaceLeft();
  if (addressSpace !== null && addressSpace < heap && needed > addressSpace)
    return { needed, available: addressSpace, limit: "address-space limit (ulimit -v)" };
  if (needed > heap) return { needed, available: heap, limit: "JavaScript heap limit (NODE_OPTIONS=--max-old-space-size=<MiB>)" };
  return null;
}

// The sandbox child's memory, capped from outside it: nothing the child does changes the cap.
// Where the machine lets this process make a cgroup v2 group with the memory controller, the child
// is put in one whose memory.max is the cap, and the kernel stops it there. Everywhere with /proc,
// the host also reads what the child costs the machine every SAMPLE_MS and kills it once that is
// over the cap: between two readings the child can grow, which is the documented margin.
// What the child costs is its resident memory (VmRSS), its swapped-out memory (VmSwap) and its page
// tables (VmPTE): untouched address space costs no resident memory, but touching one byte in each
// 2 MiB of it costs a page-table page, and 4 GiB typed arrays read that way once cost 2.9 GB of page
// tables while VmRSS stayed under 1 GiB.
import { mkdirSync, readFileSync, rmdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/** How often the host reads the child's memory. */
const SAMPLE_MS = 20;

export type MemoryEnforcement = "cgroup v2 memory.max" | "resident, swap and page-table memory sampled by the host" | "none (no /proc)";

interface MemoryWatch {
  readonly enforcement: MemoryEnforcement;
  /** The highest memory (resident + swap + page tables) the host read, in bytes (0 when it could read none). */
  peakBytes(): number;
  /** After the child exited: why it was killed for its memory, or null. */
  killedFor(): string | null;
  /** Stops sampling and removes the cgroup (call once the child has exited). */
  stop(): void;
}

const MIB = 1024 * 1024;
const mib = (bytes: number): string => `${Math.round(bytes / MIB)} MiB`;
const mibs = (bytes: number): string => `${(bytes / MIB).toFixed(1)} MiB`;

/** What a process costs the machine, in bytes, from /proc/<pid>/status. */
interface ChildMemory {
  readonly resident: number;
  readonly swap: number;
  readonly pageTables: number;
  readonly total: number;
}

/** The child's memory, or null when it cannot be read (gone, or no /proc). */
function childMemory(pid: number): ChildMemory | null {
  let status: string;
  try {
    status = readFileSync(`/proc/${pid}/status`, "utf8");
  } catch {
    return null;
  }
  const field = (name: string): number | null => {
    const kb = status.match(new RegExp(`^${name}:\\s+(\\d+) kB$`, "m"))?.[1];
    return kb === undefined ? null : Number(kb) * 1024;
  };
  const resident = field("VmRSS");
  if (resident === null) return null;
  // VmSwap and VmPTE are missing only on kernels that cannot have them: nothing to count there.
  const swap = field("VmSwap") ?? 0;
  const pageTables = field("VmPTE") ?? 0;
  return { resident, swap, pageTables, total: resident + swap + pageTables };
}

/**
 * This process's cgroup v2 folder, when its children may have the memory controller (it is in
 * cgroup.subtree_control): only then can a child group with memory.max be made without moving
 * this process. Null otherwise (cgroup v1, no delegation, not allowed).
 */
function delegatedCgroup(): string | null {
  try {
    const own = readFileSync("/proc/self/cgroup", "utf8").match(/^0::(\/.*)$/m)?.[1];
    const mount = readFileSync("/proc/self/mountinfo", "utf8")
      .split("\n")
      .map((l) => l.split(" "))
      .find((f) => f[f.indexOf("-") + 1] === "cgroup2")?.[4];
    if (own === undefined || mount === undefined) return null;
    const dir = join(mount, own);
    const controllers = readFileSync(join(dir, "cgroup.subtree_control"), "utf8").split(/\s+/);
    return controllers.includes("memory") ? dir : null;
  } catch {
    return null;
  }
}

/** A cgroup for the child capped at `limitBytes` (no swap), or null when none can be made. */
function cgroupFor(pid: number, limitBytes: number): string | null {
  const parent = delegatedCgroup();
  if (parent === null) return null;
  const dir = join(parent, `toolsandbox-sandbox-${pid}`);
  try {
    mkdirSync(dir);
  } catch {
    return null;
  }
  try {
    writeFileSync(join(dir, "memory.max"), String(limitBytes));
    try {
      writeFileSync(join(dir, "memory.swap.max"), "0");
    } catch {
      // No swap accounting on this machine: memory.max alone.
    }
    writeFileSync(join(dir, "cgroup.procs"), String(pid));
    return dir;
  } catch {
    removeCgroup(dir);
    return null;
  }
}

function removeCgroup(dir: string): void {
  try {
    rmdirSync(dir);
  } catch {
    // Still holding the process, or gone already: nothing more to do.
  }
}

/**
 * Watches the child `pid` from now on; `kill(reason)` is called once when it is over `limitBytes`.
 * Model code runs only after the child reports it is ready, long after this starts.
 */
export function watchMemory(pid: number, limitBytes: number, kill: (reason: string) => void): MemoryWatch {
  const cgroup = cgroupFor(pid, limitBytes);
  let peak = 0;
  let over: string | null = null;
  const sample = (): void => {
    const used = childMemory(pid);
    if (used === null) return;
    peak = Math.max(peak, used.total);
    if (used.total > limitBytes && over === null) {
      const parts = [`resident ${mibs(used.resident)}`, `page tables ${mibs(used.pageTables)}`];
      if (used.swap > 0) parts.push(`swap ${mibs(used.swap)}`);
      over = `killed: memory over the limit of ${mib(limitBytes)} (${parts.join(", ")})`;
      kill(over);
    }
  };
  const sampling = childMemory(pid) !== null;
  const timer = sampling ? setInterval(sample, SAMPLE_MS) : undefined;
  return {
    enforcement:
      cgroup !== null ? "cgroup v2 memory.max" : sampling ? "resident, swap and page-table memory sampled by the host" : "none (no /proc)",
    peakBytes: () => peak,
    killedFor: () => {
      if (over !== null) return over;
      if (cgroup === null) return null;
      try {
        const events = readFileSync(join(cgroup, "memory.events"), "utf8");
        const kills = Number(events.match(/^oom_kill (\d+)$/m)?.[1] ?? "0");
        return kills > 0 ? `killed: memory over the limit of ${mib(limitBytes)} (the kernel's cgroup limit)` : null;
      } catch {
        return null;
      }
    },
    stop: () => {
      clearInterval(timer);
      if (cgroup !== null) removeCgroup(cgroup);
    },
  };
}

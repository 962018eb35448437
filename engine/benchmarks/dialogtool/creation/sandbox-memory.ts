// The sandbox child's memory, capped from outside it: nothing the child does changes the cap.
// Where the machine lets this process make a cgroup v2 group with the memory controller, the child
// is put in one whose memory.max is the cap, and the kernel stops it there. Everywhere with /proc,
// the host also reads the child's resident memory (VmRSS) every RSS_SAMPLE_MS and kills it once it
// is over the cap: between two readings the child can grow, which is the documented margin.
import { mkdirSync, readFileSync, rmdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/** How often the host reads the child's resident memory. */
const RSS_SAMPLE_MS = 20;

export type MemoryEnforcement = "cgroup v2 memory.max" | "resident memory sampled by the host" | "none (no /proc)";

interface MemoryWatch {
  readonly enforcement: MemoryEnforcement;
  /** The highest resident memory the host read, in bytes (0 when it could read none). */
  peakBytes(): number;
  /** After the child exited: why it was killed for its memory, or null. */
  killedFor(): string | null;
  /** Stops sampling and removes the cgroup (call once the child has exited). */
  stop(): void;
}

const MIB = 1024 * 1024;
const mib = (bytes: number): string => `${Math.round(bytes / MIB)} MiB`;

/** The child's resident memory in bytes, or null when it cannot be read (gone, or no /proc). */
function residentBytes(pid: number): number | null {
  try {
    const status = readFileSync(`/proc/${pid}/status`, "utf8");
    const kb = status.match(/^VmRSS:\s+(\d+) kB$/m)?.[1];
    return kb === undefined ? null : Number(kb) * 1024;
  } catch {
    return null;
  }
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
    const rss = residentBytes(pid);
    if (rss === null) return;
    peak = Math.max(peak, rss);
    if (rss > limitBytes && over === null) {
      over = `killed: memory over the limit of ${mib(limitBytes)} (resident ${(rss / MIB).toFixed(1)} MiB)`;
      kill(over);
    }
  };
  const sampling = residentBytes(pid) !== null;
  const timer = sampling ? setInterval(sample, RSS_SAMPLE_MS) : undefined;
  return {
    enforcement: cgroup !== null ? "cgroup v2 memory.max" : sampling ? "resident memory sampled by the host" : "none (no /proc)",
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

// Writes *.trajectory.jsonl files: the header line, then one event per line. Each line goes to
// the operating system as soon as it exists (no buffering here), so a run that is killed leaves
// a file whose every complete line is readable; at worst the last line is cut short.
import { closeSync, openSync, writeFileSync, writeSync } from "node:fs";
import type { TrajectoryHeader, TrajectoryLine } from "../episode/types.js";
import type { TrajectoryEvent } from "./events.js";

export const TRAJECTORY_SUFFIX = ".trajectory.jsonl";

/**
 * The exact text of one line. Byte-deterministic: key order is the order the engine builds its
 * objects in, and nothing here reads the clock, the timezone or the machine. A non-finite number
 * has no JSON form (JSON.stringify would silently write null), so it is refused loudly instead.
 */
export function serializeLine(line: TrajectoryLine | TrajectoryEvent): string {
  return `${JSON.stringify(line, refuseNonFinite)}\n`;
}

function refuseNonFinite(key: string, value: unknown): unknown {
  if (typeof value === "number" && !Number.isFinite(value)) {
    throw new Error(`cannot write ${String(value)} to a trajectory (property "${key}")`);
  }
  return value;
}

export class TrajectoryWriter {
  private fd: number | null;

  private constructor(
    readonly path: string,
    fd: number,
  ) {
    this.fd = fd;
  }

  /** Creates (or replaces) the file with its header line and keeps it open for appending events. */
  static create(path: string, header: TrajectoryHeader): TrajectoryWriter {
    writeFileSync(path, serializeLine(header));
    return new TrajectoryWriter(path, openSync(path, "a"));
  }

  /** Appends one event; it is in the file when this returns. */
  write(event: TrajectoryEvent): void {
    if (this.fd === null) throw new Error(`trajectory ${this.path} is already closed`);
    writeSync(this.fd, serializeLine(event));
  }

  close(): void {
    if (this.fd === null) return;
    closeSync(this.fd);
    this.fd = null;
  }
}

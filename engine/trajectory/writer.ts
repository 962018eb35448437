// Writes *.trajectory.jsonl files: the header line, then one event per line. Each line goes to
// the operating system as soon as it exists (no buffering here), so a run that is killed leaves
// a file whose every complete line is readable; at worst the last line is cut short.
import { closeSync, writeSync } from "node:fs";
import type { TrajectoryHeader, TrajectoryLine } from "../episode/types.js";
import { openForWriting } from "../base/output-files.js";
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

/** A value with no JSON form (a number too large for a float): the episode it belongs to fails, not the run. */
export class UnwritableValueError extends Error {
  constructor(
    /** "Infinity", "NaN". */
    readonly value: string,
    /** The property that holds it. */
    readonly property: string,
  ) {
    super(`cannot write ${value} to a trajectory (property "${property}")`);
    this.name = "UnwritableValueError";
  }
}

function refuseNonFinite(key: string, value: unknown): unknown {
  if (typeof value === "number" && !Number.isFinite(value)) {
    throw new UnwritableValueError(String(value), key);
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

  /**
   * Creates (or replaces) the file with its header line and keeps it open for the events. A
   * symbolic link at `path` is refused (ELOOP), never written through. A header that cannot be
   * serialized throws before the file is touched.
   */
  static create(path: string, header: TrajectoryHeader): TrajectoryWriter {
    const first = serializeLine(header);
    const fd = openForWriting(path);
    try {
      writeSync(fd, first);
    } catch (e) {
      closeSync(fd);
      throw e;
    }
    return new TrajectoryWriter(path, fd);
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

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
  // Without a replacer JSON.stringify takes V8's fast path (a replacer is called for every value,
  // several times slower). It writes NaN and ±Infinity as null, so only a line with a null can
  // hide one, and only then is the line searched for it.
  const text = JSON.stringify(line);
  if (text.includes("null")) refuseNonFinite(line, "");
  return `${text}\n`;
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

/** Throws for the first non-finite number in `value`, naming the property (or array index) that holds it. */
function refuseNonFinite(value: unknown, key: string): void {
  if (typeof value === "number") {
    if (!Number.isFinite(value)) throw new UnwritableValueError(String(value), key);
  } else if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) refuseNonFinite(value[i], String(i));
  } else if (typeof value === "object" && value !== null) {
    // for...in over the engine's plain objects: Object.entries would allocate an array per object
    // on a path every line with a null takes.
    const record = value as Record<string, unknown>;
    for (const k in record) if (Object.hasOwn(record, k)) refuseNonFinite(record[k], k);
  }
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

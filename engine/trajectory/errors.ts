// Problems found while reading a trajectory file. Both carry the 1-based line they are about, so
// a person can open the file there; neither is ever shown with a stack trace.

export class TrajectoryError extends Error {
  constructor(
    readonly file: string,
    /** 1-based line number, or null when the problem is the file as a whole. */
    readonly line: number | null,
    readonly reason: string,
  ) {
    super(`${file}${line === null ? "" : `:${line}`}: ${reason}`);
    this.name = "TrajectoryError";
  }
}

export interface TrajectoryWarning {
  readonly line: number | null;
  readonly message: string;
}

export function formatWarning(file: string, w: TrajectoryWarning): string {
  return `${file}${w.line === null ? "" : `:${w.line}`}: warning: ${w.message}`;
}

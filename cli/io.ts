// Where commands write. Commands take this instead of touching process.stdout directly, so the
// top level decides about terminals, broken pipes and colours in one place.

export interface CliIO {
  /** Writes one line (a newline is added) to stdout. */
  out(line: string): void;
  /** Writes one line to stderr. */
  err(line: string): void;
  readonly stdoutIsTTY: boolean;
  readonly stderrIsTTY: boolean;
  /** For progress bars, which redraw a line in place. */
  readonly stderr: NodeJS.WriteStream;
  /** TOOLSANDBOX_DEBUG=1: print stack traces of unexpected errors. */
  readonly debug: boolean;
}

export function processIO(): CliIO {
  return {
    out: (line) => void process.stdout.write(`${line}\n`),
    err: (line) => void process.stderr.write(`${line}\n`),
    stdoutIsTTY: process.stdout.isTTY === true,
    stderrIsTTY: process.stderr.isTTY === true,
    stderr: process.stderr,
    debug: process.env.TOOLSANDBOX_DEBUG === "1",
  };
}

/** The one-line form of every message the CLI prints about a problem. */
export function problemLine(message: string): string {
  return `toolsandbox: ${message}`;
}

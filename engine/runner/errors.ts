// Exit codes and the one error type that ends a command with one: thrown by the commands and by
// the runner they share (a trajectory that cannot be written stops a whole run). Every failure
// reaches the user as one line on stderr ("toolsandbox: <file>: <message>"); stack traces are for
// TOOLSANDBOX_DEBUG=1 only.

export const EXIT = {
  ok: 0,
  /** Validation errors, a run in which a scenario could not be played to its end, or a conversation that could not be imported. */
  failed: 1,
  usage: 2,
  /** A file or directory is missing, unreadable or cannot be written. */
  io: 3,
  malformedTrajectory: 4,
  /** A bug: an error nobody anticipated. */
  internal: 70,
  /** Stopped with Ctrl-C (128 + SIGINT). */
  interrupted: 130,
} as const;

export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

export const EXIT_CODES_HELP = `Exit codes:
  0    success
  1    validation errors, a run in which a scenario failed, or a file that could not be imported
  2    usage error (unknown command or option, bad value)
  3    input missing or unreadable (or an output that cannot be written)
  4    malformed trajectory file
  70   internal error (TOOLSANDBOX_DEBUG=1 prints the stack trace)
  130  interrupted`;

/** An error that ends the command: its one-line message for stderr, and the exit code. */
export class ExitError extends Error {
  constructor(
    message: string,
    readonly exitCode: ExitCode,
  ) {
    super(message);
    this.name = "ExitError";
  }
}

const FS_REASONS: Readonly<Record<string, string>> = {
  ENOENT: "no such file or directory",
  EACCES: "permission denied",
  EPERM: "permission denied",
  EISDIR: "is a directory",
  ENOTDIR: "not a directory",
  EMFILE: "too many open files",
  ENOSPC: "no space left on device",
  EROFS: "read-only file system",
  ELOOP: "is a symbolic link; output is never written through one (remove the link or use another --out)",
};

/** Node's file system errors as one short ExitError; anything else is returned as is. */
export function fsError(error: unknown, file: string): unknown {
  const code = typeof error === "object" && error !== null && "code" in error ? (error as { code: unknown }).code : undefined;
  if (typeof code !== "string" || !code.startsWith("E")) return error;
  const reason = FS_REASONS[code] ?? (error instanceof Error ? error.message : code);
  return new ExitError(`${file}: ${reason}`, EXIT.io);
}

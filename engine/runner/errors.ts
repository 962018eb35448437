// Exit codes and the one error type that ends a command with one: thrown by the commands and by
// the runner they share (a trajectory that cannot be written stops a whole run). Every failure
// reaches the user as one line on stderr ("toolsandbox: <file>: <message>"); stack traces are for
// TOOLSANDBOX_DEBUG=1 only.
import { fileErrorReason } from "../base/output-files.js";

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

/**
 * A role id or model option that cannot make a role (an unsupported id, a flag for another kind of
 * role, a missing API key): thrown by the role specs on the path the CLI, the extension and the
 * debugger all take; each front end says it its own way (the CLI: a usage error, exit 2).
 */
export class RoleSpecError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "RoleSpecError";
  }
}

/** Node's file system errors as one short ExitError; anything else is returned as is. */
export function fsError(error: unknown, file: string): unknown {
  const reason = fileErrorReason(error);
  return reason === null ? error : new ExitError(`${file}: ${reason}`, EXIT.io);
}

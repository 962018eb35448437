// How the engine creates what it writes (trajectories, summaries, imported scenarios, HTML):
// never through a symbolic link. A link where an output file goes is an error (ELOOP, which the
// CLI reports as one line), never a write into whatever it points at. And output directories are
// made one level at a time: Node's own recursive mkdir spins forever under /proc (node 20).
import { closeSync, constants, lstatSync, mkdirSync, openSync, renameSync, rmSync, statSync, writeSync } from "node:fs";
import { dirname, resolve } from "node:path";

// O_NOFOLLOW does not exist on Windows, where creating a symbolic link needs privileges anyway.
const NO_FOLLOW = constants.O_NOFOLLOW ?? 0;

/** Flags of a file created or emptied for writing, refusing a symbolic link in its place. */
const REPLACE = constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC | NO_FOLLOW;
/** The same for a file that must not exist yet (temporary files). */
const CREATE_NEW = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | NO_FOLLOW;

/** Opens `path` for writing from its start (created, or emptied); a symbolic link there throws ELOOP. */
export function openForWriting(path: string): number {
  return openSync(path, REPLACE, 0o666);
}

/** Writes `text` as the whole of `path`, never through a symbolic link. */
export function writeFileNoFollow(path: string, text: string): void {
  const fd = openForWriting(path);
  try {
    writeSync(fd, text);
  } finally {
    closeSync(fd);
  }
}

/**
 * Writes `text` to `path` through a new temporary file beside it and a rename, so a reader never
 * sees half a file. The rename replaces a symbolic link at `path` itself, never its target.
 */
function replaceFileAtomically(path: string, text: string): void {
  const temporary = `${path}.${process.pid}.tmp`;
  try {
    const fd = openSync(temporary, CREATE_NEW, 0o666);
    try {
      writeSync(fd, text);
    } finally {
      closeSync(fd);
    }
    renameSync(temporary, path);
  } catch (e) {
    // Only a file this call made is removed: an EEXIST (or ELOOP) temporary is someone else's.
    if (!isErrno(e, "EEXIST") && !isErrno(e, "ELOOP")) rmSync(temporary, { force: true });
    throw e;
  }
}

/** A file the engine writes could not be written: `path: reason`, the reason in a few words. */
export class OutputFileError extends Error {
  constructor(
    readonly path: string,
    readonly reason: string,
  ) {
    super(`${path}: ${reason}`);
    this.name = "OutputFileError";
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

/** A Node file system error's reason in a few words ("permission denied"); null for anything else. */
export function fileErrorReason(error: unknown): string | null {
  const code = typeof error === "object" && error !== null && "code" in error ? (error as { code: unknown }).code : undefined;
  if (typeof code !== "string" || !code.startsWith("E")) return null;
  return FS_REASONS[code] ?? (error instanceof Error ? error.message : code);
}

/**
 * Writes `text` to `path` through a temporary file in the same directory and a rename (summaries,
 * per-scenario result files); a file system error is an OutputFileError.
 */
export function writeFileAtomically(path: string, text: string): void {
  try {
    replaceFileAtomically(path, text);
  } catch (e) {
    const reason = fileErrorReason(e);
    throw reason === null ? e : new OutputFileError(path, reason);
  }
}

/** True when `path` itself (not what it points at) is a symbolic link. */
export function isSymbolicLink(path: string): boolean {
  try {
    return lstatSync(path).isSymbolicLink();
  } catch {
    return false;
  }
}

/**
 * Creates `path` and its missing parents, one level at a time; returns the first directory it
 * created (undefined when `path` already was a directory), as `mkdirSync(…, { recursive: true })`
 * does. File system errors are thrown as they are (ENOENT under /proc, ENOTDIR, EACCES).
 */
export function makeDirectories(path: string): string | undefined {
  const missing: string[] = [];
  for (let dir = resolve(path); ; dir = dirname(dir)) {
    const kind = entryKind(dir);
    if (kind === "directory") break;
    // A file where a folder must go: the error mkdir -p gives.
    if (kind === "other") throw Object.assign(new Error(`ENOTDIR: not a directory, mkdir '${dir}'`), { code: "ENOTDIR", path: dir });
    missing.push(dir);
    if (dirname(dir) === dir) break;
  }
  let first: string | undefined;
  for (const dir of missing.reverse()) {
    try {
      mkdirSync(dir);
    } catch (e) {
      // Made meanwhile by someone else (two runs into one folder) is fine.
      if (!(isErrno(e, "EEXIST") && isDirectory(dir))) throw e;
      continue;
    }
    first ??= dir;
  }
  return first;
}

function isDirectory(path: string): boolean {
  return entryKind(path) === "directory";
}

/** What is at `path`, following links: nothing (or nothing reachable), a directory, or something else. */
function entryKind(path: string): "none" | "directory" | "other" {
  try {
    return statSync(path).isDirectory() ? "directory" : "other";
  } catch {
    return "none";
  }
}

function isErrno(error: unknown, code: string): boolean {
  return typeof error === "object" && error !== null && "code" in error && (error as { code: unknown }).code === code;
}

// Runs the built CLI (dist/cli.js) the way a user does: a separate node process.
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { staleBuild } from "../../scripts/build-freshness.mjs";

export interface CliResult {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

export const CLI = join(process.cwd(), "dist", "cli.js");

/**
 * The `before` hook of every test that runs dist/: fails, in one line, when dist/ is missing or
 * older than the sources. The build happens once per test run (scripts/run-tests.mjs, `npm test`),
 * never per file: a file rebuilding dist/ rewrote dist/cli-main.js under the files running it.
 */
export function requireBuild(): void {
  const stale = staleBuild(process.cwd());
  if (stale === null) return;
  const error = new Error(stale);
  error.stack = stale; // the whole report is the one line: where it was thrown says nothing more
  throw error;
}

export function runCli(args: readonly string[], env: Readonly<Record<string, string>> = {}): CliResult {
  const result = spawnSync(process.execPath, [CLI, ...args], {
    encoding: "utf8",
    env: { PATH: process.env.PATH ?? "", ...env },
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/**
 * As runCli, without blocking this process: for runs whose model is a mock server started in the
 * test itself, which must go on answering while the CLI waits on it.
 */
export function runCliAsync(args: readonly string[], env: Readonly<Record<string, string>> = {}): Promise<CliResult> {
  const child = spawn(process.execPath, [CLI, ...args], { env: { PATH: process.env.PATH ?? "", ...env } });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve, reject) => {
    child.on("error", reject);
    child.on("close", (status) => resolve({ status, stdout, stderr }));
  });
}

const created: string[] = [];

export function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), `toolsandbox-${prefix}-`));
  created.push(dir);
  return dir;
}

/** The `after` hook of every CLI test file. */
export function removeTempDirs(): void {
  for (const dir of created.splice(0)) rmSync(dir, { recursive: true, force: true });
}

/** Non-empty lines of an output stream. */
export const lines = (text: string): string[] => text.split("\n").filter((l) => l !== "");

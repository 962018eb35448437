// What the end-to-end tests set up around the workbench: the packaged extension, a scratch copy of
// the sample workspace (the repository's own files are never opened for writing), the artifact
// folder for screenshots and logs, and a `toolsandbox mock-llm` endpoint.
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join, resolve } from "node:path";
import { freePort, onExit, startGroup, waitForHttpOk, type GroupProcess } from "./processes.js";

const ROOT = resolve(__dirname, "..", "..");
const SAMPLES = join(ROOT, "sample-scenarios");
const CLI = join(ROOT, "dist", "cli.js");

/** test-artifacts/e2e/<test file name>/, emptied first so a run's screenshots are only its own. */
export function artifactDir(testFile: string): string {
  const dir = join(ROOT, "test-artifacts", "e2e", basename(testFile).replace(/\.test\.ts$/, ""));
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  return dir;
}

const scratch: string[] = [];
onExit(() => removeScratch());

/** A fresh temporary folder, removed by `removeScratch()`. */
export function scratchDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), `toolsandbox-e2e-${prefix}-`));
  scratch.push(dir);
  return dir;
}

export function removeScratch(): void {
  for (const dir of scratch.splice(0)) rmSync(dir, { recursive: true, force: true });
}

/** A copy of sample-scenarios/ (scenarios and saved trajectories) to open as the workspace. */
export function sampleWorkspace(): string {
  const dir = join(scratchDir("workspace"), "samples");
  cpSync(SAMPLES, dir, { recursive: true });
  return dir;
}

/** Builds the bundles and the .vsix exactly as `npm run package` does, into a scratch folder. */
export function packageExtension(): string {
  const vsix = join(scratchDir("vsix"), "toolsandbox-studio.vsix");
  const result = spawnSync(process.execPath, [join(ROOT, "scripts", "package.mjs"), "--out", vsix], { cwd: ROOT, encoding: "utf8" });
  if (result.status !== 0 || !existsSync(vsix)) throw new Error(`npm run package failed:\n${result.stdout}${result.stderr}`);
  return vsix;
}

export interface MockLlm {
  readonly baseUrl: string;
  stop(): Promise<void>;
}

/** `toolsandbox mock-llm` on a free port, playing the reference of `scenarios` for either side. */
export async function startMockLlm(scenarios: string, logDir: string, faults: readonly string[] = []): Promise<MockLlm> {
  const port = await freePort();
  const logFile = join(logDir, "mock-llm.log");
  const args = [CLI, "mock-llm", "--port", String(port), "--scenarios", scenarios, ...faults.flatMap((f) => ["--fault", f])];
  const server: GroupProcess = startGroup(process.execPath, args, { env: process.env, logFile });
  const baseUrl = `http://127.0.0.1:${port}/v1`;
  try {
    await waitForHttpOk(`${baseUrl}/models`, server, 30_000, () => (existsSync(logFile) ? readFileSync(logFile, "utf8") : ""));
  } catch (e) {
    await server.stop();
    throw e;
  }
  return { baseUrl, stop: () => server.stop() };
}

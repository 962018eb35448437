// Installs one of the pinned tool folders of scripts/vscode-tools/ (a package.json and the lockfile
// that pins it) into .vscode-test/<name>/, the git-ignored folder @vscode/test-electron also keeps its
// VS Code in. Installed once, then reused while the manifest, the lockfile and Node's major version
// are unchanged (a stamp file records them).
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");
export const TOOLS_DIR = join(ROOT, ".vscode-test");

export function toolDir(name) {
  return join(TOOLS_DIR, name);
}

function stampOf(source) {
  const hash = createHash("sha256");
  for (const file of ["package.json", "package-lock.json"]) hash.update(readFileSync(join(source, file)));
  hash.update(`node ${process.versions.node.split(".")[0]}`);
  return hash.digest("hex");
}

/**
 * The environment of the tool's own `npm ci`: this process's, less the npm_* variables `npm test`
 * passes down (they describe the root project and would steer the nested npm to it), plus `settings`
 * (npm config for this install only).
 */
export function toolInstallEnv(settings = {}) {
  const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !/^npm_/i.test(key)));
  for (const [key, value] of Object.entries(settings)) env[`npm_config_${key}`] = value;
  return env;
}

/**
 * Installs `name` unless the same install is there. `before` runs first (e.g. seeding a download
 * cache) and may return one line saying why it cannot go on. Returns null, or one line saying why
 * the install failed.
 */
export function ensureTool(name, { label, expectedMinutes, settings = {}, before } = {}) {
  const source = join(ROOT, "scripts", "vscode-tools", name);
  const target = toolDir(name);
  const stampFile = join(target, ".installed");
  const stamp = stampOf(source);
  if (existsSync(stampFile) && readFileSync(stampFile, "utf8") === stamp) return null;
  const env = toolInstallEnv(settings);
  const problem = before?.(env);
  if (problem) return problem;
  const logFile = join(TOOLS_DIR, `${name}-install.log`);
  console.log(`test setup: installing ${label} into ${target} (first run only, about ${expectedMinutes} min; log in ${logFile})`);
  const started = Date.now();
  rmSync(target, { recursive: true, force: true });
  mkdirSync(target, { recursive: true });
  for (const file of ["package.json", "package-lock.json"]) copyFileSync(join(source, file), join(target, file));
  const result = spawnSync("npm", ["ci", "--no-audit", "--no-fund"], { cwd: target, env, encoding: "utf8", maxBuffer: 512 * 1024 * 1024 });
  writeFileSync(logFile, `$ npm ci (in ${target})\n${result.stdout ?? ""}${result.stderr ?? ""}`);
  if (result.status !== 0) {
    return `test setup: installing ${label} failed (npm ci exit ${result.status ?? result.signal}); see ${logFile}`;
  }
  writeFileSync(stampFile, stamp);
  console.log(`test setup: ${label} installed in ${((Date.now() - started) / 1000).toFixed(0)} s`);
  return null;
}

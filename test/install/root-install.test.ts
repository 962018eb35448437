// The root install is what a newcomer's `npm ci` runs on a bare Node machine: nothing in it may
// build native code or need a system library, and the project's npm configuration must be one npm
// knows (no warning on every command). The VS Code tools live in pinned folders of their own.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

const ROOT = resolve(__dirname, "..", "..");

interface LockEntry {
  readonly version?: string;
  readonly hasInstallScript?: boolean;
  readonly optional?: boolean;
}

function lockPackages(file: string): Record<string, LockEntry> {
  const lock: unknown = JSON.parse(readFileSync(file, "utf8"));
  assert.ok(typeof lock === "object" && lock !== null && "packages" in lock, `${file} has no "packages"`);
  return (lock as { packages: Record<string, LockEntry> }).packages;
}

const NATIVE_BUILDERS = /node-gyp|prebuild-install|node-pre-gyp|cmake-js|node-gyp-build|\bmake\b|\bgcc\b|\bg\+\+/;

/** Why the installed package at `path` compiles native code when installed, or null. */
function compilesNative(path: string): string | null {
  const dir = join(ROOT, path);
  if (!existsSync(join(dir, "package.json"))) return `${path} has an install script but is not installed here, so it cannot be checked`;
  if (existsSync(join(dir, "binding.gyp"))) return `${path} ships a binding.gyp`;
  const manifest = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as { scripts?: Record<string, string> };
  for (const phase of ["preinstall", "install", "postinstall"]) {
    const script = manifest.scripts?.[phase];
    if (script !== undefined && NATIVE_BUILDERS.test(script)) return `${path}'s ${phase} script builds native code: ${script}`;
  }
  return null;
}

test("the root lockfile holds no code-server and no package whose install script compiles native code", () => {
  const packages = lockPackages(join(ROOT, "package-lock.json"));
  const codeServer = Object.keys(packages).filter((path) => /(^|\/)node_modules\/code-server$/.test(path));
  assert.deepEqual(codeServer, [], "code-server belongs in scripts/vscode-tools/code-server, not the root install");
  const problems = Object.entries(packages)
    .filter(([path, entry]) => path !== "" && entry.hasInstallScript === true)
    .map(([path]) => compilesNative(path))
    .filter((problem): problem is string => problem !== null);
  assert.deepEqual(problems, []);
});

test("the root package.json allows install scripts only for packages that build nothing", () => {
  const manifest = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { allowScripts?: Record<string, boolean> };
  for (const [name, allowed] of Object.entries(manifest.allowScripts ?? {})) {
    if (allowed) assert.equal(compilesNative(join("node_modules", name)), null, name);
  }
});

test("the VS Code tools are pinned exactly, each by a lockfile of its own", () => {
  const pins = { "code-server": "4.100.3", "@vscode/vsce": "3.9.2" } as const;
  for (const [name, version] of Object.entries(pins)) {
    const folder = join(ROOT, "scripts", "vscode-tools", name === "code-server" ? "code-server" : "vsce");
    const manifest = JSON.parse(readFileSync(join(folder, "package.json"), "utf8")) as { devDependencies?: Record<string, string> };
    assert.equal(manifest.devDependencies?.[name], version, `${folder}/package.json pins ${name} exactly`);
    assert.equal(lockPackages(join(folder, "package-lock.json"))[`node_modules/${name}`]?.version, version);
  }
});

test("npm reads the project's configuration without a warning", () => {
  // An empty user config, and none of the npm_* variables `npm test` exports: only the project's own
  // settings (a project .npmrc, package.json) are read, as on a newcomer's machine.
  const home = mkdtempSync(join(tmpdir(), "toolsandbox-npmrc-"));
  try {
    const userconfig = join(home, ".npmrc");
    writeFileSync(userconfig, "");
    const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !/^npm_/i.test(key)));
    const result = spawnSync("npm", ["config", "list"], {
      cwd: ROOT,
      env: { ...env, npm_config_userconfig: userconfig },
      encoding: "utf8",
    });
    assert.equal(result.status, 0, result.stderr);
    assert.doesNotMatch(result.stderr, /warn/i);
    assert.doesNotMatch(result.stdout, /"project" config/, "a project .npmrc is back");
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
});

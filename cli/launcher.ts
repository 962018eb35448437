// The `toolsandbox` executable (dist/cli.js): runs the CLI bundle, dist/cli-main.js, compiled
// with V8's code cache. Compiling the 6 MB bundle, and then each function the first time it is
// called, is most of what the CLI does before its first useful step; with a cache kept from an
// earlier start, V8 reads the compiled code instead (the same idea as Node 22's
// module.enableCompileCache, which Node 20 lacks).
//
// The cache sits in the temporary directory, in a folder of this user's that nobody else can
// write to, under the build hash the bundle's first line carries (scripts/build.mjs), one per
// command (each compiles different functions). A cache that is missing, or that V8 refuses
// (another Node version), is written when the process exits.
// Nothing here may stop the CLI: any problem with the cache means compiling as usual.
// TOOLSANDBOX_DISABLE_COMPILE_CACHE=1 turns it off.
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Script } from "node:vm";

const BUNDLE = join(__dirname, "cli-main.js");
const BUILD_LINE = /^\/\/ toolsandbox-build ([0-9a-f]{16})\n/;

/** This user's cache folder, or null when it cannot be made or someone else could have written to it. */
function cacheFolder(): string | null {
  const uid = process.getuid?.();
  const folder = join(tmpdir(), `toolsandbox-compile-cache-${uid ?? "user"}`);
  try {
    mkdirSync(folder, { recursive: true, mode: 0o700 });
    const stat = statSync(folder);
    if (uid !== undefined && (stat.uid !== uid || (stat.mode & 0o022) !== 0)) return null;
    return folder;
  } catch {
    return null;
  }
}

function readCache(file: string): Buffer | undefined {
  try {
    return readFileSync(file);
  } catch {
    return undefined;
  }
}

/** Writes the code compiled so far, and removes the caches of other builds. */
function writeCache(folder: string, file: string, build: string, script: Script): void {
  try {
    const temporary = `${file}.${process.pid}.tmp`;
    writeFileSync(temporary, script.createCachedData(), { mode: 0o600 });
    renameSync(temporary, file);
    for (const name of readdirSync(folder)) {
      if (name.endsWith(".bin") && !name.startsWith(`cli-main.${build}.`)) rmSync(join(folder, name), { force: true });
    }
  } catch {
    // A cache that cannot be written only means compiling again next time.
  }
}

const source = readFileSync(BUNDLE, "utf8");
const build = BUILD_LINE.exec(source)?.[1];
const folder = build !== undefined && process.env.TOOLSANDBOX_DISABLE_COMPILE_CACHE !== "1" ? cacheFolder() : null;
const command = /^[a-z][a-z-]*$/.test(process.argv[2] ?? "") ? process.argv[2] : "other";
const cacheFile = folder === null ? null : join(folder, `cli-main.${build}.${command}.${process.version}.${process.arch}.bin`);
const cachedData = cacheFile === null ? undefined : readCache(cacheFile);
// The wrapper Node puts around a CommonJS module, so the bundle sees what it would see if required.
const script = new Script(`(function (exports, require, module, __filename, __dirname) {${source}\n})`, {
  filename: BUNDLE,
  ...(cachedData ? { cachedData } : {}),
});
if (folder !== null && cacheFile !== null && build !== undefined && (cachedData === undefined || script.cachedDataRejected === true)) {
  process.once("exit", () => writeCache(folder, cacheFile, build, script));
}
const run = script.runInThisContext() as (
  exports: object,
  require: NodeJS.Require,
  module: object,
  filename: string,
  dirname: string,
) => void;
const bundleModule = { exports: {} };
run(bundleModule.exports, createRequire(BUNDLE), bundleModule, BUNDLE, __dirname);

// Whether dist/ was built from the sources as they are now. scripts/build.mjs writes
// dist/build-stamp last; the build is current when no file it bundles or copies is newer than that
// stamp. scripts/run-tests.mjs builds once when it is not, and every test that runs the built CLI,
// server or extension checks it (test/cli/harness.ts), so no test file rebuilds dist/ under another
// that is running it.
import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";

export const BUILD_STAMP = join("dist", "build-stamp");

/**
 * What the bundles are built from: the source folders, and the files outside them build.mjs reads
 * (package-lock.json for the bundled libraries' versions; package.json's scripts and manifest do not
 * go into a bundle).
 */
const SOURCES = [
  "engine",
  "cli",
  "server",
  "client",
  "schemas",
  "test/vscode-suite",
  "scripts/build.mjs",
  "scripts/build-freshness.mjs",
  "package-lock.json",
];

function newest(path) {
  let stat;
  try {
    stat = statSync(path);
  } catch {
    return 0;
  }
  if (!stat.isDirectory()) return stat.mtimeMs;
  let latest = 0;
  for (const name of readdirSync(path)) {
    if (name === "node_modules" || name === "__pycache__") continue;
    latest = Math.max(latest, newest(join(path, name)));
  }
  return latest;
}

/**
 * Why dist/ under `root` is not current, in one line, or null when it is.
 * @param {string} root the repository's folder
 * @returns {string | null}
 */
export function staleBuild(root) {
  let built;
  try {
    built = statSync(join(root, BUILD_STAMP)).mtimeMs;
  } catch {
    return "dist/ is not built: run `npm run build` first";
  }
  for (const source of SOURCES) {
    if (newest(join(root, source)) > built) return `dist/ is older than ${source}: run \`npm run build\` first`;
  }
  return null;
}

// `npm run package [-- --out FILE]`: builds the bundles, then the .vsix with @vscode/vsce (from .vscode-test/vsce/), offline.
// The bundles carry their dependencies, so vsce is told not to walk node_modules; .vscodeignore
// picks the files. The .vsix's README is EXTENSION-README.md (written for someone who installs the
// extension; the root README is the developer's front door), which vsce stores as README.md at the
// package's root: its relative links are written from the repository root, so they hold in both
// places, and are kept as they are (there is no public repository URL for vsce to rewrite them
// against); the images and docs they point to ship in the .vsix.
import { spawnSync } from "node:child_process";
import { readFileSync, statSync } from "node:fs";
import { resolve } from "node:path";
import { VSCE_BIN, prepareVsce } from "./test-setup/index.mjs";

function fail(message) {
  console.error(`package: ${message}`);
  process.exit(1);
}

function run(args) {
  const result = spawnSync(process.execPath, args, { stdio: ["ignore", "pipe", "inherit"], encoding: "utf8" });
  if (result.status !== 0) fail(`\`node ${args.join(" ")}\` failed (exit ${result.status ?? result.signal})`);
  return result.stdout;
}

const outIndex = process.argv.indexOf("--out");
const { name, version } = JSON.parse(readFileSync("package.json", "utf8"));
const out = resolve(outIndex >= 0 ? (process.argv[outIndex + 1] ?? fail("--out needs a file name")) : `${name}-${version}.vsix`);

run(["scripts/build.mjs"]);
// vsce lives in a tool folder of its own (installed on first use), not in the root install.
const setupProblem = prepareVsce();
if (setupProblem) fail(setupProblem);
run([
  VSCE_BIN,
  "package",
  "--no-dependencies",
  "--allow-missing-repository",
  "--no-rewrite-relative-links",
  "--readme-path",
  "EXTENSION-README.md",
  "--out",
  out,
]);
console.log(`${out} (${(statSync(out).size / 1024 / 1024).toFixed(2)} MB)`);

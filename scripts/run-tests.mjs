// Runs every test file under test/ with node's built-in test runner (TypeScript through tsx).
// Node 20's runner does not expand globs itself, so the file list is built here. Before that it sets
// up what the chosen tests need beyond `npm ci` (scripts/test-setup/): Chromium for the panel and
// end-to-end tests, code-server and vsce for the end-to-end tests, Neovim for test/editors/. A step that cannot be done prints
// one line naming the command to run; the tests that needed it then fail, and so does the run.
// dist/ is built here, once, when it is older than the sources (scripts/build-freshness.mjs): the
// tests that run the built CLI, server or extension only check that it is current, so no test file
// rewrites dist/ while another runs it.
//
//   node scripts/run-tests.mjs [FILTER] [--test-concurrency=N] [other --test-* flags of node]
//
// FILTER is a substring of the test files' paths. TOOLSANDBOX_TEST_CONCURRENCY=N is the same as
// --test-concurrency=N (how many test files run at once; node's default is one fewer than the cores).
import { readdirSync, statSync } from "node:fs";
import { join, sep } from "node:path";
import { spawnSync } from "node:child_process";
import { prepare } from "./test-setup/index.mjs";
import { staleBuild } from "./build-freshness.mjs";

const args = process.argv.slice(2);
const nodeFlags = args.filter((a) => a.startsWith("--test-"));
const unknown = args.filter((a) => a.startsWith("-") && !a.startsWith("--test-"));
if (unknown.length > 0) {
  console.error(`run-tests: unknown option ${unknown[0]} (only node's --test-* options are passed on)`);
  process.exit(2);
}
const filter = args.find((a) => !a.startsWith("-"));
const concurrency = process.env.TOOLSANDBOX_TEST_CONCURRENCY;
if (concurrency && !nodeFlags.some((f) => f.startsWith("--test-concurrency"))) {
  if (!/^[1-9][0-9]*$/.test(concurrency)) {
    console.error(`run-tests: TOOLSANDBOX_TEST_CONCURRENCY must be a whole number above 0, not "${concurrency}"`);
    process.exit(2);
  }
  nodeFlags.push(`--test-concurrency=${concurrency}`);
}
function collect(dir) {
  const out = [];
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    // test/conformance/ checks against data outside the repository: its own scripts run it
    // (npm run conformance:tooltalk), never `npm test`.
    if (path === join("test", "conformance")) continue;
    if (statSync(path).isDirectory()) out.push(...collect(path));
    else if (name.endsWith(".test.ts")) out.push(path);
  }
  return out;
}
const files = collect("test").filter((f) => !filter || f.includes(filter));
const under = (folder) => files.some((f) => f.startsWith(join("test", folder) + sep));
const steps = [
  ...(under("webview") || under("e2e") ? ["browser"] : []),
  ...(under("e2e") ? ["vsce", "code-server"] : []),
  ...(under("editors") ? ["neovim"] : []),
];
const problems = prepare(steps);
if (staleBuild(process.cwd()) !== null) {
  const built = spawnSync(process.execPath, ["scripts/build.mjs"], { stdio: "inherit" });
  if (built.status !== 0) problems.push("run-tests: `npm run build` failed; the tests that run dist/ cannot run");
}
for (const line of problems) console.error(line);

const result = spawnSync(process.execPath, ["--import", "tsx", "--test", "--test-reporter=spec", ...nodeFlags, ...files], {
  stdio: "inherit",
  env: process.env,
});
for (const line of problems) console.error(line);
process.exit(problems.length > 0 ? 1 : (result.status ?? 1));

// Runs every test file under test/ with node's built-in test runner (TypeScript through tsx).
// Node 20's runner does not expand globs itself, so the file list is built here. Before that it sets
// up what the chosen tests need beyond `npm ci` (scripts/test-setup/): Chromium for the panel and
// end-to-end tests, code-server and vsce for the end-to-end tests, Neovim for test/editors/. A step that cannot be done prints
// one line naming the command to run; the tests that needed it then fail, and so does the run.
import { readdirSync, statSync } from "node:fs";
import { join, sep } from "node:path";
import { spawnSync } from "node:child_process";
import { prepare } from "./test-setup/index.mjs";

const filter = process.argv[2];
function collect(dir) {
  const out = [];
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
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
for (const line of problems) console.error(line);

const result = spawnSync(process.execPath, ["--import", "tsx", "--test", "--test-reporter=spec", ...files], {
  stdio: "inherit",
  env: process.env,
});
for (const line of problems) console.error(line);
process.exit(problems.length > 0 ? 1 : (result.status ?? 1));

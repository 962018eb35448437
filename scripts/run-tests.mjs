// Runs every test file under test/ with node's built-in test runner (TypeScript through tsx).
// Node 20's runner does not expand globs itself, so the file list is built here.
import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { spawnSync } from "node:child_process";

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
const result = spawnSync(process.execPath, ["--import", "tsx", "--test", "--test-reporter=spec", ...files], {
  stdio: "inherit",
  env: process.env,
});
process.exit(result.status ?? 1);

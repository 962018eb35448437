// `npm run conformance`: every comparison with a ToolSandbox checkout, in turn. Each part is its
// own npm script (conformance:<part>) and prints its own table; this runner checks the two
// variables once, runs the parts that exist in package.json, and ends with one line per part.
// Exit 2 without the variables; 1 when any part fails; 0 when all agree.
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";

if (!process.env.TOOLSANDBOX_UPSTREAM || !process.env.TOOLSANDBOX_PYTHON) {
  console.error("conformance needs TOOLSANDBOX_UPSTREAM=<ToolSandbox checkout> and TOOLSANDBOX_PYTHON=<python that imports it>");
  process.exit(2);
}

const ORDER = ["tools", "evaluation", "prompts"];
const scripts = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")).scripts ?? {};
const parts = ORDER.filter((p) => `conformance:${p}` in scripts);
const results = [];
for (const part of parts) {
  console.log(`\n== conformance:${part}`);
  const run = spawnSync("npm", ["run", "--silent", `conformance:${part}`], { stdio: "inherit" });
  results.push([part, run.status]);
}
console.log("");
for (const [part, status] of results) console.log(`conformance:${part}: ${status === 0 ? "agrees" : `FAILED (exit ${status})`}`);
process.exitCode = results.every(([, status]) => status === 0) ? 0 : 1;

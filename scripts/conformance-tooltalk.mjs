// `npm run conformance:tooltalk [FILTER]`: the tests against ToolTalk's published data (its 78
// conversations and eight databases), test/conformance/tooltalk/. The data is not in this
// repository: TOOLSANDBOX_TOOLTALK_DATA names its folder, else ../shared/data/tooltalk beside the
// repository. Without it the script fails with one line saying where it looked. `npm test` runs the
// same pack and evaluation on our own fixture (test/fixtures/tooltalk/) instead.
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { staleBuild } from "./build-freshness.mjs";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const given = process.env.TOOLSANDBOX_TOOLTALK_DATA;
const data = given ? resolve(given) : resolve(ROOT, "..", "shared", "data", "tooltalk");
const missing = ["easy", "tooltalk", "databases"].find((part) => !existsSync(join(data, part)));
if (missing !== undefined) {
  const how = given ? "TOOLSANDBOX_TOOLTALK_DATA" : "the default; set TOOLSANDBOX_TOOLTALK_DATA to ToolTalk's data folder";
  console.error(`conformance:tooltalk: ToolTalk's data is not at ${data} (no ${missing}/; ${how})`);
  process.exit(1);
}

function collect(dir) {
  const out = [];
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...collect(path));
    else if (name.endsWith(".test.ts")) out.push(path);
  }
  return out;
}
process.chdir(ROOT);
const filter = process.argv[2];
const files = collect(join("test", "conformance", "tooltalk")).filter((f) => !filter || f.includes(filter));
// Some of these tests run the built CLI: build once, as scripts/run-tests.mjs does.
if (staleBuild(ROOT) !== null && spawnSync(process.execPath, ["scripts/build.mjs"], { stdio: "inherit" }).status !== 0) {
  console.error("conformance:tooltalk: `npm run build` failed");
  process.exit(1);
}
const result = spawnSync(process.execPath, ["--import", "tsx", "--test", "--test-reporter=spec", ...files], {
  stdio: "inherit",
  env: { ...process.env, TOOLSANDBOX_TOOLTALK_DATA: data },
});
process.exit(result.status ?? 1);

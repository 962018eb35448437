// What `npm test` does when a browser or VS Code prerequisite is missing and it may not install it:
// one line naming the exact command, and a failed run (never a pass or a skip).
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { resolve } from "node:path";

const ROOT = resolve(__dirname, "..", "..");
const env = { ...process.env, TOOLSANDBOX_NO_INSTALL: "1", TOOLSANDBOX_CHROMIUM: "/nonexistent/chromium" };

test("a missing Chromium that may not be installed is one line with the apt-get command", () => {
  const result = spawnSync(process.execPath, ["scripts/test-setup/index.mjs", "browser"], { cwd: ROOT, env, encoding: "utf8" });
  assert.equal(result.status, 1);
  const lines = result.stderr.trim().split("\n");
  assert.equal(lines.length, 1, result.stderr);
  assert.match(lines[0]!, /^test setup: missing chromium \(.*\); run as root: apt-get update && apt-get install -y chromium$/);
});

test("the test runner fails the run when a test's prerequisite cannot be set up", () => {
  // One panel test file: it needs Chromium, which is "missing"; the runner says so and exits 1.
  const result = spawnSync(process.execPath, ["scripts/run-tests.mjs", "test/webview/security.test.ts"], {
    cwd: ROOT,
    env,
    encoding: "utf8",
    timeout: 180_000,
  });
  assert.notEqual(result.status, 0);
  assert.match(result.stderr, /test setup: missing chromium .*apt-get install -y chromium/);
});

// The outer wall, on its own: a script started with the sandbox's command line (what model code
// would have if it got past Python and Pyodide's bridge) can read no host file, write none, start
// no process and no worker. The network is closed by the child itself (sandbox.test.ts).
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, it } from "node:test";
import {
  DEFAULT_SANDBOX_LIMITS,
  defaultSandboxPaths,
  sandboxArguments,
} from "../../../../engine/benchmarks/dialogtool/creation/sandbox.js";

const dir = mkdtempSync(join(tmpdir(), "toolsandbox-permissions-"));
after(() => rmSync(dir, { recursive: true, force: true }));

it("the child's command line denies host files, writes, processes and workers", () => {
  const written = join(dir, "written.txt");
  const script = join(dir, "probe.cjs");
  writeFileSync(
    script,
    `const tries = {
  read: () => require("fs").readFileSync("/etc/passwd", "utf8"),
  write: () => require("fs").writeFileSync(${JSON.stringify(written)}, "x"),
  process: () => require("child_process").execFileSync("touch", [${JSON.stringify(written)}]),
  worker: () => new (require("worker_threads").Worker)("1", { eval: true }),
  binding: () => process.binding("tcp_wrap"),
  env: () => { if (Object.keys(process.env).length > 0) return "env"; throw Object.assign(new Error("empty"), { code: "EMPTY_ENV" }); },
};
const out = {};
for (const [name, attempt] of Object.entries(tries)) {
  try { attempt(); out[name] = "allowed"; } catch (error) { out[name] = error.code ?? error.message; }
}
process.stdout.write(JSON.stringify(out));
`,
  );
  const args = sandboxArguments({ ...defaultSandboxPaths(), childScript: script }, DEFAULT_SANDBOX_LIMITS);
  const result = spawnSync(process.execPath, args, { env: {}, encoding: "utf8" });
  assert.equal(result.status, 0, result.stderr);
  const out = JSON.parse(result.stdout) as Record<string, string>;
  assert.deepEqual(out, {
    read: "ERR_ACCESS_DENIED",
    write: "ERR_ACCESS_DENIED",
    process: "ERR_ACCESS_DENIED",
    worker: "ERR_ACCESS_DENIED",
    binding: "ERR_ACCESS_DENIED",
    env: "EMPTY_ENV",
  });
  assert.equal(existsSync(written), false);
});

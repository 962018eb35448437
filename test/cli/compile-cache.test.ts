// dist/cli.js runs the CLI bundle with V8's code cache (cli/launcher.ts). The cache must
// never change what the CLI does: a missing, damaged or refused cache means compiling as usual
// (and writing a good one), a folder others could write to is not trusted, and the cache can be
// turned off.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { chmodSync, existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { requireBuild, removeTempDirs, runCli, tempDir } from "./harness.js";
import { version } from "../../package.json";

before(requireBuild);
after(removeTempDirs);

const folderIn = (tmp: string): string => join(tmp, `toolsandbox-compile-cache-${process.getuid?.() ?? "user"}`);
const buildHash = (): string => /^\/\/ toolsandbox-build ([0-9a-f]{16})\n/.exec(readFileSync("dist/cli-main.js", "utf8"))?.[1] ?? "";

function versionWith(tmp: string, env: Readonly<Record<string, string>> = {}): void {
  const r = runCli(["--version"], { TMPDIR: tmp, ...env });
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.stdout.trim(), version);
}

test("the first start writes the cache under the bundle's build hash, and later starts use it as it is", () => {
  const tmp = tempDir("cache");
  versionWith(tmp);
  const files = readdirSync(folderIn(tmp));
  assert.deepEqual(files, [`cli-main.${buildHash()}.other.${process.version}.${process.arch}.bin`]);
  const cache = join(folderIn(tmp), files[0] ?? "");
  const written = readFileSync(cache);
  assert.ok(written.length > 100_000);
  versionWith(tmp);
  assert.ok(readFileSync(cache).equals(written), "an accepted cache is not rewritten");
  // Each command keeps its own.
  assert.equal(runCli(["tools"], { TMPDIR: tmp }).status, 0);
  assert.equal(readdirSync(folderIn(tmp)).length, 2);
});

test("a damaged cache changes nothing but is replaced", () => {
  const tmp = tempDir("damaged");
  versionWith(tmp);
  const cache = join(folderIn(tmp), readdirSync(folderIn(tmp))[0] ?? "");
  writeFileSync(cache, "not compiled code");
  versionWith(tmp);
  assert.notEqual(readFileSync(cache, "utf8"), "not compiled code");
});

test("a cache folder others can write to is ignored, and the cache can be turned off", () => {
  const shared = tempDir("shared");
  versionWith(shared);
  chmodSync(folderIn(shared), 0o777);
  const cache = join(folderIn(shared), readdirSync(folderIn(shared))[0] ?? "");
  writeFileSync(cache, "planted");
  versionWith(shared);
  assert.equal(readFileSync(cache, "utf8"), "planted", "nothing is read from or written to an untrusted folder");

  const off = tempDir("off");
  versionWith(off, { TOOLSANDBOX_DISABLE_COMPILE_CACHE: "1" });
  assert.equal(existsSync(folderIn(off)), false);
});

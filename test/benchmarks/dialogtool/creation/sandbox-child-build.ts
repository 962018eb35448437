// Bundles the sandbox's child (engine/benchmarks/dialogtool/creation/sandbox-child.ts) the way scripts/build.mjs does, into
// a temporary folder: tests run the engine from source, and the child only runs bundled.
import { build } from "esbuild";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { defaultSandboxPaths, type SandboxPaths } from "../../../../engine/benchmarks/dialogtool/creation/sandbox.js";

export async function bundleSandbox(): Promise<{ paths: SandboxPaths; remove: () => void }> {
  const dir = mkdtempSync(join(tmpdir(), "toolsandbox-sandbox-"));
  const childScript = join(dir, "creation-sandbox.cjs");
  await build({
    entryPoints: ["engine/benchmarks/dialogtool/creation/sandbox-child.ts"],
    outfile: childScript,
    bundle: true,
    platform: "node",
    target: "node20",
    format: "cjs",
    logLevel: "warning",
  });
  return {
    paths: { childScript, pyodideDir: defaultSandboxPaths().pyodideDir },
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}

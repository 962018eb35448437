// Which global types each area sees is set by its TypeScript config (tsconfig.base.json): the Node
// side (tsconfig.json: engine/, cli/, server/, the extension host) has no DOM, since the engine also
// runs in the CLI and the language server, where there is no `document`. These tests plant a file
// that uses the DOM, compile it under each area's config, and check that only the webview's accepts
// it; a file that uses only Node passes the Node side's, so a failure means the DOM, not the setup.
// The webview's config, the other way round, has no Node types: the same Node file fails there.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { after, test } from "node:test";

const ROOT = resolve(__dirname, "..", "..");
const TSC = join(ROOT, "node_modules", "typescript", "bin", "tsc");

const dirs: string[] = [];
after(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** Compiles one planted file under the given area config (its options, not its files); returns tsc's error codes. */
function compile(areaConfig: string, source: string): string[] {
  const dir = mkdtempSync(join(tmpdir(), "type-areas-"));
  dirs.push(dir);
  writeFileSync(join(dir, "planted.ts"), source);
  writeFileSync(
    join(dir, "tsconfig.json"),
    JSON.stringify({
      extends: join(ROOT, areaConfig),
      // @types/node is found from the repository, as it is for the config's own files.
      compilerOptions: { typeRoots: [join(ROOT, "node_modules", "@types")] },
      include: [],
      files: ["planted.ts"],
    }),
  );
  const result = spawnSync(process.execPath, [TSC, "-p", join(dir, "tsconfig.json")], { encoding: "utf8" });
  assert.ok(
    result.status === 0 || /error TS\d+/.test(result.stdout),
    `tsc did not run: ${result.stderr.trim().split("\n")[0] ?? result.status}`,
  );
  return [...result.stdout.matchAll(/error (TS\d+)/g)].map((m) => m[1] ?? "");
}

const USES_DOM = `export const title: string = document.title;\nexport const width: number = window.innerWidth;\nexport type Node = HTMLElement;\n`;
const USES_NODE = `import { readFileSync } from "node:fs";\nexport const cwd: string = process.cwd();\nexport const read = readFileSync;\n`;

test("the Node side (engine/, cli/, server/) does not compile a use of the DOM", () => {
  // TS2584: "Cannot find name 'document'. ... include 'dom'"; TS2304: cannot find name.
  const errors = compile("tsconfig.json", USES_DOM);
  assert.ok(errors.length >= 3, `expected document, window and HTMLElement to be unknown, got ${errors.join(", ") || "no error"}`);
  assert.ok(
    errors.every((code) => code === "TS2584" || code === "TS2304"),
    errors.join(", "),
  );
});

test("the webview's config does not compile a use of Node", () => {
  // TS2307: cannot find module 'node:fs'; TS2591: cannot find name 'process' (install @types/node).
  const errors = compile("client/webview/tsconfig.json", USES_NODE);
  assert.deepEqual([...new Set(errors)].sort(), ["TS2307", "TS2591"], errors.join(", ") || "no error");
});

test("the Node side compiles Node, and the webview's config compiles the DOM (the planted files are sound)", () => {
  assert.deepEqual(compile("tsconfig.json", USES_NODE), []);
  assert.deepEqual(compile("client/webview/tsconfig.json", USES_DOM), []);
});

/** The files of an area's program as `npm run typecheck` builds it (--listFilesOnly resolves it without checking it). */
function programFiles(areaConfig: string): string[] {
  const result = spawnSync(process.execPath, [TSC, "-p", join(ROOT, areaConfig), "--listFilesOnly"], { encoding: "utf8" });
  assert.equal(result.status, 0, result.stderr);
  return result.stdout.split("\n").filter((f) => f !== "");
}

test("the Node side's program, as `npm run typecheck` builds it, holds no DOM lib", () => {
  // A `/// <reference lib="dom" />` in any file of the program gives the DOM to all of it: that is
  // how a planted `document` in engine/ once passed.
  const files = programFiles("tsconfig.json");
  assert.ok(
    files.some((f) => f.includes("/engine/runner/")),
    "the program holds the engine",
  );
  // (The extension host shares the webview's DOM-free checks, client/webview/validate/: they are here.)
  assert.deepEqual(
    files.filter((f) => /lib\.dom(\.iterable)?\.d\.ts$/.test(f)),
    [],
  );
});

test("the webview's program, engine modules it imports included, holds no Node types", () => {
  // As with the DOM above: one `/// <reference types="node" />` in the program, or a package whose
  // types pull Node's in, would give Node's globals to every webview file.
  const files = programFiles("client/webview/tsconfig.json");
  assert.ok(
    files.some((f) => f.includes("/engine/reports/")),
    "the program holds the engine modules the runs view imports",
  );
  assert.deepEqual(
    files.filter((f) => f.includes("/@types/node/")),
    [],
  );
});

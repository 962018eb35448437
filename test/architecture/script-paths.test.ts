// The npm scripts and the files under scripts/ name repository paths as plain strings, which no
// compiler checks: when a folder moves (the floor plan moved the ToolSandbox importer from
// engine/packs/ to engine/benchmarks/), they go on pointing at the old place and fail only when
// someone runs them. This test resolves every such path and names the ones that do not exist.
import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { test } from "node:test";

const ROOT = resolve(__dirname, "..", "..");

/** Top-level folders whose paths are checked; dist/, runs/ and the like are made, not found. */
const SOURCE_ROOTS = ["engine", "cli", "server", "client", "schemas", "test", "bench", "scripts", "sample-scenarios", "examples", "docs"];
const REPO_PATH = new RegExp(`(?:^|[\\s"'\`(=])((?:${SOURCE_ROOTS.join("|")})/[\\w./-]*[\\w/])`, "g");

/** A repo-relative path that exists, allowing the .js of a TypeScript import. */
function exists(path: string): boolean {
  return existsSync(path) || (path.endsWith(".js") && existsSync(`${path.slice(0, -3)}.ts`));
}

/** Repo-relative paths written out in `text`: those starting with a source folder, no globs or templates. */
function pathsIn(text: string): string[] {
  return [...text.matchAll(REPO_PATH)].map((m) => m[1] ?? "").filter((p) => !p.includes("*") && !p.includes("${"));
}

function filesUnder(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    if (name === "node_modules" || name === "__pycache__") continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...filesUnder(path));
    else if (/\.(mjs|cjs|js|ts|py|sh)$/.test(name)) out.push(path);
  }
  return out;
}

test("every repository path an npm script names exists", () => {
  const scripts = (JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { scripts: Record<string, string> }).scripts;
  const missing: string[] = [];
  for (const [name, command] of Object.entries(scripts)) {
    for (const token of command.split(/\s+/)) {
      const path = token.replace(/^["']|["']$/g, "");
      const repoPath = SOURCE_ROOTS.some((r) => path.startsWith(`${r}/`)) || /^[\w.-]+\.(json|cjs|mjs)$/.test(path);
      if (repoPath && !path.includes("*") && !exists(join(ROOT, path))) missing.push(`${name}: ${path}`);
    }
  }
  assert.deepEqual(missing, []);
});

test("every repository path a file under scripts/ names exists: its relative imports, its path strings, its Python path joins", () => {
  const missing: string[] = [];
  for (const file of filesUnder(join(ROOT, "scripts"))) {
    const text = readFileSync(file, "utf8");
    const where = relative(ROOT, file);
    for (const m of text.matchAll(/(?:from|import)\s*\(?\s*["'](\.\.?\/[^"']+)["']/g)) {
      const target = resolve(dirname(file), m[1] ?? "");
      if (!exists(target)) missing.push(`${where}: import ${m[1]}`);
    }
    for (const path of pathsIn(text)) if (!exists(join(ROOT, path))) missing.push(`${where}: ${path}`);
    // os.path.join(HERE, "..", "engine", ...) with literal parts, HERE being the script's folder.
    for (const m of text.matchAll(/os\.path\.join\(\s*(HERE|REPO_ROOT)\s*((?:,\s*"[^"]*"\s*)+)\)/g)) {
      const parts = [...(m[2] ?? "").matchAll(/"([^"]*)"/g)].map((p) => p[1] ?? "");
      const base = m[1] === "HERE" ? dirname(file) : ROOT;
      const target = resolve(base, ...parts);
      // A join naming a file to write (an output) is not looked for; folders and inputs are.
      if (target.startsWith(ROOT) && !existsSync(target) && !/\.(tsv|json|txt)$/.test(target))
        missing.push(`${where}: ${relative(ROOT, target)}`);
    }
  }
  assert.deepEqual(missing, []);
});

// No import cycle among engine modules. Every static import counts, type-only ones included: a cycle
// of types is where a cycle of values starts, and it makes a module impossible to read alone.
// Dynamic `import()` is left out on purpose (it loads a module lazily, after both are defined).
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { test } from "node:test";

const ENGINE = resolve(__dirname, "..", "..", "engine");

function sourceFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.isFile() && entry.name.endsWith(".ts") && !entry.name.endsWith(".d.ts") ? [path] : [];
  });
}

/** `import ... from "./x.js"`, `export ... from "./x.js"` and `import "./x.js"`, with or without `type`. */
const STATIC_IMPORT = /^\s*(?:import|export)\s+(?:[^;'"]*?\s+from\s+)?["'](\.{1,2}\/[^"']+)["']/gm;

/** The engine modules a file imports statically, as paths relative to engine/. */
function staticImports(file: string, text: string): string[] {
  const found: string[] = [];
  for (const match of text.matchAll(STATIC_IMPORT)) {
    const spec = match[1] ?? "";
    const target = resolve(dirname(file), spec.replace(/\.js$/, ".ts"));
    if (target.endsWith(".ts")) found.push(relative(ENGINE, target));
  }
  return found;
}

/** One cycle per strongly connected group of modules, as a path that returns to its start; none when acyclic. */
function importCycles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  const cycles: string[][] = [];
  const state = new Map<string, "open" | "done">();
  const stack: string[] = [];
  const visit = (node: string): void => {
    state.set(node, "open");
    stack.push(node);
    for (const next of graph.get(node) ?? []) {
      const seen = state.get(next);
      if (seen === "open") cycles.push([...stack.slice(stack.indexOf(next)), next]);
      else if (seen === undefined && graph.has(next)) visit(next);
    }
    stack.pop();
    state.set(node, "done");
  };
  for (const node of [...graph.keys()].sort()) if (!state.has(node)) visit(node);
  return cycles;
}

test("the cycle finder reports a cycle of three and none in a chain", () => {
  assert.deepEqual(
    importCycles(
      new Map([
        ["a", ["b"]],
        ["b", ["c"]],
        ["c", ["a"]],
      ]),
    ),
    [["a", "b", "c", "a"]],
  );
  assert.deepEqual(
    importCycles(
      new Map([
        ["a", ["b"]],
        ["b", ["c"]],
        ["c", []],
      ]),
    ),
    [],
  );
  assert.deepEqual(staticImports(join(ENGINE, "x/y.ts"), 'import type { A } from "../z/w.js";\nexport { B } from "./v.js";'), [
    "z/w.ts",
    "x/v.ts",
  ]);
});

test("no engine module imports itself back through other modules", () => {
  const graph = new Map<string, string[]>();
  for (const file of sourceFiles(ENGINE)) graph.set(relative(ENGINE, file), staticImports(file, readFileSync(file, "utf8")));
  assert.ok(graph.size > 100, `only ${graph.size} engine modules found under ${ENGINE}`);
  const cycles = importCycles(graph).map((cycle) => cycle.join(" -> "));
  assert.deepEqual(cycles, [], `import cycles:\n${cycles.join("\n")}`);
});

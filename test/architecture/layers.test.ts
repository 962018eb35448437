// The floor plan is enforced by dependency-cruiser (.dependency-cruiser.cjs, `npm run deps` in
// `npm test`). These tests plant each kind of violation in a small tree of its own and check that
// the checker names it, and that the same tree without them passes: a rule that never fires would
// otherwise look exactly like a tree that keeps it.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { after, test } from "node:test";

const ROOT = resolve(__dirname, "..", "..");
const CONFIG = join(ROOT, ".dependency-cruiser.cjs");
const CLI = join(ROOT, "node_modules", "dependency-cruiser", "bin", "dependency-cruise.mjs");

interface Violation {
  readonly rule: string;
  readonly from: string;
  readonly to: string;
}

const trees: string[] = [];
after(() => {
  for (const tree of trees) rmSync(tree, { recursive: true, force: true });
});

/** Writes `files` (path -> the modules it imports) into a fresh tree and returns the violations found. */
function cruise(files: Readonly<Record<string, readonly string[]>>): Violation[] {
  const tree = mkdtempSync(join(tmpdir(), "layers-"));
  trees.push(tree);
  writeFileSync(
    join(tree, "tsconfig.json"),
    JSON.stringify({ compilerOptions: { module: "NodeNext", moduleResolution: "NodeNext", strict: true } }),
  );
  for (const [path, imports] of Object.entries(files)) {
    mkdirSync(dirname(join(tree, path)), { recursive: true });
    const lines = imports.map((spec, i) => `import * as m${i} from "${spec}";\nexport const v${i} = m${i};`);
    writeFileSync(join(tree, path), `${lines.join("\n")}\nexport const here = 1;\n`);
  }
  const result = spawnSync(process.execPath, [CLI, "--config", CONFIG, "--output-type", "json", "engine", "cli", "server", "client"], {
    cwd: tree,
    encoding: "utf8",
  });
  assert.ok(
    result.stdout.trim().startsWith("{"),
    `dependency-cruiser did not run: ${result.stderr.trim().split("\n")[0] ?? result.status}`,
  );
  const report = JSON.parse(result.stdout) as { summary: { violations: { rule: { name: string }; from: string; to: string }[] } };
  return report.summary.violations.map((v) => ({ rule: v.rule.name, from: v.from, to: v.to }));
}

const CLEAN: Record<string, readonly string[]> = {
  "engine/base/json.ts": [],
  "engine/world/types.ts": ["../base/json.js"],
  "engine/scenario/model.ts": ["../world/types.js", "../packs/registry.js"],
  "engine/packs/registry.ts": ["./one/index.js"],
  "engine/packs/one/index.ts": ["../../world/types.js"],
  "engine/evaluation/evaluate.ts": ["../scenario/model.js"],
  "engine/trajectory/reader.ts": ["../evaluation/evaluate.js"],
  // the engine may use Node; a webview may not reach such a module (below)
  "engine/trajectory/files.ts": ["node:fs", "../evaluation/evaluate.js"],
  "engine/benchmarks/alpha/metric.ts": ["../../trajectory/reader.js", "../../packs/one/index.js"],
  "engine/benchmarks/peers.ts": ["./alpha/metric.js"],
  "engine/runner/play.ts": ["../benchmarks/peers.js"],
  "server/main.ts": ["../engine/scenario/model.js"],
  "cli/main.ts": ["../engine/runner/play.js", "../server/main.js"],
  "server/service/hover.ts": ["../../engine/scenario/model.js"],
  "server/handlers/features.ts": ["../service/hover.js"],
  "client/extension.ts": ["../engine/runner/play.js", "./host/panel.js"],
  "client/host/panel.ts": ["../../engine/runner/play.js"],
  "client/webview/app.ts": ["../../engine/scenario/model.js", "./view/text.js"],
  "client/webview/view/text.ts": [],
};

test("a tree whose imports all point down passes", () => {
  assert.deepEqual(cruise(CLEAN), []);
});

test("each planted violation is named by its rule, and nothing else is", () => {
  const planted: Record<string, readonly string[]> = {
    ...CLEAN,
    // upward across layers, and an engine module reaching into the CLI
    "engine/base/limits.ts": ["../runner/play.js"],
    "engine/evaluation/stats.ts": ["../trajectory/reader.js"],
    "engine/runner/options.ts": ["../../cli/main.js"],
    // an import cycle inside one folder
    "engine/world/a.ts": ["./b.js"],
    "engine/world/b.ts": ["./a.js"],
    // the editor's API in the engine
    "engine/runner/editor.ts": ["vscode"],
    // one pack's world from another, and from the core
    "engine/packs/two/index.ts": ["../one/index.js"],
    "engine/scenario/defaults.ts": ["../packs/one/index.js"],
    // one benchmark from another
    "engine/benchmarks/beta/metric.ts": ["../alpha/metric.js"],
    // a folder with no place in the order
    "engine/misc/helper.ts": ["../base/json.js"],
    // the client is the top: the server and the CLI never import it
    "cli/extra.ts": ["../client/extension.js"],
    // the webview reaching into the extension host, or into Node
    "client/webview/host-link.ts": ["../host/panel.js"],
    "client/webview/files.ts": ["node:fs"],
    // ... or into Node through an engine module (a type the view needs, beside code that reads files)
    "client/webview/run-list.ts": ["../../engine/trajectory/files.js"],
    // the language service importing the protocol wiring above it
    "server/service/definition.ts": ["../handlers/features.js"],
  };
  const found = cruise(planted)
    .map((v) => `${v.rule} ${v.from}`)
    .sort();
  assert.deepEqual(
    found,
    [
      "engine-folders-known engine/misc/helper.ts",
      "engine-no-vscode engine/runner/editor.ts",
      "layer-base engine/base/limits.ts",
      "layer-evaluation engine/evaluation/stats.ts",
      "layer-runner engine/runner/options.ts",
      "no-circular engine/world/a.ts", // a cycle is reported once, at the module where it was entered
      "no-cross-benchmark engine/benchmarks/beta/metric.ts",
      "no-cross-pack engine/packs/two/index.ts",
      "packs-behind-contract engine/scenario/defaults.ts",
      "top-cli cli/extra.ts",
      "webview-no-host client/webview/host-link.ts",
      "webview-no-node client/webview/files.ts",
      "webview-no-node client/webview/run-list.ts",
      "service-no-handlers server/service/definition.ts",
    ].sort(),
  );
});

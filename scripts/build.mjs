// Bundles the CLI, the language server and the extension with esbuild.
// One bundle per entry point so each ships without node_modules (the .vsix stays small).
import { build } from "esbuild";
import { createHash } from "node:crypto";
import { cpSync, existsSync, mkdirSync, chmodSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { BUILD_STAMP } from "./build-freshness.mjs";

const require = createRequire(import.meta.url);

const VALIDATOR = "engine/scenario/scenario-validator.ts";
const PRECOMPILED = /engine[\\/]scenario[\\/]scenario-validator-precompiled\.ts$/;

/** A TypeScript module of ours, bundled on the fly (its packages left to require) and loaded: its exports. */
async function loadModule(entry) {
  const { outputFiles } = await build({
    entryPoints: [entry],
    bundle: true,
    platform: "node",
    format: "cjs",
    packages: "external",
    write: false,
    logLevel: "warning",
  });
  const module = { exports: {} };
  new Function("module", "exports", "require", outputFiles[0].text)(module, module.exports, require);
  return module.exports;
}

/**
 * ajv's standalone code for the scenario schema, from schemas/scenario.schema.json as it is now,
 * compiled by the same ajv as the engine's (scenarioAjv in the validator module, loaded here).
 * Compiling at every start took longer than checking a whole suite of scenarios.
 */
async function scenarioValidatorCode() {
  const { scenarioAjv, SCENARIO_SCHEMA } = await loadModule(VALIDATOR);
  const ajv = scenarioAjv(true);
  ajv.addSchema(SCENARIO_SCHEMA);
  const { default: standaloneCode } = require("ajv/dist/standalone");
  return standaloneCode(ajv, { precompiledValidator: SCENARIO_SCHEMA.$id });
}

const TRAJECTORY_SCHEMA = "engine/trajectory/schema.ts";
const TRAJECTORY_PRECOMPILED = /engine[\\/]trajectory[\\/]schema-precompiled\.ts$/;

/**
 * The same for the trajectory schema's three validators (line, header, event), compiled by
 * trajectoryAjv: compiling them took half a second of every `eval` and `replay`.
 */
async function trajectoryValidatorCode() {
  const { trajectoryAjv, TRAJECTORY_VALIDATOR_REFS } = await loadModule(TRAJECTORY_SCHEMA);
  const { default: standaloneCode } = require("ajv/dist/standalone");
  return standaloneCode(trajectoryAjv(true), { ...TRAJECTORY_VALIDATOR_REFS });
}

/** Puts the precompiled validators in place of the modules that, run from source, have none. */
const precompiledValidators = (scenarioCode, trajectoryCode) => ({
  name: "precompiled-validators",
  setup(b) {
    b.onLoad({ filter: PRECOMPILED }, () => ({ contents: scenarioCode, loader: "js", resolveDir: process.cwd() }));
    if (trajectoryCode !== null) {
      b.onLoad({ filter: TRAJECTORY_PRECOMPILED }, () => ({ contents: trajectoryCode, loader: "js", resolveDir: process.cwd() }));
    }
  },
});

const common = {
  bundle: true,
  platform: "node",
  target: "node20",
  format: "cjs",
  sourcemap: true,
  logLevel: "warning",
  // Bundled libraries keep their licence notices: each bundle gets a <bundle>.LEGAL.txt beside it,
  // which the .vsix ships (the bundles themselves stay free of comment blocks).
  legalComments: "linked",
  plugins: existsSync(VALIDATOR)
    ? [precompiledValidators(await scenarioValidatorCode(), existsSync(TRAJECTORY_SCHEMA) ? await trajectoryValidatorCode() : null)]
    : [],
};

mkdirSync("dist", { recursive: true });
// A build cut short leaves no stamp, so it never passes for current.
rmSync(BUILD_STAMP, { force: true });
// The language server and the extension ship in the .vsix: without whitespace and with shorter
// syntax they are a third smaller and load no slower. Identifiers are not renamed: that made them
// load ~5% slower (keepNames another ~5%), and stack traces in VS Code's logs keep their names.
const shipped = { minifyWhitespace: true, minifySyntax: true };
// The CLI is two files: dist/cli-main.js, the bundle, and dist/cli.js, the executable that runs it
// with V8's code cache (cli/launcher.ts). The bundle's first line names its build: the
// hash of its own text, under which the launcher keeps the cache.
const BUILD_LINE = `// toolsandbox-build ${"0".repeat(16)}`;
const entries = [
  { entryPoints: ["cli/main.ts"], outfile: "dist/cli-main.js", banner: { js: BUILD_LINE } },
  { entryPoints: ["cli/launcher.ts"], outfile: "dist/cli.js", banner: { js: "#!/usr/bin/env node" }, sourcemap: false },
  { entryPoints: ["server/main.ts"], outfile: "dist/server.js", ...shipped },
  { entryPoints: ["client/extension.ts"], outfile: "dist/extension.js", external: ["vscode"], ...shipped },
  // The extension's worker for re-scoring long runs off the host's event loop (client/host/scoring-worker.ts).
  { entryPoints: ["client/host/scoring-worker.ts"], outfile: "dist/scoring-worker.js", ...shipped },
  // The tool-creation sandbox's child process (engine/benchmarks/dialogtool/creation/sandbox.ts starts it, locked down).
  { entryPoints: ["engine/benchmarks/dialogtool/creation/sandbox-child.ts"], outfile: "dist/creation-sandbox.cjs" },
  // The debugger's scoring thread (engine/debug/prefix-scores.ts starts it beside the CLI's or the extension's bundle).
  { entryPoints: ["engine/debug/prefix-worker.ts"], outfile: "dist/prefix-scoring-worker.js", ...shipped },
  // The in-host test suite (test/vscode-suite/), loaded by VS Code from `extensionTestsPath`.
  { entryPoints: ["test/vscode-suite/index.ts"], outfile: "dist/test/vscode-suite.js", external: ["vscode"] },
];
// The run/replay panel: browser code, one script + one stylesheet (dist/webview.css, from the CSS it
// imports). No source map comment in the bundle: the HTML export inlines it, and must not point
// the browser at a file it does not ship.
const webview = {
  entryPoints: ["client/webview/main.ts"],
  outfile: "dist/webview.js",
  platform: "browser",
  format: "iife",
  target: ["chrome114", "firefox115", "safari16"],
  minify: true,
  sourcemap: "external",
};
// The runs view (the extension's and `report --html`'s): the same kind of bundle, dist/runs.js + .css.
const runsView = { ...webview, entryPoints: ["client/webview/runs/main.ts"], outfile: "dist/runs.js" };
const bundles = [...entries, webview, runsView].filter((e) => existsSync(e.entryPoints[0])).map((e) => ({ ...common, ...e }));
await Promise.all(bundles.map((b) => build(b)));
/** Puts the bundle's hash in its first line. Same length as the placeholder, so the source map still lines up. */
function stampCliBundle() {
  if (!existsSync("dist/cli-main.js")) return;
  const text = readFileSync("dist/cli-main.js", "utf8");
  if (!text.startsWith(BUILD_LINE)) return;
  const hash = createHash("sha256").update(text).digest("hex").slice(0, 16);
  writeFileSync("dist/cli-main.js", text.replace(BUILD_LINE, `// toolsandbox-build ${hash}`));
}
stampCliBundle();
if (existsSync("dist/cli.js")) chmodSync("dist/cli.js", 0o755);
// The ToolSandbox importer runs Python scripts of ours (the exporter, and upstream's scoring for
// `eval --against-upstream`) and merges our reference solutions: data files the bundle reads from
// beside itself (dist/toolsandbox-importer/).
const IMPORTER = "engine/benchmarks/toolsandbox/importer";
if (existsSync(`${IMPORTER}/exporter.py`)) {
  rmSync("dist/toolsandbox-importer", { recursive: true, force: true });
  mkdirSync("dist/toolsandbox-importer", { recursive: true });
  cpSync(`${IMPORTER}/exporter.py`, "dist/toolsandbox-importer/exporter.py");
  cpSync(`${IMPORTER}/upstream_score.py`, "dist/toolsandbox-importer/upstream_score.py");
  cpSync(`${IMPORTER}/references`, "dist/toolsandbox-importer/references", { recursive: true });
}
// Pyodide (WebAssembly CPython) for the tool-creation sandbox: the files the child reads, beside
// the bundle, so nothing is fetched at run time and the child may read this folder alone.
const PYODIDE_FILES = ["pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json"];
let pyodideDir = null;
try {
  pyodideDir = require.resolve("pyodide/package.json").replace(/package\.json$/, "");
} catch {
  console.warn("pyodide is not installed: create-tools will not run from this build");
}
if (pyodideDir) {
  rmSync("dist/pyodide", { recursive: true, force: true });
  mkdirSync("dist/pyodide", { recursive: true });
  for (const file of PYODIDE_FILES) if (existsSync(pyodideDir + file)) cpSync(pyodideDir + file, `dist/pyodide/${file}`);
}
// Written last: the tests run against dist/ only when no source is newer than this
// (scripts/build-freshness.mjs).
writeFileSync(BUILD_STAMP, `${new Date().toISOString()}\n`);

// `npm run watch` (node scripts/build.mjs --watch): after the build above, esbuild rebuilds each
// bundle when a file it holds changes. The lines "[watch] build started" / "[watch] build finished"
// are what .vscode/tasks.json waits for before it launches the extension. The schema's precompiled
// validator, the importer's files and Pyodide are made once, at the start: restart the watch after
// changing schemas/ or them.
if (process.argv.includes("--watch")) {
  const { context } = await import("esbuild");
  let running = 0;
  let failed = false;
  const progress = {
    name: "watch-progress",
    setup(b) {
      b.onStart(() => {
        if (running++ === 0) {
          failed = false;
          console.log("[watch] build started");
        }
      });
      b.onEnd((result) => {
        if (result.errors.length > 0) failed = true;
        if (b.initialOptions.outfile === "dist/cli-main.js") stampCliBundle();
        if (--running === 0) {
          // A current stamp only for a build that succeeded (scripts/build-freshness.mjs).
          if (!failed) writeFileSync(BUILD_STAMP, `${new Date().toISOString()}\n`);
          console.log("[watch] build finished");
        }
      });
    },
  };
  const contexts = await Promise.all(bundles.map((b) => context({ ...b, plugins: [...b.plugins, progress] })));
  await Promise.all(contexts.map((c) => c.watch()));
}

// Bundles the CLI, the language server and the extension with esbuild.
// One bundle per entry point so each ships without node_modules (the .vsix stays small).
import { build } from "esbuild";
import { existsSync, mkdirSync, chmodSync } from "node:fs";
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);

const VALIDATOR = "engine/scenario/scenario-validator.ts";
const PRECOMPILED = /engine[\\/]scenario[\\/]scenario-validator-precompiled\.ts$/;

/**
 * ajv's standalone code for the scenario schema, from schemas/scenario.schema.json as it is now,
 * compiled by the same ajv as the engine's (scenarioAjv in the validator module, loaded here).
 * Compiling at every start took longer than checking a whole suite of scenarios.
 */
async function scenarioValidatorCode() {
  const { outputFiles } = await build({ entryPoints: [VALIDATOR], bundle: true, platform: "node", format: "cjs", packages: "external", write: false, logLevel: "warning" });
  const module = { exports: {} };
  new Function("module", "exports", "require", outputFiles[0].text)(module, module.exports, require);
  const { scenarioAjv, SCENARIO_SCHEMA } = module.exports;
  const ajv = scenarioAjv(true);
  ajv.addSchema(SCENARIO_SCHEMA);
  const { default: standaloneCode } = require("ajv/dist/standalone");
  return standaloneCode(ajv, { precompiledValidator: SCENARIO_SCHEMA.$id });
}

/** Puts the precompiled validator in place of the module that, run from source, has none. */
const precompiledValidator = (code) => ({
  name: "precompiled-scenario-validator",
  setup(b) {
    b.onLoad({ filter: PRECOMPILED }, () => ({ contents: code, loader: "js", resolveDir: process.cwd() }));
  },
});

const common = {
  bundle: true,
  platform: "node",
  target: "node20",
  format: "cjs",
  sourcemap: true,
  logLevel: "warning",
  legalComments: "none",
  plugins: existsSync(VALIDATOR) ? [precompiledValidator(await scenarioValidatorCode())] : [],
};

mkdirSync("dist", { recursive: true });
const entries = [
  { entryPoints: ["engine/cli/main.ts"], outfile: "dist/cli.js", banner: { js: "#!/usr/bin/env node" } },
  { entryPoints: ["server/main.ts"], outfile: "dist/server.js" },
  { entryPoints: ["client/extension.ts"], outfile: "dist/extension.js", external: ["vscode"] },
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
await Promise.all([
  ...entries.filter((e) => existsSync(e.entryPoints[0])).map((e) => build({ ...common, ...e })),
  ...(existsSync(webview.entryPoints[0]) ? [build({ ...common, ...webview })] : []),
]);
if (existsSync("dist/cli.js")) chmodSync("dist/cli.js", 0o755);

// What the browser and VS Code tests need beyond the root `npm ci`, set up on first use:
//   browser      Debian's Chromium and fonts (the panel tests, the end-to-end tests, bench:panel)
//   vsce         @vscode/vsce, which packages the .vsix (`npm run package`, the end-to-end tests)
//   code-server  code-server 4.100.3 (VS Code 1.100.3) for the end-to-end tests
//   neovim       Debian's Neovim, which test/editors/ drives headless
// `node scripts/test-setup/index.mjs browser vsce code-server neovim` sets up the ones named; the test runner
// calls the same functions for the tests it was asked to run. Each returns null, or one line.
import { join } from "node:path";
import { ensurePackages } from "./debian.mjs";
import { seedRipgrepCache } from "./ripgrep-cache.mjs";
import { ROOT, TOOLS_DIR, ensureTool, toolDir } from "./tool-install.mjs";

export const CODE_SERVER_ENTRY = join(toolDir("code-server"), "node_modules", "code-server", "out", "node", "entry.js");
export const VSCE_BIN = join(toolDir("vsce"), "node_modules", "@vscode", "vsce", "vsce");

const APT_LOG = join(TOOLS_DIR, "apt-install.log");

export function prepareBrowser() {
  return ensurePackages(["chromium", "fonts-liberation"], APT_LOG);
}

export function prepareNeovim() {
  return ensurePackages(["neovim"], APT_LOG);
}

export function prepareVsce() {
  return ensureTool("vsce", { label: "@vscode/vsce 3.9.2", expectedMinutes: 0.5 });
}

export function prepareCodeServer() {
  return ensureTool("code-server", {
    label: "code-server 4.100.3",
    expectedMinutes: 3,
    // For this install only: code-server's postinstall refuses to run as root without unsafe-perm;
    // node-pty's postinstall runs `npx node-gyp`, which must not stop to ask (yes); and that
    // postinstall runs nested `npm install`s in code-server's own lib/vscode, whose package.json can
    // carry no allowScripts list of ours, so install scripts are allowed for the whole (pinned,
    // lockfile- and shrinkwrap-locked) tree here, never in the root project.
    settings: { unsafe_perm: "true", yes: "true", dangerously_allow_all_scripts: "true" },
    before: (env) =>
      ensurePackages(["libkrb5-dev", "ripgrep", "python3", "make", "g++"], APT_LOG) ??
      seedRipgrepCache(join(ROOT, "scripts", "vscode-tools", "code-server", "package-lock.json"), env),
  });
}

const STEPS = { browser: prepareBrowser, vsce: prepareVsce, "code-server": prepareCodeServer, neovim: prepareNeovim };

/** Runs the named steps in order; returns the lines of those that failed. */
export function prepare(names) {
  const problems = [];
  for (const name of names) {
    const step = STEPS[name];
    if (!step) throw new Error(`test setup: unknown step ${name} (known: ${Object.keys(STEPS).join(", ")})`);
    const problem = step();
    if (problem) problems.push(problem);
  }
  return problems;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const problems = prepare(process.argv.slice(2).length > 0 ? process.argv.slice(2) : Object.keys(STEPS));
  for (const line of problems) console.error(line);
  process.exit(problems.length > 0 ? 1 : 0);
}

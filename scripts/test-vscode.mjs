// `npm run test:vscode`: the in-host suite (test/vscode-suite/, bundled by scripts/build.mjs into
// dist/test/vscode-suite.js) under @vscode/test-electron, in a desktop VS Code with this checkout
// as the extension under development and a scratch copy of sample-scenarios/ as the workspace.
//
// @vscode/test-electron downloads VS Code (into .vscode-test/) unless VSCODE_EXECUTABLE names an
// installed one; VSCODE_VERSION picks the download (default: the newest stable). On Linux without
// a display, run it under xvfb-run. Machines that reach only the npm registry cannot download VS
// Code: there test/e2e/in-host.test.ts runs the same suite inside code-server.
import { cpSync, existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { SilentReporter, downloadAndUnzipVSCode, runTests } from "@vscode/test-electron";

const root = resolve(".");
const suite = join(root, "dist", "test", "vscode-suite.js");
if (!existsSync(suite)) {
  console.error(`test:vscode: ${suite} is missing; run \`npm run build\` first`);
  process.exit(1);
}

const reason = (e) => (e instanceof Error ? e.message : String(e)).split("\n")[0];

let vscodeExecutablePath = process.env.VSCODE_EXECUTABLE;
if (!vscodeExecutablePath) {
  const version = process.env.VSCODE_VERSION ?? "stable";
  try {
    // Silent: offline, the console reporter prints a spinner and each failed request's stack.
    vscodeExecutablePath = await downloadAndUnzipVSCode({ version, reporter: new SilentReporter(), timeout: 30_000 });
  } catch (e) {
    console.error(
      `test:vscode: cannot download VS Code ${version} (${reason(e)}). Run it where VS Code can be downloaded, ` +
        "or set VSCODE_EXECUTABLE to an installed VS Code; test/e2e/in-host.test.ts runs the same suite in code-server.",
    );
    process.exit(1);
  }
}

const workspace = join(mkdtempSync(join(tmpdir(), "toolsandbox-vscode-suite-")), "samples");
cpSync(join(root, "sample-scenarios"), workspace, { recursive: true });
try {
  await runTests({
    vscodeExecutablePath,
    extensionDevelopmentPath: root,
    extensionTestsPath: suite,
    launchArgs: [workspace, "--disable-extensions", "--disable-workspace-trust", "--skip-welcome", "--skip-release-notes"],
  });
} catch (e) {
  console.error(`test:vscode: the in-host suite failed (${reason(e)})`);
  process.exitCode = 1;
} finally {
  rmSync(join(workspace, ".."), { recursive: true, force: true });
}

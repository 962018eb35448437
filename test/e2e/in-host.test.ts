// The in-host suite (test/vscode-suite/, what `npm run test:vscode` runs under
// @vscode/test-electron) run inside code-server: the page URL's `payload` loads the extension from
// this checkout (extensionDevelopmentPath) and the suite (extensionTestsPath); the workbench
// reports the suite's console output and exit code through codeAutomationLog/codeAutomationExit.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { CodeServer } from "./code-server.js";
import { artifactDir, removeScratch, sampleWorkspace } from "./fixtures.js";
import { requireBuild } from "../cli/harness.js";
import { Workbench } from "./workbench.js";

const ROOT = resolve(__dirname, "..", "..");
const SUITE = join(ROOT, "dist", "test", "vscode-suite.js");
const artifacts = artifactDir(__filename);
let server: CodeServer | undefined;
let workbench: Workbench | undefined;

before(() => requireBuild()); // dist/ current: the extension and the suite's bundle (scripts/build.mjs)

after(async () => {
  await workbench?.close();
  await server?.stop(join(artifacts, "logs"));
  removeScratch();
});

/** Console output as the host forwards it: (type, args) with args already turned into strings or values. */
function logLine(type: unknown, args: unknown): string {
  const parts = Array.isArray(args) ? args.map((a) => (typeof a === "string" ? a : JSON.stringify(a))) : [String(args)];
  return `${typeof type === "string" ? type : "log"}: ${parts.join(" ")}`;
}

test("the in-host suite passes inside code-server", { timeout: 300_000 }, async () => {
  server = await CodeServer.start();
  const workspace = sampleWorkspace();
  const log: string[] = [];
  let exit: (code: number) => void = () => undefined;
  const exited = new Promise<number>((resolve) => (exit = resolve));
  const remote = server;
  workbench = await Workbench.open(remote, workspace, artifacts, {
    payload: [
      ["extensionDevelopmentPath", remote.remoteUri(ROOT)],
      ["extensionTestsPath", remote.remoteUri(SUITE)],
    ],
    expose: {
      codeAutomationLog: (type, args) => void log.push(logLine(type, args)),
      codeAutomationExit: (code) => exit(typeof code === "number" ? code : 1),
    },
  });
  const code = await exited;
  await workbench.screenshot("suite-finished");
  writeFileSync(join(artifacts, "suite.log"), `${log.join("\n")}\n`);
  // The suite's own lines (the workbench logs its start-up through the same channel).
  const output = log.filter((l) => /[✔✖]|vscode-suite|^error:/.test(l)).join("\n");
  assert.match(output, /vscode-suite: 5 of 5 checks passed/, output);
  assert.equal(code, 0, output);
});

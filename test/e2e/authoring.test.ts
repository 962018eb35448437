// Authoring a scenario in code-server with the packaged extension installed from its .vsix: the
// language server reports a mistake while it is typed and drops it once fixed, and completion
// offers the catalog's tools. One workbench for the whole file; each step leaves a screenshot in
// test-artifacts/e2e/authoring/.
import { after, before } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { CodeServer } from "./code-server.js";
import { artifactDir, packageExtension, removeScratch, sampleWorkspace } from "./fixtures.js";
import { stepsOn } from "./steps.js";
import { Workbench } from "./workbench.js";

const SCENARIO = "add_contact_with_name_and_phone_number_adapted.scenario.yaml";
const ALLOW_LINE = 11; // `  allow: [add_contact]`
const artifacts = artifactDir(__filename);
let server: CodeServer | undefined;
let workbench: Workbench;
const step = stepsOn(() => workbench);
let workspace = "";

before(async () => {
  const vsix = packageExtension();
  workspace = sampleWorkspace();
  server = await CodeServer.start({ install: [vsix] });
  workbench = await Workbench.open(server, workspace, artifacts);
});

after(async () => {
  await workbench?.close();
  await server?.stop(join(artifacts, "logs"));
  removeScratch();
});

step("the extension installed from the .vsix gives scenario files their language", async () => {
  const editor = await workbench.openEditor(SCENARIO);
  await workbench.page.locator(".statusbar-item", { hasText: "ToolSandbox Scenario" }).waitFor();
  await workbench.screenshot("scenario-opened");
  assert.equal(await editor.locator(".squiggly-error").count(), 0, "the sample has no errors");
});

step("a misspelt tool is underlined while typing, listed in Problems, and cleared when fixed", async () => {
  const editor = workbench.activeEditor();
  await workbench.goTo(ALLOW_LINE, "  allow: [add_contact".length + 1);
  await workbench.type("s");
  await workbench.press("Escape"); // close the suggestions that typing opened
  await editor.locator(".squiggly-error").first().waitFor();
  await workbench.runCommand("View: Focus Problems (Errors, Warnings, Infos)");
  const problem = workbench.page.locator(".markers-panel .monaco-list-row", { hasText: "add_contacts" }).first();
  await problem.waitFor();
  await workbench.screenshot("diagnostic-shown");
  assert.match((await problem.textContent()) ?? "", /Unknown tool "add_contacts"\. Did you mean "add_contact"\?/);

  await workbench.goTo(ALLOW_LINE, "  allow: [add_contacts".length + 1);
  await workbench.press("Backspace");
  await editor.locator(".squiggly-error").first().waitFor({ state: "detached" });
  await workbench.page.locator(".markers-panel .monaco-list-row", { hasText: "add_contacts" }).waitFor({ state: "detached" });
  await workbench.screenshot("diagnostic-cleared");
});

step("completion in tools.allow offers the catalog's tools and accepting one writes its name", async () => {
  await workbench.goTo(ALLOW_LINE, "  allow: [add_contact".length + 1);
  await workbench.type(", search_con");
  await workbench.press("Control+Space");
  const suggestion = workbench.page.locator(".suggest-widget .monaco-list-row", { hasText: "search_contacts" }).first();
  await suggestion.waitFor();
  await workbench.screenshot("completion-offered");
  await suggestion.click();
  await workbench.press("Mod+S");
  await workbench.page.locator(".tabs-container .tab.dirty").waitFor({ state: "detached" });
  await workbench.screenshot("completion-accepted");
  const saved = readFileSync(join(workspace, SCENARIO), "utf8");
  assert.match(saved, /^ {2}allow: \[add_contact, search_contacts\]$/m);
});

// Authoring a scenario in code-server with the packaged extension installed from its .vsix: the
// language server reports a mistake while it is typed and drops it once fixed, and completion
// offers the catalog's tools. One workbench for the whole file; each step leaves a screenshot in
// test-artifacts/e2e/authoring/.
import { after, before } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { CodeServer } from "./code-server.js";
import { artifactDir, packageExtension, removeScratch, sampleWorkspace } from "./fixtures.js";
import { stepsOn } from "./steps.js";
import { Workbench } from "./workbench.js";

const SCENARIO = "add_contact_with_name_and_phone_number_adapted.scenario.yaml";
const ALLOW_LINE = 11; // `  allow: [add_contact]`
const MILESTONES_LINE = 17; // `milestones:`
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

step("the scenario's strength shows as a CodeLens on milestones:, and the wrong agent it passes as a warning", async () => {
  const editor = workbench.activeEditor();
  await workbench.goTo(MILESTONES_LINE, 1);
  // Measured in the language server's worker once the reference has been scored.
  const lens = editor.locator(".codelens-decoration", { hasText: "strength 4/5" });
  await lens.waitFor();
  assert.match((await lens.textContent()) ?? "", /^strength 4\/5 \(80%\) · 1 wrong agent passes · 1 right agent refused/);
  await workbench.runCommand("View: Focus Problems (Errors, Warnings, Infos)");
  const survivor = workbench.page.locator(".markers-panel .monaco-list-row", { hasText: "A wrong agent passes" }).first();
  await survivor.waitFor();
  await workbench.screenshot("strength-shown");
  assert.match((await survivor.textContent()) ?? "", /survived extra-write: add_contact/);
  assert.equal(await editor.locator(".squiggly-error").count(), 0, "strength findings are never errors");
});

step(
  "the Testing view shows the strength under the scenario, and a survivor's Open Surviving Run writes its run and opens the panel",
  async () => {
    await workbench.runCommand("Testing: Focus on Test Explorer View");
    const page = workbench.page;
    const rowLabelled = (pattern: RegExp) =>
      page.locator(".test-explorer .monaco-list-row").filter({ has: page.locator(".label", { hasText: pattern }) });
    const scenario = rowLabelled(/^add_contact_with_name_and_phone_number_adapted(?!_)/);
    await scenario.waitFor();
    await scenario.locator(".monaco-tl-twistie").click();
    const strength = rowLabelled(/^strength 4\/5 \(80%\) · 1 wrong agent passes/);
    await strength.waitFor();
    await strength.locator(".monaco-tl-twistie").click();
    const survivor = rowLabelled(/^survived extra-write: add_contact/);
    await survivor.waitFor();
    await workbench.screenshot("strength-in-testing-view");
    await survivor.hover();
    await survivor.locator('.action-label[aria-label="Open Surviving Run"]').click();
    await workbench.page.locator(".tab", { hasText: "add_contact_with_name_and_phone_number_adapted.survivor-" }).waitFor();
    // The replay panel plays the run as it plays any saved run: its messages, and the score the wrong agent got.
    await workbench.webview().locator("[data-testid=message-count]").waitFor({ state: "attached" });
    await workbench.screenshot("surviving-run-opened");
    const folder = join(workspace, ".toolsandbox", "strength");
    const [file] = readdirSync(folder);
    assert.match(file ?? "", /^add_contact_with_name_and_phone_number_adapted\.survivor-\d+\.trajectory\.jsonl$/);
    await workbench.openEditor(SCENARIO);
  },
);

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

/** The saved scenario once `done` holds for it, else as it is after `timeoutMs`: the caller asserts on it. */
async function savedWhen(done: (text: string) => boolean, timeoutMs = 60_000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const text = readFileSync(join(workspace, SCENARIO), "utf8");
    if (done(text) || Date.now() > deadline) return text;
    await new Promise((wake) => setTimeout(wake, 100));
  }
}

// Each action waits for the state the next one needs, never for a moment: on a loaded machine the
// completion once arrived (or was applied) late, and the save wrote the line without it.
step("completion in tools.allow offers the catalog's tools and accepting one writes its name", async () => {
  const editor = workbench.activeEditor();
  const allowLine = (text: string) => editor.locator(".view-line", { hasText: text });
  await workbench.goTo(ALLOW_LINE, "  allow: [add_contact".length + 1);
  await workbench.type(", search_con");
  await allowLine("allow: [add_contact, search_con]").waitFor();
  await workbench.press("Control+Space");
  const suggestion = workbench.page.locator(".suggest-widget.visible .monaco-list-row", { hasText: "search_contacts" }).first();
  await suggestion.waitFor();
  await workbench.screenshot("completion-offered");
  await suggestion.click();
  await allowLine("allow: [add_contact, search_contacts]").waitFor();
  await workbench.page.locator(".suggest-widget.visible").waitFor({ state: "detached" });
  await workbench.press("Mod+S");
  const wanted = /^ {2}allow: \[add_contact, search_contacts\]$/m;
  const saved = await savedWhen((text) => wanted.test(text));
  await workbench.page.locator(".tabs-container .tab.dirty").waitFor({ state: "detached" });
  await workbench.screenshot("completion-accepted");
  assert.match(saved, wanted);
});

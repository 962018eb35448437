// Issue 39, items 4, 6, 8 and 9, in code-server with the packaged extension: the Get Started
// walkthrough opens; New Scenario creates a file that indents by two and shows in the ToolSandbox
// view; time zones are completed while `timezone:` sits indented under `now:`; the compare
// pickers say what they pick; a milestone breakpoint stops with its own line highlighted, the
// Debug Console completes a column and prints the score at the end. Screenshots, light and dark,
// in test-artifacts/e2e/way-in/ (the ones the extension's README shows are copied to docs/images/).
import { after, before } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { CodeServer } from "./code-server.js";
import { artifactDir, packageExtension, removeScratch, sampleWorkspace } from "./fixtures.js";
import { stepsOn } from "./steps.js";
import { Workbench } from "./workbench.js";

const NAME = "send_message_with_contact_content_cellular_off_adapted";
const SCENARIO = `${NAME}.scenario.yaml`;
const NEW_NAME = "greeting_check";
const artifacts = artifactDir(__filename);
let server: CodeServer | undefined;
let workbench: Workbench;
const step = stepsOn(() => workbench);
let workspace = "";

const THEMES = { light: "Default Light Modern", dark: "Default Dark Modern" } as const;

function writeSettings(theme: keyof typeof THEMES): void {
  writeFileSync(
    join(workspace, ".vscode", "settings.json"),
    JSON.stringify({ "files.autoSave": "off", "workbench.colorTheme": THEMES[theme] }, null, 2),
  );
}

/** Switches the colour theme through the workspace settings and waits for the workbench to redraw in it. */
async function useTheme(theme: keyof typeof THEMES): Promise<void> {
  writeSettings(theme);
  await workbench.page.locator(`.monaco-workbench.${theme === "dark" ? "vs-dark" : "vs"}`).waitFor({ state: "attached" });
}

/** The same view in both themes: `<name>-light.png` and `<name>-dark.png`. */
async function screenshotBoth(name: string): Promise<void> {
  await useTheme("light");
  await workbench.screenshot(`${name}-light`);
  await useTheme("dark");
  await workbench.screenshot(`${name}-dark`);
  await useTheme("light");
}

before(async () => {
  const vsix = packageExtension();
  workspace = sampleWorkspace();
  mkdirSync(join(workspace, ".vscode"));
  writeSettings("light");
  writeFileSync(
    join(workspace, ".vscode", "launch.json"),
    JSON.stringify({
      version: "0.2.0",
      configurations: [
        {
          type: "toolsandbox",
          request: "launch",
          name: "Debug the sample",
          program: `\${workspaceFolder}/${SCENARIO}`,
          stopOnEntry: true,
        },
      ],
    }),
  );
  server = await CodeServer.start({ install: [vsix] });
  workbench = await Workbench.open(server, workspace, artifacts);
});

after(async () => {
  await workbench?.close();
  await server?.stop(join(artifacts, "logs"));
  removeScratch();
});

/** The file's text once `done` holds for it, else as it is after `timeoutMs`: the caller asserts on it. */
async function savedWhen(file: string, done: (text: string) => boolean, timeoutMs = 60_000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const text = readFileSync(file, "utf8");
    if (done(text) || Date.now() > deadline) return text;
    await new Promise((wake) => setTimeout(wake, 100));
  }
}

const quickInputTitle = () => workbench.page.locator(".quick-input-widget .quick-input-title");
const suggestion = (label: string) =>
  workbench.page
    .locator(".suggest-widget.visible .monaco-list-row", { has: workbench.page.locator(".label-name", { hasText: label }) })
    .first();

step("the walkthrough opens from Welcome: Open Walkthrough…, with its five steps", async () => {
  await workbench.runCommand("Welcome: Open Walkthrough...", { opensQuickPick: true });
  await workbench.filterQuickInput("ToolSandbox");
  await workbench.page.locator(".quick-input-list .monaco-list-row.focused", { hasText: "Get Started with ToolSandbox Studio" }).waitFor();
  await workbench.press("Enter");
  const page = workbench.page.locator(".gettingStartedContainer");
  for (const title of ["Write a scenario", "Run it", "Debug it", "Run a suite", "Try an agent"])
    await page.locator(".step-title", { hasText: title }).first().waitFor();
  await page.locator(".getting-started-step.expanded .step-title", { hasText: "Write a scenario" }).waitFor();
  await page
    .locator(".getting-started-step.expanded a, .getting-started-step.expanded button", { hasText: "New Scenario" })
    .first()
    .waitFor();
  await screenshotBoth("walkthrough");
});

step("New Scenario creates <name>.scenario.yaml that indents by two, listed in the ToolSandbox view", async () => {
  await workbench.runCommand("ToolSandbox: New Scenario", { opensQuickPick: true });
  await quickInputTitle().filter({ hasText: "ToolSandbox: New Scenario" }).waitFor();
  await workbench.filterQuickInput(NEW_NAME);
  await workbench.press("Enter");
  await workbench.page.locator(`.editor-group-container.active .tab.active[data-resource-name="${NEW_NAME}.scenario.yaml"]`).waitFor();
  const editor = workbench.activeEditor();
  await editor.locator(".view-line", { hasText: `name: ${NEW_NAME}` }).waitFor();
  await workbench.press("Escape"); // leave the snippet's fields
  await workbench.page.locator(".statusbar-item", { hasText: /^\s*Spaces: 2\s*$/ }).waitFor();
  // Enter after `user:` opens the next level two spaces in.
  const file = join(workspace, `${NEW_NAME}.scenario.yaml`);
  await workbench.press("Mod+S");
  const userLine = (await savedWhen(file, (t) => t.includes("\nuser:\n"))).split("\n").indexOf("user:") + 1;
  assert.ok(userLine > 0, "the template has a user: line");
  await workbench.goTo(userLine, "user:".length + 1);
  await workbench.press("Enter");
  await workbench.type("persona_x");
  await workbench.press("Escape");
  await editor.locator(".view-line", { hasText: "persona_x" }).waitFor();
  await workbench.press("Mod+S");
  const saved = (await savedWhen(file, (t) => t.includes("persona_x"))).split("\n");
  assert.equal(saved[userLine], "  persona_x", "the new line under `user:` is indented by two spaces");
  await workbench.press("Mod+Z");
  await workbench.press("Mod+S");
  // The ToolSandbox view lists the new scenario.
  await workbench.page.locator('.activitybar .action-item a[aria-label^="ToolSandbox"]').first().click();
  await workbench.page.locator(".pane-header", { hasText: "Scenarios" }).waitFor();
  const row = (name: string) => workbench.page.locator(".pane-body .monaco-list-row", { hasText: name }).first();
  await row("cellular_off_adapted").waitFor();
  // The list is longer than the pane: typing a name in it brings its row into view.
  await row("cellular_off_adapted").click();
  await workbench.type(NEW_NAME);
  await row(NEW_NAME).waitFor();
  await workbench.press("Escape");
  await screenshotBoth("sidebar");
});

step("with `timezone:` indented under `now:`, completion still offers the time zones", async () => {
  await workbench.openEditor(SCENARIO);
  const text = readFileSync(join(workspace, SCENARIO), "utf8").split("\n");
  const line = text.indexOf("  timezone: Europe/Berlin") + 1;
  assert.ok(line > 1 && text[line - 2]?.startsWith("  now: "), "the sample's clock has now: then timezone:");
  await workbench.goTo(line, 1);
  await workbench.type("  "); // now four spaces in: under `now:`, a YAML syntax error
  await workbench.press("End");
  for (let i = 0; i < "Berlin".length; i++) await workbench.press("Backspace");
  await workbench
    .activeEditor()
    .locator(".view-line", { hasText: /timezone:\s+Europe\/\s*$/ })
    .waitFor();
  await workbench.type("Be");
  await workbench.press("Control+Space");
  await suggestion("Europe/Berlin").waitFor();
  await workbench.screenshot("completion-timezone-light");
  await useTheme("dark");
  await suggestion("Europe/Berlin").waitFor();
  await workbench.screenshot("completion-timezone-dark");
  await useTheme("light");
  await workbench.press("Escape");
  await workbench.runCommand("File: Revert File");
});

step("Compare Runs and Compare Run with Reference show pickers titled for what they pick", async () => {
  await workbench.runCommand("ToolSandbox: Compare Runs", { opensQuickPick: true });
  await quickInputTitle().filter({ hasText: "ToolSandbox: Compare Runs (1/2)" }).waitFor();
  await workbench.page.locator(".quick-input-widget input[placeholder='Choose the first run (A)']").waitFor();
  await screenshotBoth("compare-picker-first");
  await quickInputTitle().filter({ hasText: "ToolSandbox: Compare Runs (1/2)" }).waitFor();
  await workbench.filterQuickInput(NAME);
  await workbench.page.locator(".quick-input-list .monaco-list-row.focused", { hasText: NAME }).waitFor();
  await workbench.press("Enter");
  await quickInputTitle().filter({ hasText: "ToolSandbox: Compare Runs (2/2)" }).waitFor();
  assert.match(
    (await workbench.page.locator(".quick-input-widget input").getAttribute("placeholder")) ?? "",
    new RegExp(`^Choose the run to compare with ${NAME} \\(B\\)$`),
  );
  await workbench.screenshot("compare-picker-second-light");
  await workbench.press("Escape");
  await workbench.page.locator(".quick-input-widget").waitFor({ state: "hidden" });
  await workbench.runCommand("ToolSandbox: Compare Run with Reference", { opensQuickPick: true });
  await quickInputTitle().filter({ hasText: "ToolSandbox: Compare Run with Reference" }).waitFor();
  assert.equal(await quickInputTitle().filter({ hasText: "Replay Trajectory" }).count(), 0);
  await workbench.press("Escape");
  await workbench.page.locator(".quick-input-widget").waitFor({ state: "hidden" });
});

step("a breakpoint on `- id: cellular_on` stops with that line highlighted; the console completes and prints the score", async () => {
  await workbench.openEditor(SCENARIO);
  const line = readFileSync(join(workspace, SCENARIO), "utf8").split("\n").indexOf("  - id: cellular_on") + 1;
  assert.ok(line > 0);
  await workbench.goTo(line, 1);
  await workbench.press("F9");
  await workbench.activeEditor().locator(".codicon-debug-breakpoint").first().waitFor();
  await workbench.press("F5");
  await workbench.page
    .getByText(/^\s*Paused on entry\s*$/i)
    .first()
    .waitFor();
  await workbench.press("F5");
  await workbench.page
    .getByText(/^\s*Milestone cellular_on matched\s*$/)
    .first()
    .waitFor();
  // The editor shows the top frame at the milestone's line: the cursor is there, and it is the
  // line marked as the current stack frame.
  await workbench.page.locator(".statusbar-item", { hasText: new RegExp(`^\\s*Ln ${line}, Col \\d+`) }).waitFor();
  const marked = await workbench.page.waitForFunction(
    ([editorEl, wanted]) => {
      const frame = editorEl.querySelector<HTMLElement>(".view-overlays .debug-top-stack-frame-line");
      if (frame === null) return null;
      const top = frame.getBoundingClientRect().top;
      const number = [...editorEl.querySelectorAll<HTMLElement>(".margin-view-overlays .line-numbers")].find(
        (n) => Math.abs(n.getBoundingClientRect().top - top) < 3,
      );
      return number?.textContent?.trim() === wanted ? wanted : null;
    },
    [await workbench.activeEditor().elementHandle(), String(line)] as const,
  );
  assert.equal(await marked.jsonValue(), String(line));
  await screenshotBoth("debug-breakpoint");

  const input = workbench.page.locator(".repl-input-wrapper .monaco-editor");
  await input.click();
  await workbench.type("SETTING.wi");
  await workbench.press("Control+Space");
  await suggestion("wifi").waitFor();
  await workbench.screenshot("debug-console-completion-light");
  await workbench.press("Escape");
  await workbench.activeEditor().click();
  await workbench.press("F5");
  await workbench.page
    .locator(".repl .monaco-list-row", { hasText: /Score 1\.00: \d+ of \d+ milestones matched/ })
    .first()
    .waitFor();
  await workbench.screenshot("debug-end-score-light");
});

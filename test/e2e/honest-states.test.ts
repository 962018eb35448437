// Issue 39, items 1, 2, 3, 5 and 10, in code-server with the packaged extension: one run shows one
// score or says why not (a re-score against the edited scenario is labelled with the recorded
// score, and a milestone's hover speaks of that re-score as its CodeLens does); a milestone line reads one state after a failing test run and a fix (the old failure is
// cleared); the timeline at about 470 px keeps every sender and recipient; a paused run reads
// paused in the status bar, not running; a command agent whose script is missing errors with a
// notification that opens its log, and reads "errored", never a score. Each screenshot is taken in
// Light Modern and Dark Modern into docs/images/ (and test-artifacts/e2e/honest-states/).
import { after, before } from "node:test";
import assert from "node:assert/strict";
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { CodeServer } from "./code-server.js";
import { artifactDir, packageExtension, removeScratch, sampleWorkspace } from "./fixtures.js";
import { stepsOn } from "./steps.js";
import { Workbench } from "./workbench.js";

const NAME = "send_message_with_contact_content_cellular_off_adapted";
const SCENARIO = `${NAME}.scenario.yaml`;
const ORIGINAL = readFileSync(resolve(__dirname, "..", "..", "sample-scenarios", SCENARIO), "utf8");
const IMAGES = resolve(__dirname, "..", "..", "docs", "images");
const artifacts = artifactDir(__filename);
let server: CodeServer | undefined;
let workbench: Workbench;
const step = stepsOn(() => workbench);
let workspace = "";

const THEMES = { light: "Default Light Modern", dark: "Default Dark Modern" } as const;

/** The workspace's settings, written whole at once (a half-written file would read as no settings, auto save on). */
function writeSettings(theme: keyof typeof THEMES): void {
  const file = join(workspace, ".vscode", "settings.json");
  writeFileSync(
    `${file}.tmp`,
    JSON.stringify({
      "files.autoSave": "off",
      "workbench.colorTheme": THEMES[theme],
      "workbench.startupEditor": "none",
      // A program that is not there: node fails at once, so the agent never says anything.
      "toolsandbox.agents": [{ name: "missing script", command: "node agents/not-there.js" }],
    }),
  );
  renameSync(`${file}.tmp`, file);
}

before(async () => {
  const vsix = packageExtension();
  workspace = sampleWorkspace();
  mkdirSync(join(workspace, ".vscode"));
  writeSettings("light");
  server = await CodeServer.start({ install: [vsix] });
  workbench = await Workbench.open(server, workspace, artifacts);
  // A laptop's window: screenshots of a normal size.
  await workbench.page.setViewportSize({ width: 1280, height: 800 });
});

after(async () => {
  await workbench?.close();
  await server?.stop(join(artifacts, "logs"));
  removeScratch();
});

/** Screenshots of the workbench as it is, in Light Modern and Dark Modern, into docs/images/<name>-light|dark.png. */
async function screenshots(name: string): Promise<void> {
  mkdirSync(IMAGES, { recursive: true });
  for (const theme of ["light", "dark"] as const) {
    writeSettings(theme);
    await workbench.page.locator(`.monaco-workbench.${theme === "light" ? "vs" : "vs-dark"}`).waitFor();
    // The webviews take the theme a moment after the workbench.
    await workbench.page.waitForTimeout(800);
    await workbench.page.screenshot({ path: join(IMAGES, `${name}-${theme}.png`) });
    await workbench.screenshot(`${name}-${theme}`);
  }
  writeSettings("light");
  await workbench.page.locator(".monaco-workbench.vs").waitFor();
}

async function statusBarResults(pattern: RegExp): Promise<string> {
  const item = workbench.page.locator('.statusbar-item[id$="toolsandbox.results"]', { hasText: pattern });
  await item.waitFor();
  return ((await item.textContent()) ?? "").trim();
}

function milestoneLine(text: string, id: string): number {
  const at = text.split("\n").findIndex((l) => l.startsWith(`  - id: ${id}`));
  assert.ok(at >= 0, `no milestone ${id}`);
  return at + 1;
}

function positionAfter(content: string, text: string): { line: number; column: number } {
  const at = content.indexOf(text);
  assert.ok(at >= 0, `no ${text} in the scenario`);
  const before = content.slice(0, at + text.length).split("\n");
  return { line: before.length, column: (before[before.length - 1] ?? "").length + 1 };
}

step(
  "a re-score against the edited scenario is labelled beside the score with the recorded one, in the status bar and the panel",
  async () => {
    await workbench.openEditor(SCENARIO);
    await workbench.runCommand("ToolSandbox: Run Scenario");
    const panel = workbench.webview();
    await panel.locator("[data-testid=score]", { hasText: /^\s*1\.00\s*$/ }).waitFor();
    assert.equal(await panel.locator("[data-testid=rescored]").count(), 0, "the run's own score carries no label");
    const text = readFileSync(join(workspace, SCENARIO), "utf8");
    // The expected recipient becomes a number the run never wrote to: unsaved.
    const phone = positionAfter(text, 'recipient_phone_number: "+');
    await workbench.goTo(phone.line, phone.column);
    await workbench.type("0");
    const status = await statusBarResults(/re-scored against the scenario as it is now: \d\.\d\d; recorded 1\.00/);
    const rescored = /now: (\d\.\d\d)/.exec(status)?.[1] ?? "";
    assert.ok(Number(rescored) < 1, status);
    const label = panel.locator("[data-testid=rescored]");
    await label.waitFor();
    assert.equal((await label.textContent())?.trim(), `re-scored against the scenario as it is now: ${rescored}; recorded 1.00`);
    assert.equal((await panel.locator("[data-testid=score]").textContent())?.trim(), rescored);
    // The milestone the edit broke reads one state: its hover speaks of the re-scored run the lens
    // shows, not of the run saved at 1.00.
    const line = milestoneLine(ORIGINAL, "message_sent");
    const { lens } = await workbench.resultsOn(line, /^(✗ missed|◐ partly matched)/);
    const state = lens.startsWith("✗") ? "missed" : "partly matched";
    const hover = await workbench.hoverAt(line, "  - id: mess".length, /re-scored against the text as it is now/);
    assert.match(hover, new RegExp(`Shown run \\(re-scored against the text as it is now\\): ${state}`), hover);
    assert.doesNotMatch(hover, /Last run/);
    await screenshots("rescored-run-labelled");
  },
);

step("after a failing test run and a fix, the milestone line reads one state and the old failure is gone", async () => {
  const line = milestoneLine(ORIGINAL, "message_sent");
  await workbench.runCommand("Testing: Focus on Test Explorer View");
  const page = workbench.page;
  const row = page
    .locator(".test-explorer .monaco-list-row")
    .filter({ has: page.locator(".label", { hasText: new RegExp(`^${NAME}(?!_)`) }) });
  await row.waitFor();
  await row.hover();
  await row.locator('.action-label[aria-label^="Run Test"]').click();
  await row.locator(".computed-state.codicon-testing-failed-icon").waitFor();
  await workbench.openEditor(SCENARIO);
  const failing = await workbench.resultsOn(line, /^✗ missed · best similarity \d\.\d\d$/, /^✗ missed$/);
  assert.equal(failing.lineEnd, "✗ missed");
  // The test's failure message, drawn on the line by the Testing view (a content widget).
  const failureOnLine = page.locator(".editor-group-container .test-error-content-widget", { hasText: /Milestone "message_sent": missed/ });
  await failureOnLine.first().waitFor({ state: "attached" });
  // The fix: the scenario as the run played it, on disk and in the editor.
  writeFileSync(join(workspace, SCENARIO), ORIGINAL);
  await workbench.runCommand("File: Revert File");
  await page.locator(`.tab.dirty[data-resource-name="${SCENARIO}"]`).waitFor({ state: "detached" });
  assert.equal(await workbench.activeEditor().locator(".view-lines", { hasText: '"+012453' }).count(), 0, "the edit is gone");
  await workbench.runCommand("ToolSandbox: Run Scenario");
  const fixed = await workbench.resultsOn(line, /^✓ matched at message \d+ · similarity 1\.00$/, /^✓ 1\.00$/);
  assert.equal(fixed.lineEnd, "✓ 1.00");
  // The failure of the test run before the fix no longer sits on the line, and the test passes.
  await failureOnLine.first().waitFor({ state: "detached" });
  await row.locator(".computed-state.codicon-testing-passed-icon").waitFor();
  assert.match(await statusBarResults(/score \d\.\d\d/), /score 1\.00 · \d+ turns$/);
  await screenshots("milestone-fixed-one-state");
});

step("in a panel about 470 px wide every timeline row keeps its sender and its recipient", async () => {
  const panel = workbench.webview();
  const frame = workbench.page.locator("iframe.webview.ready >> visible=true").first();
  // Narrow the window until the panel, beside the editor, is about 470 px wide.
  for (let width = 1280, i = 0; i < 6; i++) {
    const box = await frame.boundingBox();
    assert.ok(box);
    if (Math.abs(box.width - 470) < 25) break;
    width += Math.round((470 - box.width) * 2);
    await workbench.page.setViewportSize({ width, height: 800 });
    await workbench.page.waitForTimeout(400);
  }
  const box = await frame.boundingBox();
  assert.ok(box && Math.abs(box.width - 470) < 40, `the panel is ${box?.width} px wide`);
  await panel.locator("[data-testid=jump]").fill("19");
  await panel.locator("[data-testid=jump]").press("Enter");
  await panel.locator('[data-testid=message][data-index="19"]').waitFor();
  const routes = await panel
    .locator("[data-testid=timeline] .row:not(.setup-row) .row-head .route")
    .evaluateAll((els) => els.map((e) => ({ text: e.textContent ?? "", cut: e.scrollWidth > e.clientWidth + 0.5 })));
  assert.ok(routes.length > 5, `${routes.length} rows in view`);
  for (const r of routes) {
    assert.match(r.text, /^(system|user|agent|environment) → (system|user|agent|environment)$/);
    assert.equal(r.cut, false, `"${r.text}" is cut`);
  }
  const sideways = await panel.locator("body").evaluate(() => document.documentElement.scrollWidth > window.innerWidth + 0.5);
  assert.equal(sideways, false, "the panel scrolls sideways");
  await screenshots("timeline-470px-sender-recipient");
  await workbench.page.setViewportSize({ width: 1280, height: 800 });
});

step("a run started paused reads paused in the status bar, not running, until it is continued", async () => {
  await workbench.openEditor(SCENARIO);
  await workbench.runCommand("ToolSandbox: Run Scenario Paused (Step by Message)");
  const status = await statusBarResults(/paused/);
  assert.doesNotMatch(status, /running/);
  assert.match(status, /paused before the next message/);
  await screenshots("paused-run-status");
  await workbench.webview().locator("[data-action=run-continue]").click();
  await statusBarResults(/score 1\.00/);
});

step("a command agent whose script is missing errors: a notification opens its log, and nothing shows a score", async () => {
  await workbench.openEditor(SCENARIO);
  await workbench.runCommand("ToolSandbox: Run Scenario with Agent…", { opensQuickPick: true });
  await workbench.quickPick("missing script");
  // The command exits before it connects: the episode ends as agent_disconnected, an errored end.
  const toast = workbench.page.locator(".notification-toast", { hasText: /errored \(agent_disconnected\)/ });
  await toast.waitFor();
  assert.match((await toast.textContent()) ?? "", /stderr/);
  for (const action of ["Open Agent Log", "Open Settings", "Open Run"])
    await toast.locator(".monaco-button", { hasText: new RegExp(`^${action}$`) }).waitFor();
  assert.match(await statusBarResults(/errored/), /errored \(agent_disconnected\)$/);
  await workbench
    .webview()
    .locator("[data-testid=errored-reason]", { hasText: /^errored \(agent_disconnected\)/ })
    .waitFor();
  assert.equal((await workbench.webview().locator("[data-testid=score]").textContent())?.trim(), "–");
  await screenshots("missing-script-agent-errored");
  await toast.locator(".monaco-button", { hasText: /^Open Agent Log$/ }).click();
  await workbench.page.locator('.editor-group-container .tab.active[data-resource-name$=".agent-stderr.log"]').waitFor();
  assert.ok(existsSync(join(workspace, ".toolsandbox", "runs")));
});

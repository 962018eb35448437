// Workspace trust on, the sample folder not trusted: VS Code opens it in Restricted Mode. Authoring
// keeps working (the language server still checks what is typed) while running is refused: the
// run commands are not offered, the scenario has no Run lens, and nothing is written. Replaying a
// run executes nothing, so an earlier run (copied in as run 1) can still be replayed, and saving a
// saved run as a scenario (drafting plays nothing either) writes a draft that opens with no errors.
import { after, before } from "node:test";
import assert from "node:assert/strict";
import { copyFileSync, existsSync, mkdirSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { CodeServer } from "./code-server.js";
import { artifactDir, packageExtension, removeScratch, sampleWorkspace } from "./fixtures.js";
import { saveRunAsDraft } from "./drafts.js";
import { stepsOn } from "./steps.js";
import { Workbench } from "./workbench.js";

const NAME = "add_contact_with_name_and_phone_number_adapted";
const SCENARIO = `${NAME}.scenario.yaml`;
const RUN_1 = `${NAME}.run-1.trajectory.jsonl`;
const artifacts = artifactDir(__filename);
let server: CodeServer | undefined;
let workbench: Workbench;
let workspace = "";
const step = stepsOn(() => workbench);
const runsFolder = (): string => join(workspace, ".toolsandbox", "runs");

before(async () => {
  const vsix = packageExtension();
  workspace = sampleWorkspace();
  mkdirSync(runsFolder(), { recursive: true });
  copyFileSync(join(workspace, "trajectories", `${NAME}.trajectory.jsonl`), join(runsFolder(), RUN_1));
  server = await CodeServer.start({ install: [vsix], workspaceTrust: true });
  workbench = await Workbench.open(server, workspace, artifacts);
});

after(async () => {
  await workbench?.close();
  await server?.stop(join(artifacts, "logs"));
  removeScratch();
});

step("the untrusted folder opens in Restricted Mode and diagnostics still appear while typing", async () => {
  await workbench.page.locator(".statusbar-item", { hasText: "Restricted Mode" }).waitFor();
  const editor = await workbench.openEditor(SCENARIO);
  await workbench.goTo(11, "  allow: [add_contact".length + 1);
  await workbench.type("s");
  await workbench.press("Escape");
  await editor.locator(".squiggly-error").first().waitFor();
  await workbench.screenshot("restricted-diagnostic");
  await workbench.press("Backspace");
  await editor.locator(".squiggly-error").first().waitFor({ state: "detached" });
});

step("running is refused: no run commands in the palette, no Run lens, no run written", async () => {
  // Replaying a saved run executes nothing, so it stays available; asked first, so the palette is
  // known to list the extension's commands when it lists no run command.
  assert.equal(await workbench.commandListed("ToolSandbox: Replay Trajectory"), true, "Replay Trajectory is offered");
  assert.equal(await workbench.commandListed("ToolSandbox: Run Scenario"), false, "Run Scenario is not offered");
  assert.equal(await workbench.commandListed("ToolSandbox: Run Scenario with Model"), false, "Run Scenario with Model is not offered");
  assert.equal(await workbench.commandListed("ToolSandbox: Run Scenario with Agent…"), false, "Run Scenario with Agent… is not offered");
  // The lenses of the first line: "Replay last run" is there (so the lenses have rendered), Run is not.
  const lenses = workbench.activeEditor().locator(".codelens-decoration a");
  await lenses.filter({ hasText: "Replay last run" }).waitFor();
  const titles = await lenses.allTextContents();
  assert.ok(!titles.some((l) => /\bRun\b/.test(l)), `no Run lens: ${titles.join(" | ")}`);
  // In its place, a lens that says why and opens the trust editor.
  assert.ok(
    titles.some((l) => /Running is off in Restricted Mode: trust this workspace to run/.test(l)),
    titles.join(" | "),
  );
  await workbench.screenshot("restricted-no-run");
  assert.deepEqual(readdirSync(runsFolder()), [RUN_1], "no run was written");
});

step("Save Run as Scenario… drafts the sample's saved run beside its scenario, and the draft opens with no errors", async () => {
  const draft = `${NAME}_draft.scenario.yaml`;
  await workbench.runCommand("ToolSandbox: Save Run as Scenario…", { opensQuickPick: true });
  await workbench.page.locator(".quick-input-title", { hasText: "ToolSandbox: Save Run as Scenario" }).waitFor();
  await workbench.quickPick(NAME, "trajectories/", { waitHidden: false });
  // The save dialog (VS Code's own in the browser) proposes the draft's name in the scenario's folder.
  const path = workbench.page.locator(".quick-input-widget input");
  await workbench.page.locator(".quick-input-title", { hasText: "Save Run as Scenario" }).waitFor();
  await workbench.page.waitForFunction(([input, wanted]) => (input as HTMLInputElement).value.endsWith(wanted as string), [
    await path.elementHandle(),
    `/samples/${draft}`,
  ] as const);
  await workbench.screenshot("save-run-dialog");
  await path.press("Enter");
  await workbench.page.locator(`.editor-group-container.active .tab.active[data-resource-name="${draft}"]`).waitFor();
  assert.ok(existsSync(join(workspace, draft)), `${draft} was written`);
  await workbench.page.locator(".notification-toast", { hasText: `wrote ${draft}: 1 milestone, a reference of` }).waitFor();
  // The language server measures a scenario's strength only once its text has no errors: the
  // lens on `milestones:` is the server's word that the draft checks clean.
  const editor = workbench.activeEditor();
  await editor
    .locator(".codelens-decoration", { hasText: /strength \d+\/\d+/ })
    .first()
    .waitFor();
  assert.equal(await editor.locator(".squiggly-error").count(), 0, "no error is underlined in the draft");
  await workbench.screenshot("save-run-draft-open");
});

step("from a run open in the trajectory editor, Save Run as Scenario… goes straight to the save dialog", async () => {
  const other = "find_temperature_adapted";
  const draft = `${other}_draft.scenario.yaml`;
  await workbench.openFile(`trajectories/${other}.trajectory.jsonl`);
  await saveRunAsDraft(workbench, workspace, draft);
});

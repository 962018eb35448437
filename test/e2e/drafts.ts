// Save Run as Scenario… in code-server, as both the play and the restricted-mode suites use it:
// the command is run on a run that needs no picking (the panel's, or the trajectory editor's),
// the save dialog is accepted where it proposes `<draft>` beside the samples, and the draft opens
// with the strength lens, which the server draws only for a text with no errors.
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { join } from "node:path";
import type { Locator } from "playwright-core";
import type { Workbench } from "./workbench.js";

/** Saves the current run as `draft` in `workspace` and returns the draft's editor, checked to have no error underlined. */
export async function saveRunAsDraft(workbench: Workbench, workspace: string, draft: string): Promise<Locator> {
  await workbench.runCommand("ToolSandbox: Save Run as Scenario…", { opensQuickPick: true });
  // No run to pick: the dialog (its own title) asks for the file at once.
  await workbench.page.locator(".quick-input-title", { hasText: /^\s*Save Run as Scenario\s*$/ }).waitFor();
  const path = workbench.page.locator(".quick-input-widget input");
  await workbench.page.waitForFunction(([input, wanted]) => (input as HTMLInputElement).value.endsWith(wanted as string), [
    await path.elementHandle(),
    `/samples/${draft}`,
  ] as const);
  await path.press("Enter");
  await workbench.page.locator(`.editor-group-container.active .tab.active[data-resource-name="${draft}"]`).waitFor();
  assert.ok(existsSync(join(workspace, draft)), `${draft} was written`);
  const editor = workbench.activeEditor();
  await editor
    .locator(".codelens-decoration", { hasText: /strength \d+\/\d+/ })
    .first()
    .waitFor();
  assert.equal(await editor.locator(".squiggly-error").count(), 0, "no error is underlined in the draft");
  return editor;
}

// Where a replay opens and what it folds (Chromium): the system prompts and the demonstration chat
// are one collapsed "setup" row; a run opens on its first real user message, or on the first
// failing milestone; the scored window is marked where it starts.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { requireBuild, removeTempDirs, tempDir } from "../cli/harness.js";
import { PanelBrowser, shownIndex } from "./browser.js";
import { exportWithCli, flawedRun, samplePath, writeLines } from "./trajectories.js";

let browser: PanelBrowser;
const files: Record<string, string> = {};

before(async () => {
  requireBuild();
  const dir = tempDir("setup-row");
  files.sample = exportWithCli(samplePath("send_message_with_contact_content_cellular_off_adapted"), join(dir, "sample.html"));
  files.flawed = exportWithCli(writeLines(join(dir, "flawed.trajectory.jsonl"), flawedRun()), join(dir, "flawed.html"));
  browser = await PanelBrowser.launch();
});

after(async () => {
  await browser?.close();
  removeTempDirs();
});

const listed = (page: import("playwright-core").Page): Promise<number[]> =>
  page.locator("[data-testid=timeline] .row").evaluateAll((rows) => rows.map((r) => Number(r.getAttribute("data-index"))));

test("the setup is one folded row; the replay opens on the first real user message; 'show' unfolds it", async () => {
  const { page, problems } = await browser.open(files.sample ?? "");
  assert.equal(await shownIndex(page), 16);
  const setup = page.locator("[data-testid=setup-row]");
  assert.match((await setup.textContent()) ?? "", /Setup.*3 system prompts, 13 demonstration messages/);
  const folded = await listed(page);
  assert.equal(folded[0], 0);
  assert.equal(folded[1], 16, "messages 1 to 15 are folded into the setup row");
  assert.match((await page.locator('[data-testid=timeline] .row[data-index="16"] .badge.window').textContent()) ?? "", /scored from here/);
  mkdirSync(join(process.cwd(), "test-artifacts"), { recursive: true });
  await page.screenshot({ path: join(process.cwd(), "test-artifacts", "panel-setup-row.png") });

  await page.locator("[data-testid=unfold-setup]").click();
  // The list is virtualised: look at the rows around the middle of the setup.
  await page.locator("[data-testid=jump]").isVisible();
  assert.ok([10, 11, 12, 13, 14].every((i) => folded.indexOf(i) === -1));
  const unfolded = await listed(page);
  assert.ok(
    [12, 13, 14, 15].every((i) => unfolded.includes(i)),
    unfolded.join(","),
  );
  await page.locator('[data-testid=timeline] .row[data-index="15"] [data-testid=fold-setup]').click();
  assert.equal((await listed(page))[1], 16);
  // Jumping into the setup unfolds it.
  await page
    .locator("[data-action=more]")
    .isVisible()
    .then(async (narrow) => narrow && page.locator("[data-action=more]").click());
  await page.locator("[data-testid=jump]").fill("7");
  await page.locator("[data-testid=jump]").press("Enter");
  assert.equal(await shownIndex(page), 7);
  assert.ok((await listed(page)).includes(7));
  assert.deepEqual(problems.pageErrors, []);
});

test("a run whose milestone fell short opens on that milestone's message", async () => {
  // The agent sent the wrong text: message_sent matched at 22 with similarity 0.58.
  const { page } = await browser.open(files.flawed ?? "");
  assert.equal(await shownIndex(page), 22);
  const badge = page.locator(`[data-testid=timeline] .row[data-index="22"] .badge.node[data-node="message_sent"]`);
  assert.equal(await badge.count(), 1);
});

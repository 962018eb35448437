// Issue 26's runs folder in code-server with the packaged extension (test/cli/scores-fixture.ts: two
// agents with 3 trials each, a model_error run that had reached every milestone, a file corrupt
// mid-way and one cut short). The runs view counts 1 errored run outside the scores and 2 damaged
// files, the errored run's score is an amber "errored" badge, and the file corrupt mid-way opens in
// the panel with a banner naming the line where it broke. Screenshots in test-artifacts/e2e/scores/.
import { after, before } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import type { Frame } from "playwright-core";
import { writeScoresFixture } from "../cli/scores-fixture.js";
import { CodeServer } from "./code-server.js";
import { artifactDir, packageExtension, removeScratch, sampleWorkspace } from "./fixtures.js";
import { stepsOn } from "./steps.js";
import { Workbench } from "./workbench.js";

const artifacts = artifactDir(__filename);
let server: CodeServer | undefined;
let workbench: Workbench;
const step = stepsOn(() => workbench);

/** The frame of the webview on screen that shows `selector` (several webviews may be visible side by side). */
async function frameWith(selector: string): Promise<Frame> {
  for (let attempt = 0; attempt < 120; attempt++) {
    for (const frame of workbench.page.frames())
      if (
        (await frame
          .locator(selector)
          .count()
          .catch(() => 0)) > 0
      )
        return frame;
    await workbench.page.waitForTimeout(500);
  }
  throw new Error(`no webview shows ${selector} after 60 s`);
}

before(async () => {
  const vsix = packageExtension();
  const workspace = sampleWorkspace();
  writeScoresFixture(join(workspace, ".toolsandbox", "runs"));
  server = await CodeServer.start({ install: [vsix] });
  workbench = await Workbench.open(server, workspace, artifacts);
});

after(async () => {
  await workbench?.close();
  await server?.stop(join(artifacts, "logs"));
  removeScratch();
});

step("the runs view counts the errored run outside the scores and shows it with an amber errored badge", async () => {
  // A scenario opened first starts the extension (its commands are listed from then on).
  await workbench.openEditor("find_temperature_adapted.scenario.yaml");
  await workbench.runCommand("ToolSandbox: Show Runs");
  const view = workbench.webview();
  await view.locator("[data-testid=runs-count]", { hasText: /^15 of 15 runs$/ }).waitFor();
  assert.match(
    (await view.locator("[data-testid=runs-facts]").textContent()) ?? "",
    /^15 runs · 12 scored · 1 errored \(left out\) · 2 damaged/,
  );
  await view.locator("[data-testid=runs-filter]").fill("model_error");
  await view.locator("[data-testid=runs-count]", { hasText: /^1 of 15 runs$/ }).waitFor();
  // The figures above follow the filter, in words that agree with their number.
  await view.locator("[data-testid=runs-facts]", { hasText: /^1 run · 0 scored · 1 errored \(left out\) · 0 damaged/ }).waitFor();
  const row = view.locator(".runs-row.errored[data-file]");
  assert.match((await row.getAttribute("data-file")) ?? "", /model-b[\\/]find_temperature_adapted\.trial-4\.trajectory\.jsonl$/);
  const badge = row.locator("[data-testid=run-status]");
  assert.equal(await badge.textContent(), "errored");
  assert.equal(await badge.getAttribute("class"), "status-badge errored");
  assert.match((await badge.getAttribute("title")) ?? "", /HTTP 500 after 3 attempts/);
  // Amber, not the green of a pass: the badge's colour is the theme's amber, whatever its value.
  // No named functions inside evaluate: tsx would wrap them in a helper the page does not have.
  const [colour, amber, green] = await badge.evaluate((e) => [
    getComputedStyle(e).color,
    ...["var(--amber)", "var(--green)"].map((value) => {
      const span = document.createElement("span");
      span.style.color = value;
      e.append(span);
      const c = getComputedStyle(span).color;
      span.remove();
      return c;
    }),
  ]);
  assert.equal(colour, amber);
  assert.notEqual(colour, green);
  assert.match((await row.locator(".col-end").textContent()) ?? "", /^model_error · infrastructure/);
  await workbench.screenshot("errored-row");
});

step("the file corrupt mid-way is a damaged row; opened, the panel shows what it read and a banner naming line 6", async () => {
  const view = workbench.webview();
  await view.locator("[data-testid=runs-filter]").fill("damaged");
  await view.locator("[data-testid=runs-count]", { hasText: /^2 of 15 runs$/ }).waitFor();
  const row = view.locator('.runs-row.damaged[data-file$="cellular_off_adapted.trial-4.trajectory.jsonl"]');
  assert.equal(await row.locator("[data-testid=run-status]").textContent(), "damaged");
  assert.match((await row.locator(".col-end").textContent()) ?? "", /^damaged at line 6: /);
  await workbench.screenshot("damaged-rows");
  await row.click();
  await workbench.page.locator(".tab", { hasText: /^cellular_off_adapted/ }).waitFor();
  // The replay opens beside the runs view: two webviews on screen, the panel is the one with the banner.
  const panel = await frameWith("[data-testid=damaged]");
  const banner = panel.locator("[data-testid=damaged]");
  await banner.filter({ hasText: /line 6/ }).waitFor();
  assert.match(
    (await banner.textContent()) ?? "",
    /^Damaged trajectory\. This file is cut at line 6: invalid JSON .*; only the 5 lines before it are shown/,
  );
  // What read before the break is shown: the header and the first messages.
  await panel.locator("[data-testid=scenario-name]").waitFor({ state: "attached" });
  assert.equal(await panel.locator("[data-testid=score]").textContent(), "–");
  await workbench.screenshot("damaged-banner");
});

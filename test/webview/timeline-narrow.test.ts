// Issue 39, item 5, in Chromium: the timeline keeps who spoke to whom. At about 470 px (a panel
// beside the editor) every row shows its sender and its recipient whole, the header's chips and
// the rows' badges are not cut, and nothing scrolls sideways; the same for a run a model error
// ended. Each chip's text meets WCAG AA contrast in every theme VS Code bundles.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import type { Page } from "playwright-core";
import type { TrajectoryLine } from "../../engine/panel/protocol.js";
import { requireBuild, removeTempDirs, tempDir } from "../cli/harness.js";
import { PanelBrowser } from "./browser.js";
import { ALL_THEMES, applyTheme, contrasts } from "./theme.js";
import { exportWithCli, readLines, samplePath, writePanelPage } from "./trajectories.js";

const SAMPLE = "send_message_with_contact_content_cellular_off_adapted";
/** About 470 px is a panel beside the editor; the run's longest rows ran out of room below 430. */
const WIDTHS = [470, 420, 360, 320];

let browser: PanelBrowser;
const files: Record<string, string> = {};

before(async () => {
  requireBuild();
  const dir = tempDir("timeline-narrow");
  files.sample = exportWithCli(samplePath(SAMPLE), join(dir, "sample.html"));
  // The same run cut short by a model error after the user's first message.
  const lines = readLines(samplePath(SAMPLE));
  const firstUser = lines.findIndex((l) => l.type === "message" && l.message.sender === "user" && l.message.scripted !== true);
  const kept = lines.slice(0, firstUser + 1).filter((l) => l.type !== "evaluation");
  const count = kept.filter((l) => l.type === "message").length;
  const errored: TrajectoryLine[] = [
    ...kept,
    { type: "end", reason: "model_error", detail: "HTTP 500 from the agent's endpoint", message_count: count },
  ];
  files.errored = writePanelPage(join(dir, "errored.html"), errored);
  browser = await PanelBrowser.launch();
});

after(async () => {
  await browser?.close();
  removeTempDirs();
});

interface RowRoute {
  readonly index: string;
  readonly text: string;
  /** The route's text is wider than its box: it is cut. */
  readonly cut: boolean;
}

/** Every row of the timeline, scrolled through (only the rows in view exist at a time). */
async function allRoutes(page: Page): Promise<RowRoute[]> {
  return page.evaluate(async () => {
    const timeline = document.querySelector<HTMLElement>("[data-testid=timeline]")!;
    const seen = new Map<string, { index: string; text: string; cut: boolean }>();
    for (let top = 0; ; top += timeline.clientHeight / 2) {
      timeline.scrollTop = top;
      await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
      for (const row of timeline.querySelectorAll<HTMLElement>(".row:not(.setup-row)")) {
        const route = row.querySelector<HTMLElement>(".row-head .route")!;
        seen.set(row.dataset.index!, {
          index: row.dataset.index!,
          text: route.textContent ?? "",
          cut: route.scrollWidth > route.clientWidth + 0.5,
        });
      }
      if (top + timeline.clientHeight >= timeline.scrollHeight) break;
    }
    return [...seen.values()];
  });
}

/** Chips and badges whose content is wider than their box, or that stick out of the window. */
function cutChips(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    [...document.querySelectorAll<HTMLElement>(".node-chip, .row-badges .badge")]
      .filter((e) => e.getClientRects().length > 0)
      .filter((e) => e.scrollWidth > e.clientWidth + 0.5 || e.getBoundingClientRect().right > window.innerWidth + 0.5)
      .map((e) => `${e.className}: ${e.textContent}`),
  );
}

/** Elements that scroll sideways. */
function sideways(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    [document.documentElement, ...document.querySelectorAll<HTMLElement>(".timeline, .summary, .detail-pane, .panes")]
      .filter((e) => e.scrollWidth > e.clientWidth + 0.5)
      .map((e) => `${e.className || e.tagName} (${e.scrollWidth} > ${e.clientWidth})`),
  );
}

const ROUTE = /^(system|user|agent|environment) → (system|user|agent|environment)$/;

for (const which of ["sample", "errored"] as const) {
  test(`at ${WIDTHS.join(", ")} px every row of the ${which} run shows sender → recipient whole, no chip is cut, nothing scrolls sideways`, async () => {
    for (const width of WIDTHS) await checkAt(width, which);
  });
}

async function checkAt(width: number, which: "sample" | "errored"): Promise<void> {
  {
    const { page } = await browser.open(files[which]!);
    await page.setViewportSize({ width, height: 800 });
    // The setup is unfolded so its rows are checked too.
    const unfold = page.locator("[data-testid=unfold-setup]");
    if ((await unfold.count()) > 0) await unfold.click();
    const routes = await allRoutes(page);
    assert.ok(routes.length > 0);
    for (const r of routes) {
      assert.match(r.text, ROUTE, `${width} px, row ${r.index}: ${JSON.stringify(r.text)}`);
      assert.equal(r.cut, false, `${width} px, row ${r.index}: "${r.text}" is cut`);
    }
    assert.deepEqual(await sideways(page), [], `${width} px`);
    assert.deepEqual(await cutChips(page), [], `${width} px`);
    // Opened, the header's chips wrap; none is cut.
    const more = page.locator("[data-testid=summary-more]");
    if (await more.isVisible()) await more.click();
    assert.deepEqual(await cutChips(page), [], `${width} px, header open`);
    assert.deepEqual(await sideways(page), [], `${width} px, header open`);
    await page.close();
  }
}

/** The chips of the header, the rows and the detail: their text over what is drawn under it. */
const CHIPS = [
  ".call-head .label",
  "[data-testid=timeline] .badge.node.hit",
  "[data-testid=timeline] .badge.world",
  "[data-testid=timeline] .badge.window",
  ".node-chip.hit .chip-symbol",
  ".node-chip .chip-id",
  ".node-chip .chip-where",
  ".summary .tag",
  "[data-testid=timeline] .row:not(.selected) .who.role-user",
  "[data-testid=timeline] .row:not(.selected) .who.role-agent",
  "[data-testid=timeline] .row:not(.selected) .who.role-execution_environment",
  "[data-testid=timeline] .row.selected .who.role-agent",
];
/** WCAG AA for text. */
const READABLE = 4.5;

test("every chip's text meets WCAG AA contrast in every theme VS Code bundles and in the pages' own", async () => {
  const { page } = await browser.open(files.sample!);
  await page.setViewportSize({ width: 1100, height: 800 });
  // The agent's call that turns cellular on: a CALLS chip in the detail, milestone badges on the rows.
  await page.locator("[data-testid=jump]").fill("18");
  await page.locator("[data-testid=jump]").press("Enter");
  await page.locator(".call-head .label").waitFor();
  const failures: string[] = [];
  for (const theme of ALL_THEMES) {
    await applyTheme(page, theme);
    for (const c of await contrasts(page, CHIPS)) {
      if (c.ratio === -1) failures.push(`${theme}: nothing matches ${c.selector}`);
      else if (c.ratio < READABLE) failures.push(`${theme}: ${c.selector} ${c.ratio}:1 (${c.color} on ${c.background})`);
    }
  }
  assert.deepEqual(failures, []);
  await page.close();
});

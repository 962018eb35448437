// The panel in a narrow editor column (half an editor, a side bar, down to ~320 px): the scenario
// name wraps between its words, never letter by letter, and nothing sticks out sideways.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { Page } from "playwright-core";
import type { TrajectoryHeader } from "../../engine/episode/types.js";
import { requireBuild, removeTempDirs, tempDir } from "../cli/harness.js";
import { PanelBrowser } from "./browser.js";
import { exportWithCli, readLines, samplePath, writePanelPage } from "./trajectories.js";

const SAMPLE = "send_message_with_contact_content_cellular_off_adapted";
const LONG_NAME = "search_the_contacts_then_send_a_message_to_the_person_found_while_cellular_service_is_off_at_first";
const WIDTHS = [320, 400, 560, 680];

let browser: PanelBrowser;
const files: Record<string, string> = {};

before(async () => {
  requireBuild();
  const dir = tempDir("panel-narrow");
  files.sample = exportWithCli(samplePath(SAMPLE), join(dir, "sample.html"));
  const [header, ...rest] = readLines(samplePath(SAMPLE));
  const renamed = { ...(header as TrajectoryHeader), scenario: { ...(header as TrajectoryHeader).scenario, name: LONG_NAME } };
  files.long = writePanelPage(join(dir, "long-name.html"), [renamed, ...rest]);
  browser = await PanelBrowser.launch();
});

after(async () => {
  await browser?.close();
  removeTempDirs();
});

interface NameLayout {
  readonly height: number;
  readonly lineHeight: number;
  readonly right: number;
  /** Each line of the name as laid out, read from the characters' boxes. */
  readonly lines: string[];
}

/** How the browser laid out the scenario name: its box, and where each of its lines starts. */
function nameLayout(page: Page): Promise<NameLayout> {
  return page.locator("[data-testid=scenario-name]").evaluate((h1) => {
    const lines: string[] = [];
    let top = Number.NEGATIVE_INFINITY;
    const walker = document.createTreeWalker(h1, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = node.textContent ?? "";
      for (let i = 0; i < text.length; i++) {
        const range = document.createRange();
        range.setStart(node, i);
        range.setEnd(node, i + 1);
        const rect = range.getBoundingClientRect();
        if (rect.top > top + 1) {
          lines.push("");
          top = rect.top;
        }
        lines[lines.length - 1] = `${lines[lines.length - 1] ?? ""}${text.charAt(i)}`;
      }
    }
    const box = h1.getBoundingClientRect();
    return { height: box.height, lineHeight: parseFloat(getComputedStyle(h1).lineHeight), right: box.right, lines };
  });
}

/** Controls and summary parts whose right edge lies past the window (they would be cut off). */
function overflowing(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    [
      ...document.querySelectorAll(
        ".summary > *, .summary .stat, .summary .score, .node-chip, .toolbar button, .toolbar input, .toolbar select",
      ),
    ]
      .filter((e) => e.getBoundingClientRect().right > window.innerWidth + 0.5)
      .map((e) => `${e.className || e.tagName} (right ${Math.round(e.getBoundingClientRect().right)})`),
  );
}

for (const [which, name] of [
  ["sample", SAMPLE],
  ["long", LONG_NAME],
] as const) {
  test(`the ${which} scenario name wraps between words at every width down to 320 px, once the header is opened`, async () => {
    const { page } = await browser.open(files[which] ?? "");
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: 800 });
      // Narrow, the header is one row until "more" opens it (the name whole in its title meanwhile).
      const more = page.locator("[data-testid=summary-more]");
      if ((await more.isVisible()) && (await more.getAttribute("aria-expanded")) !== "true") {
        await page.locator("[data-testid=summary-more]").click();
      }
      const layout = await nameLayout(page);
      assert.equal(layout.lines.join(""), name, `${width} px: the whole name is shown`);
      assert.ok(
        layout.height <= 4 * layout.lineHeight + 1,
        `${width} px: ${layout.lines.length} lines, ${layout.height} px tall: ${JSON.stringify(layout.lines)}`,
      );
      for (const line of layout.lines.slice(0, -1))
        assert.match(line, /_$/, `${width} px: a line ends inside a word: ${JSON.stringify(layout.lines)}`);
      assert.ok(layout.right <= width, `${width} px: the name ends at ${layout.right}`);
      assert.deepEqual(await overflowing(page), [], `${width} px`);
      assert.ok(
        await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth),
        `${width} px: the page scrolls sideways`,
      );
    }
    // Copying the name gives it unchanged: the break opportunities add no characters.
    assert.equal(await page.locator("[data-testid=scenario-name]").textContent(), name);
  });
}

test("at full width the name stays on one line beside the scores", async () => {
  const { page } = await browser.open(files.sample ?? "");
  await page.setViewportSize({ width: 1360, height: 860 });
  const layout = await nameLayout(page);
  assert.deepEqual(layout.lines, [SAMPLE]);
  const [name, score] = await Promise.all([
    page.locator("[data-testid=scenario-name]").boundingBox(),
    page.locator(".summary .score").boundingBox(),
  ]);
  assert.ok(name && score);
  assert.ok(score.y < name.y + name.height, "the scores share the title's row");
});

/** The rows the header's and the toolbar's visible children take (distinct tops, within 4 px). */
function rowsOf(page: Page, selector: string): Promise<number> {
  return page.evaluate((sel) => {
    const tops: number[] = [];
    for (const child of document.querySelector(sel)?.children ?? []) {
      const box = child.getBoundingClientRect();
      if (box.width === 0 || box.height === 0) continue;
      if (!tops.some((t) => Math.abs(t - box.top) < 4 || (box.top > t && box.top < t + 12))) tops.push(box.top);
    }
    return tops.length;
  }, selector);
}

/** Badges and chips whose text is cut (its content is wider than its box). */
function clipped(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    [...document.querySelectorAll<HTMLElement>(".badge, .node-chip, .score, .stat, .toolbar button")]
      .filter(
        (e) =>
          e.getClientRects().length > 0 && (e.scrollWidth > e.clientWidth + 1 || e.getBoundingClientRect().right > window.innerWidth + 0.5),
      )
      .map((e) => `${e.className}: ${e.textContent ?? ""}`),
  );
}

test("from 320 px up the header and the toolbar each fit one row (up to 1200 px; wider, the milestones get a row of their own), and no badge is cut", async () => {
  mkdirSync(join(process.cwd(), "test-artifacts"), { recursive: true });
  const { page } = await browser.open(files.long ?? "");
  for (const width of [320, 360, 480, 600, 760, 1000, 1200]) {
    await page.setViewportSize({ width, height: 700 });
    if (width === 320) await page.screenshot({ path: join(process.cwd(), "test-artifacts", "panel-320.png") });
    assert.equal(await rowsOf(page, ".summary"), 1, `${width} px: the header takes one row`);
    assert.equal(await rowsOf(page, ".toolbar"), 1, `${width} px: the toolbar takes one row`);
    assert.deepEqual(await clipped(page), [], `${width} px`);
    assert.deepEqual(await overflowing(page), [], `${width} px`);
    const { summary, toolbar } = await page.evaluate(() => ({
      summary: document.querySelector(".summary")!.getBoundingClientRect().height,
      toolbar: document.querySelector(".toolbar")!.getBoundingClientRect().height,
    }));
    assert.ok(summary + toolbar < 100, `${width} px: header and toolbar take ${summary + toolbar} px`);
    // The whole name is still there, in the title and the text.
    assert.match((await page.locator("[data-testid=scenario-name]").getAttribute("title")) ?? "", new RegExp(`^${LONG_NAME}`));
  }
});

// Issue 26, item 8: the CLI's pages on a phone-sized screen (360 px, and 320). `report --html` keeps
// the Score column in sight (the page never scrolls sideways; the table alone does, with Score right
// after the scenario), and `compare --html` fits the width with every role name whole on its line.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { requireBuild, removeTempDirs, tempDir } from "../cli/harness.js";
import { writeScoresFixture } from "../cli/scores-fixture.js";
import { PanelBrowser } from "./browser.js";
import { CLI, flawedRun, samplePath, writeLines } from "./trajectories.js";

const WIDTHS = [360, 320];
let browser: PanelBrowser;
const files: Record<string, string> = {};

function cli(...args: string[]): void {
  const r = spawnSync(process.execPath, [CLI, ...args], { encoding: "utf8" });
  assert.equal(r.status, 0, `${args.join(" ")}: ${r.stderr}`);
}

before(async () => {
  requireBuild();
  const dir = tempDir("narrow-pages");
  // Two agents' runs with long model names, an errored run and two damaged files.
  const runs = writeScoresFixture(join(dir, "runs"));
  files.report = join(dir, "report.html");
  cli("report", runs, "--html", files.report);
  const flawed = writeLines(join(dir, "flawed.trajectory.jsonl"), flawedRun());
  files.compare = join(dir, "compare.html");
  cli("compare", samplePath("send_message_with_contact_content_cellular_off_adapted"), flawed, "--html", files.compare);
  browser = await PanelBrowser.launch();
});

after(async () => {
  await browser?.close();
  removeTempDirs();
});

const pageWidth = (page: Page): Promise<{ scroll: number; inner: number }> =>
  page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, inner: window.innerWidth }));

test("report --html at 360 and 320 px: no sideways scroll of the page, and the Score column in sight, uncut", async () => {
  const { page, problems } = await browser.open(files.report ?? "", "[data-testid=runs-table] .runs-row[data-file]");
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 740 });
    await page.waitForTimeout(50);
    const { scroll, inner } = await pageWidth(page);
    assert.ok(scroll <= inner, `${width} px: the page is ${scroll} px wide`);
    const cells = await page.evaluate(() =>
      [...document.querySelectorAll<HTMLElement>(".runs-head .col-score, [data-testid=runs-table] .runs-row[data-file] .col-score")].map(
        (c) => {
          const box = c.getBoundingClientRect();
          return { text: c.textContent ?? "", left: box.left, right: box.right, cut: c.scrollWidth > c.clientWidth };
        },
      ),
    );
    assert.ok(cells.length > 10, `${cells.length} score cells`);
    assert.equal(cells[0]?.text, "Score");
    const hidden = cells.filter((c) => c.left < 0 || c.right > width || c.cut);
    assert.deepEqual(hidden, [], `${width} px: score cells out of sight or cut`);
    // The statuses read whole too (an errored and a damaged run are among the rows).
    assert.ok(
      cells.some((c) => c.text === "errored"),
      cells.map((c) => c.text).join(" "),
    );
    assert.ok(cells.some((c) => c.text === "damaged"));
  }
  assert.deepEqual(problems.consoleErrors, []);
});

test("compare --html at 360 and 320 px: no sideways overflow, and no role name broken inside", async () => {
  const { page } = await browser.open(files.compare ?? "", "[data-testid=compare-messages]");
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 740 });
    const { scroll, inner } = await pageWidth(page);
    assert.ok(scroll <= inner, `${width} px: the page is ${scroll} px wide`);
    const roles = await page.evaluate(() =>
      [...document.querySelectorAll<HTMLElement>(".route .role")]
        .filter((r) => r.getClientRects().length > 0)
        .map((r) => ({ text: r.textContent ?? "", lines: r.getClientRects().length, right: r.getBoundingClientRect().right })),
    );
    assert.ok(
      roles.some((r) => r.text === "execution_environment"),
      "the long role name is among them",
    );
    assert.deepEqual(
      roles.filter((r) => r.lines !== 1 || r.right > width),
      [],
      `${width} px: role names broken or cut`,
    );
  }
});

// Panel speed on a long run: a synthetic trajectory of 2,000 messages (world changes at every
// tool response, milestones spread over it) in the page `replay --html` writes, loaded in Chromium.
// Prints, over a few loads, the time to the first render (from navigation start: parsing the page
// up to the first chunk of embedded lines, validating them, building the model, drawing), the time
// until every chunk has been read (the page is then whole), and the time to jump to the last message. Target: first render under 300 ms. Then the runs view over 10,000 runs (the
// page `report --html` writes): time to its first render and to re-sort by score. Target: first
// render under 500 ms. Prints figures; asserts nothing.
//
//   npm run bench:panel                   (2,000 messages, 5 loads)
//   npm run bench:panel -- 10000 3        (10,000 messages, 3 loads)
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { FIRST_RENDER_MARK, LOADED_MARK } from "../engine/panel/protocol.js";
import { PanelBrowser } from "../test/webview/browser.js";
import { longRun, writePanelPage } from "../test/webview/trajectories.js";
import { syntheticRunsData, writeRunsPage } from "../test/webview/runs-fixtures.js";
import { startBenchReport, median } from "./report.js";

const TARGET_MS = 300;

function positiveArg(index: number, fallback: number, least: number, what: string): number {
  const arg = process.argv[index];
  if (arg === undefined) return fallback;
  const n = Number(arg);
  if (!Number.isInteger(n) || n < least) {
    console.error(`bench:panel: ${what} must be a whole number of at least ${least}, got "${arg}"`);
    process.exit(2);
  }
  return n;
}

async function main(): Promise<void> {
  const report = startBenchReport("panel");
  // At least 4 messages: the synthetic run needs a user turn, a call, its result and a reply.
  const messages = positiveArg(2, 2000, 4, "the message count");
  const loads = positiveArg(3, 5, 1, "the number of loads");
  const dir = mkdtempSync(join(tmpdir(), "toolsandbox-bench-panel-"));
  const file = writePanelPage(join(dir, "long.html"), longRun(messages), "bench");
  const browser = await PanelBrowser.launch();
  const firstRender: number[] = [];
  const firstPaint: number[] = [];
  const jumpToLast: number[] = [];
  const allRead: number[] = [];
  try {
    for (let i = 0; i < loads; i++) {
      const { page } = await browser.open(file);
      const timing = await page.evaluate(
        async ([mark, loadedMark]) => {
          const rendered = performance.getEntriesByName(mark)[0]?.startTime ?? Number.NaN;
          // A page of one chunk is read whole before the first render.
          const loaded = performance.getEntriesByName(loadedMark)[0]?.startTime ?? rendered;
          const paint = performance.getEntriesByName("first-contentful-paint")[0]?.startTime ?? Number.NaN;
          const start = performance.now();
          document.dispatchEvent(new KeyboardEvent("keydown", { key: "End", bubbles: true }));
          // Two frames: the one the jump's DOM changes land in, then the one after it is painted.
          await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
          const shown = document.querySelector("[data-testid=message]")?.getAttribute("data-index");
          return { rendered, paint, loaded, jump: performance.now() - start, shown };
        },
        [FIRST_RENDER_MARK, LOADED_MARK] as const,
      );
      if (timing.shown !== String(messages - 1)) throw new Error(`the jump showed message ${timing.shown}, not ${messages - 1}`);
      firstRender.push(timing.rendered);
      firstPaint.push(timing.paint);
      jumpToLast.push(timing.jump);
      allRead.push(timing.loaded);
      await page.close();
    }
  } finally {
    await browser.close();
  }
  const size = statSync(file).size;
  rmSync(dir, { recursive: true, force: true });
  const ms = (v: number): string => `${v.toFixed(1)} ms`;
  console.log(`panel: ${messages} messages, page ${(size / 1024).toFixed(0)} KiB, ${loads} loads in Chromium (median, then each load)`);
  console.log(`  first render         ${ms(median(firstRender))}   [${firstRender.map((v) => v.toFixed(0)).join(", ")}]`);
  console.log(`  first contentful paint ${ms(median(firstPaint))} [${firstPaint.map((v) => v.toFixed(0)).join(", ")}]`);
  console.log(`  all lines read       ${ms(median(allRead))}   [${allRead.map((v) => v.toFixed(0)).join(", ")}]`);
  console.log(`  jump to last message ${ms(median(jumpToLast))}   [${jumpToLast.map((v) => v.toFixed(0)).join(", ")}]`);
  console.log(`  target: first render under ${TARGET_MS} ms: ${median(firstRender) < TARGET_MS ? "met" : "NOT met"}`);
  report.target(
    `panel, ${messages} messages: first render under ${TARGET_MS} ms (${ms(median(firstRender))})`,
    median(firstRender) < TARGET_MS,
  );
  const runsFirstRender = await runsViewBench(loads);
  report.target(
    `runs view, ${RUNS} runs: first render under ${RUNS_TARGET_MS} ms (${ms(runsFirstRender)})`,
    runsFirstRender < RUNS_TARGET_MS,
  );
  report.write();
}

const RUNS = 10_000;
const RUNS_TARGET_MS = 500;

/** The runs view over 10,000 runs: first render, and a re-sort by score (sort + grouping + redraw). Returns the median first render. */
async function runsViewBench(loads: number): Promise<number> {
  const dir = mkdtempSync(join(tmpdir(), "toolsandbox-bench-runs-"));
  const file = writeRunsPage(join(dir, "runs.html"), syntheticRunsData(RUNS));
  const browser = await PanelBrowser.launch();
  const firstRender: number[] = [];
  const resort: number[] = [];
  try {
    for (let i = 0; i < loads; i++) {
      const { page } = await browser.open(file, "[data-testid=runs-table] .runs-row");
      const timing = await page.evaluate(async (mark) => {
        const rendered = performance.getEntriesByName(mark)[0]?.startTime ?? Number.NaN;
        const start = performance.now();
        document.querySelector<HTMLElement>('[data-sort="score"]')?.click();
        await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
        return {
          rendered,
          resort: performance.now() - start,
          rows: document.querySelectorAll("[data-testid=runs-table] .runs-row").length,
        };
      }, FIRST_RENDER_MARK);
      if (timing.rows === 0 || timing.rows > 200) throw new Error(`the runs view drew ${timing.rows} rows`);
      firstRender.push(timing.rendered);
      resort.push(timing.resort);
      await page.close();
    }
  } finally {
    await browser.close();
  }
  const size = statSync(file).size;
  rmSync(dir, { recursive: true, force: true });
  const ms = (v: number): string => `${v.toFixed(1)} ms`;
  console.log(`runs view: ${RUNS} runs, page ${(size / 1024).toFixed(0)} KiB, ${loads} loads in Chromium (median, then each load)`);
  console.log(`  first render         ${ms(median(firstRender))}   [${firstRender.map((v) => v.toFixed(0)).join(", ")}]`);
  console.log(`  sort by score        ${ms(median(resort))}   [${resort.map((v) => v.toFixed(0)).join(", ")}]`);
  console.log(`  target: first render under ${RUNS_TARGET_MS} ms: ${median(firstRender) < RUNS_TARGET_MS ? "met" : "NOT met"}`);
  return median(firstRender);
}

void main().catch((e: unknown) => {
  console.error(`bench:panel: ${e instanceof Error ? e.message : String(e)}`);
  process.exit(1);
});

// Issue 39, items 1, 2 and 10, in Chromium: what the panel's header says without being opened, in a
// panel beside the editor (470 px). An errored run shows "errored" and its reason, with the files
// it names as links that ask the host to open them (the page renders text only); a re-score
// against the scenario as it is now says so beside the score, with the recorded one; an empty
// panel does not blame a filter.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { createNonce, panelHtml } from "../../engine/panel/html.js";
import type { TrajectoryLine } from "../../engine/panel/protocol.js";
import type { EvaluationResult } from "../../engine/evaluation/result.js";
import { requireBuild, removeTempDirs, tempDir } from "../cli/harness.js";
import { PanelBrowser, type PanelPage } from "./browser.js";
import { ALL_THEMES, applyTheme, contrasts } from "./theme.js";
import { readLines, samplePath } from "./trajectories.js";

const SAMPLE = "send_message_with_contact_content_cellular_off_adapted";
const WIDTH = 470;
const STDERR = "/work/runs/send_message.run-3.agent-stderr.log";

const STUB = `
window.__requests = [];
window.acquireVsCodeApi = function () {
  return { postMessage: function (m) { window.__requests.push(m); }, getState: function () { return null; }, setState: function () {} };
};`;

let browser: PanelBrowser;
let livePage = "";
let lines: TrajectoryLine[] = [];

before(async () => {
  requireBuild();
  const dir = tempDir("header-notes");
  const dist = join(__dirname, "..", "..", "dist");
  const nonce = createNonce();
  const html = panelHtml({
    title: "live",
    nonce,
    assets: {
      kind: "inline",
      script: readFileSync(join(dist, "webview.js"), "utf8"),
      style: readFileSync(join(dist, "webview.css"), "utf8"),
    },
  }).replace(`<script nonce="${nonce}">`, `<script nonce="${nonce}">${STUB}</script>\n<script nonce="${nonce}">`);
  livePage = join(dir, "live.html");
  writeFileSync(livePage, html);
  lines = readLines(samplePath(SAMPLE));
  browser = await PanelBrowser.launch();
});

after(async () => {
  await browser?.close();
  removeTempDirs();
});

async function openLive(): Promise<PanelPage> {
  const opened = await browser.open(livePage, "[data-testid=timeline]");
  await opened.page.setViewportSize({ width: WIDTH, height: 800 });
  return opened;
}

async function post(page: Page, message: unknown): Promise<void> {
  await page.evaluate((m) => window.postMessage(m, "*"), message);
  await page.evaluate(() => new Promise((resolve) => setTimeout(resolve, 0)));
}

const requests = (page: Page): Promise<unknown[]> => page.evaluate(() => (window as unknown as { __requests: unknown[] }).__requests);

/** A command agent that exited before it said anything: the run ends in role_error after the user's first message. */
function erroredRun(): TrajectoryLine[] {
  const firstUser = lines.findIndex((l) => l.type === "message" && l.message.sender === "user" && l.message.scripted !== true);
  const kept = lines.slice(0, firstUser + 1);
  const detail = `the command exited (code 127) before the conversation ended; its stderr is in ${STDERR}`;
  return [...kept, { type: "end", reason: "role_error", detail, message_count: kept.filter((l) => l.type === "message").length }];
}

test("an errored run says errored and why in the collapsed header, and its stderr path is a link the host opens", async () => {
  const { page } = await openLive();
  await post(page, { type: "lines", lines: erroredRun() });
  const more = page.locator("[data-testid=summary-more]");
  assert.equal(await more.getAttribute("aria-expanded"), "false", "the header is collapsed");
  const reason = page.locator("[data-testid=errored-reason]");
  assert.ok(await reason.isVisible(), "the reason shows without opening the header");
  assert.match((await reason.textContent()) ?? "", /^errored \(role_error\): the command exited \(code 127\)/);
  assert.equal(await page.locator("[data-testid=score]").textContent(), "–");
  const link = reason.locator(".path-link");
  assert.equal(await link.textContent(), STDERR);
  await link.click();
  assert.deepEqual((await requests(page)).at(-1), { type: "open-file", path: STDERR });
  // Readable in every bundled theme (WCAG AA).
  for (const theme of ALL_THEMES) {
    await applyTheme(page, theme);
    for (const c of await contrasts(page, ["[data-testid=errored-reason]", "[data-testid=errored-reason] .path-link"]))
      assert.ok(c.ratio >= 4.5, `${theme}: ${c.selector} ${c.ratio}:1 (${c.color} on ${c.background})`);
  }
  await page.close();
});

test("a re-score against the scenario as it is now says so beside the score, collapsed, with the recorded score", async () => {
  const { page } = await openLive();
  await post(page, { type: "lines", lines });
  const recorded = lines.find((l) => l.type === "evaluation");
  assert.ok(recorded?.type === "evaluation");
  assert.equal(await page.locator("[data-testid=rescored]").count(), 0, "the run's own score carries no label");
  const rescored = { ...(recorded.result as EvaluationResult), score: 0.5, milestone_score: 0.5 };
  await post(page, { type: "evaluation", result: rescored });
  await post(page, { type: "score-source", rescored: { recorded: (recorded.result as EvaluationResult).score } });
  const label = page.locator("[data-testid=rescored]");
  assert.ok(await label.isVisible());
  assert.equal(await label.textContent(), "re-scored against the scenario as it is now: 0.50; recorded 1.00");
  for (const theme of ALL_THEMES) {
    await applyTheme(page, theme);
    const [c] = await contrasts(page, ["[data-testid=rescored]"]);
    assert.ok(c && c.ratio >= 4.5, `${theme}: ${c?.ratio}:1 (${c?.color} on ${c?.background})`);
  }
  assert.equal(await page.locator("[data-testid=score]").textContent(), "0.50");
  // Scored against the run's own version again: the label goes.
  await post(page, { type: "evaluation", result: recorded.result });
  await post(page, { type: "score-source", rescored: null });
  assert.equal(await page.locator("[data-testid=rescored]").count(), 0);
  await page.close();
});

test("the empty panel does not blame a filter, and its Run Scenario button asks the host to run", async () => {
  const { page } = await openLive();
  await page.locator("[data-testid=empty-panel]").waitFor();
  const filterNotes = await page.evaluate(
    () =>
      [...document.querySelectorAll<HTMLElement>("*")].filter(
        (e) => e.checkVisibility() && /match the filter/.test(e.textContent ?? "") && e.children.length === 0,
      ).length,
  );
  assert.equal(filterNotes, 0, "no visible 'No messages match the filter.'");
  await page.locator("[data-action=empty-run]").click();
  assert.deepEqual((await requests(page)).at(-1), { type: "command", command: "run" });
  await page.close();
});

// The panel as VS Code hosts it: lines arrive one at a time over postMessage while a run plays,
// the run can be paused and stepped, and every request goes back through acquireVsCodeApi. The
// extension host is played by the test: a stub acquireVsCodeApi records what the panel asks for.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { createNonce, panelHtml } from "../../engine/panel/html.js";
import type { TrajectoryLine } from "../../engine/panel/protocol.js";
import { requireBuild, removeTempDirs, tempDir } from "../cli/harness.js";
import { PanelBrowser, shownIndex, textOf, type PanelPage } from "./browser.js";
import { readLines, samplePath } from "./trajectories.js";

let browser: PanelBrowser;
let page_file = "";
let lines: TrajectoryLine[] = [];

// Stands in for the extension host's side of acquireVsCodeApi (it carries the page's nonce). Like
// VS Code's, the saved state outlives a reload of the page.
const STUB = `
window.__requests = [];
window.acquireVsCodeApi = function () {
  return {
    postMessage: function (m) { window.__requests.push(m); },
    getState: function () { return JSON.parse(sessionStorage.getItem("state") || "null"); },
    setState: function (s) { sessionStorage.setItem("state", JSON.stringify(s)); },
  };
};`;

before(async () => {
  requireBuild();
  const dir = tempDir("panel-live");
  const nonce = createNonce();
  const dist = join(__dirname, "..", "..", "dist");
  const html = panelHtml({
    title: "live",
    nonce,
    assets: {
      kind: "inline",
      script: readFileSync(join(dist, "webview.js"), "utf8"),
      style: readFileSync(join(dist, "webview.css"), "utf8"),
    },
  }).replace(`<script nonce="${nonce}">`, `<script nonce="${nonce}">${STUB}</script>\n<script nonce="${nonce}">`);
  page_file = join(dir, "live.html");
  writeFileSync(page_file, html);
  lines = readLines(samplePath("send_message_with_contact_content_cellular_off_adapted"));
  browser = await PanelBrowser.launch();
});

after(async () => {
  await browser?.close();
  removeTempDirs();
});

async function openLive(): Promise<PanelPage> {
  return browser.open(page_file, "[data-testid=timeline]");
}

/** What the extension does: post one message into the webview. */
async function post(page: Page, message: unknown): Promise<void> {
  await page.evaluate((m) => window.postMessage(m, "*"), message);
  await page.evaluate(() => new Promise((resolve) => setTimeout(resolve, 0)));
}

async function requests(page: Page): Promise<unknown[]> {
  return page.evaluate(() => (window as unknown as { __requests: unknown[] }).__requests);
}

test("a live run streams in line by line; the panel follows it and can pause and step it", async () => {
  const panel = await openLive();
  const { page } = panel;
  assert.match(await textOf(page, "[data-testid=empty-panel]"), /No run is open/);
  assert.deepEqual(await requests(page), [{ type: "ready" }], "the panel tells the host it is listening");

  await post(page, { type: "live", state: "running" });
  const end = lines.findIndex((l) => l.type === "end");
  for (const line of lines.slice(0, 10)) await post(page, line);
  assert.equal(await textOf(page, "[data-testid=scenario-name]"), "send_message_with_contact_content_cellular_off_adapted");
  assert.equal(await shownIndex(page), 8, "the panel follows the newest message");
  assert.equal(await textOf(page, "[data-testid=score]"), "–");
  assert.match(await textOf(page, ".run-status"), /^live: running$/);

  // The host paused the run before the next turn: the panel offers Continue and Step.
  await post(page, { type: "live", state: "paused" });
  assert.equal(await textOf(page, ".live-state"), "Paused before the next message");
  assert.equal(await textOf(page, "[data-action=run-step]"), "Step message");
  await page.locator("[data-action=run-step]").click();
  await page.locator("[data-action=run-continue]").click();
  await post(page, { type: "live", state: "running" });
  await page.locator("[data-action=run-pause]").click();
  const controls = (await requests(page)).filter((r) => (r as { type: string }).type === "run-control");
  assert.deepEqual(controls, [
    { type: "run-control", action: "step" },
    { type: "run-control", action: "continue" },
    { type: "run-control", action: "pause" },
  ]);

  // Looking back at an earlier message stops the following; the stream goes on underneath.
  await page.locator("[data-action=first]").click();
  for (const line of lines.slice(10, end + 1)) await post(page, line);
  assert.equal(await shownIndex(page), 0);
  assert.equal(await textOf(page, "[data-testid=message-count]"), "26");
  await post(page, { type: "live", state: "finished" });
  assert.equal(await page.locator("[data-testid=live-controls]").isHidden(), true);
  // The evaluation arrives last: badges and the score appear without a reload.
  await post(page, lines[end + 1]);
  assert.equal(await textOf(page, "[data-testid=score]"), "1.00");
  await page.locator("[data-action=next-milestone]").click();
  assert.equal(await shownIndex(page), 19);
  assert.deepEqual(panel.problems.consoleErrors, []);
  assert.deepEqual(panel.problems.requests, []);
});

test("invalid or out-of-order messages from the host are ignored, logged and counted", async () => {
  const panel = await openLive();
  const { page } = panel;
  const [header, ...rest] = lines;
  await post(page, rest[0]);
  await post(page, header);
  await post(page, rest[0]);
  await post(page, rest[2]);
  await post(page, { type: "message", message: { sandbox_message_index: 1, sender: "root" } });
  await post(page, { type: "reveal", index: 7 });
  await post(page, "<img src=x onerror=alert(1)>");
  assert.equal(await textOf(page, "[data-testid=message-count]"), "1");
  // The line before the header is logged, but the header starts a new run and a new count.
  assert.match(
    await textOf(page, "[data-testid=notice]"),
    /^4 messages were ignored because they are not valid \(first: message 2 arrived where message 1 was expected\)\.$/,
  );
  assert.deepEqual(
    panel.problems.consoleWarnings.map((w) => w.replace(/^toolsandbox panel: ignored a message from the host: /, "")),
    [
      'a "message" line arrived before the header',
      "message 2 arrived where message 1 was expected",
      "/message/sender must be one of: system, user, agent, execution_environment",
      "cannot reveal message 7: the trajectory has 1 messages",
      "the message must be an object",
    ],
  );
  assert.deepEqual(panel.problems.dialogs, []);
  assert.deepEqual(panel.problems.consoleErrors, []);
  // A message from another frame is not the host: it is dropped before validation.
  await page.evaluate(() => void document.body.appendChild(document.createElement("iframe")));
  const child = page.frames().find((f) => f !== page.mainFrame());
  assert.ok(child);
  const line: unknown = rest[1];
  await child.evaluate((m) => window.parent.postMessage(m, "*"), line);
  await post(page, { type: "live", state: "running" });
  assert.equal(await textOf(page, "[data-testid=message-count]"), "1");
  assert.equal(panel.problems.consoleWarnings.length, 5, "dropped without a word: it was never a message from the host");
});

test("the panel asks the host to open links, reveal milestones and remember the selection", async () => {
  const panel = await openLive();
  const { page } = panel;
  const withLink: TrajectoryLine[] = lines.map((l) =>
    l.type === "message" && l.message.sandbox_message_index === 23
      ? { ...l, message: { ...l.message, content: `Sent. Details: https://example.com/status?id=1, or javascript:alert(1).` } }
      : l,
  );
  await post(page, { type: "lines", lines: withLink });
  await post(page, { type: "reveal", index: 23 });
  assert.equal(await shownIndex(page), 23);
  const links = page.locator("[data-testid=message] a");
  assert.deepEqual(await links.allTextContents(), ["https://example.com/status?id=1"]);
  await links.first().click();
  assert.equal(page.url().startsWith("file://"), true, "the panel itself never navigates");
  await page.locator(".node-card[data-node=confirmed] [data-action=reveal-node]").click();
  await page.locator("[data-testid=search]").fill("album");
  const sent = await requests(page);
  assert.ok(
    sent.some((r) => JSON.stringify(r) === JSON.stringify({ type: "open-link", url: "https://example.com/status?id=1" })),
    JSON.stringify(sent),
  );
  assert.ok(sent.some((r) => JSON.stringify(r) === JSON.stringify({ type: "reveal-node", kind: "milestone", id: "confirmed" })));
  assert.ok(sent.some((r) => JSON.stringify(r) === JSON.stringify({ type: "selected", index: 23 })));
  assert.deepEqual(await page.evaluate(() => JSON.parse(sessionStorage.getItem("state") ?? "null") as unknown), {
    selected: 23,
    query: "album",
    following: false,
  });
  assert.deepEqual(panel.problems.requests, []);
  assert.deepEqual(panel.problems.consoleErrors, []);

  // A reloaded panel (VS Code recreates hidden webviews) comes back to the same message and search.
  await page.reload();
  await page.waitForSelector("[data-testid=timeline]");
  await post(page, { type: "lines", lines: withLink });
  assert.equal(await shownIndex(page), 23);
  assert.equal(await page.locator("[data-testid=search]").inputValue(), "album");
});

/** Whether message `index`'s row is wholly inside the timeline's visible area. */
async function rowInView(page: Page, index: number): Promise<boolean> {
  return page.evaluate((i) => {
    const list = document.querySelector("[data-testid=timeline]")?.getBoundingClientRect();
    const row = document.querySelector(`.row[data-index="${i}"]`)?.getBoundingClientRect();
    return !!list && !!row && row.top >= list.top - 0.5 && row.bottom <= list.bottom + 0.5;
  }, index);
}

const timelineScroll = (page: Page): Promise<number> =>
  page.evaluate(() => document.querySelector("[data-testid=timeline]")?.scrollTop ?? -1);

test("while a run plays the timeline follows the newest message, until the user selects an older one", async () => {
  const { page } = await openLive();
  // A narrow panel: the timeline shows a few rows, so following means scrolling.
  await page.setViewportSize({ width: 480, height: 640 });
  // A narrow toolbar keeps to one row; "more" opens the jump field.
  await page.locator("[data-action=more]").click();
  const messageLines = lines.map((l, i) => ({ l, i })).filter(({ l }) => l.type === "message");
  const lineOf = (message: number): number => messageLines[message]?.i ?? -1;

  // A panel that opens mid-run gets the lines so far in one batch, then the live state.
  await post(page, { type: "lines", lines: lines.slice(0, lineOf(6) + 1) });
  await post(page, { type: "live", state: "running" });
  assert.equal(await shownIndex(page), 6, "the newest message so far is selected");
  assert.ok(await rowInView(page, 6));

  for (const line of lines.slice(lineOf(6) + 1, lineOf(14) + 1)) await post(page, line);
  assert.equal(await shownIndex(page), 14, "each new message is selected as it arrives");
  assert.ok(await rowInView(page, 14), "and scrolled into view");
  assert.ok((await timelineScroll(page)) > 0);

  // The user picks an older message and scrolls the list to read around it: both stay put.
  await page.locator("[data-testid=jump]").fill("3");
  await page.locator("[data-testid=jump]").press("Enter");
  assert.equal(await shownIndex(page), 3);
  await page.locator("[data-testid=timeline]").evaluate((t) => (t.scrollTop = 400));
  assert.equal(await rowInView(page, 3), false, "the selected row is scrolled out of view");
  for (const line of lines.slice(lineOf(14) + 1, lineOf(18) + 1)) await post(page, line);
  assert.equal(await shownIndex(page), 3, "the selection stays on the older message");
  assert.equal(await timelineScroll(page), 400, "the list is not scrolled back to it");
  await post(page, { type: "live", state: "paused" });
  assert.equal(await shownIndex(page), 3);
  assert.equal(await timelineScroll(page), 400);

  // Selecting the newest message again resumes following.
  await page.locator("[data-action=last]").click();
  assert.equal(await shownIndex(page), 18);
  await post(page, { type: "live", state: "running" });
  for (const line of lines.slice(lineOf(18) + 1, lineOf(21) + 1)) await post(page, line);
  assert.equal(await shownIndex(page), 21);
  assert.ok(await rowInView(page, 21));
});

test("a damaged file shows a banner saying where it was cut, and the next run clears it", async () => {
  const { page } = await openLive();
  const cut = lines.slice(0, 20).filter((l) => l.type !== "end" && l.type !== "evaluation");
  await post(page, { type: "lines", lines: cut });
  assert.equal(await page.locator("[data-testid=damaged]").isVisible(), false);
  await post(page, { type: "damaged", problem: "This file is cut at line 21: the last line is incomplete" });
  assert.match(await textOf(page, "[data-testid=damaged]"), /^Damaged trajectory\. This file is cut at line 21/);
  await post(page, { type: "damaged", problem: 42 });
  assert.match(await textOf(page, "[data-testid=notice]"), /ignored/, "a malformed message is refused, not shown");
  await post(page, lines[0]);
  assert.equal(await page.locator("[data-testid=damaged]").isVisible(), false);
});

test("an empty panel says one thing and offers Run and Open, which go to the host as commands", async () => {
  const { page } = await openLive();
  const empty = page.locator("[data-testid=empty-panel]");
  assert.match((await empty.textContent()) ?? "", /No run is open/);
  assert.equal(await page.getByText("Waiting for a trajectory").count(), 0, "no second, contradictory message");
  await page.locator("[data-action=empty-run]").click();
  await page.locator("[data-action=empty-open]").click();
  const requests = await page.evaluate(() =>
    (window as unknown as { __requests: { type: string }[] }).__requests.filter((r) => r.type === "command"),
  );
  assert.deepEqual(requests, [
    { type: "command", command: "run" },
    { type: "command", command: "open" },
  ]);
  await post(page, lines[0]);
  assert.equal(await empty.count(), 0);
});

// A long run's exported page (100,000 messages, some 50 MB): its lines are embedded in chunks so
// the panel draws the first messages while the browser is still reading the rest. What a person
// checks: once the page is read, it is the whole run (first and last message, score, jumps), it
// opens where a short page would (the first failure), and a page cut short shows what it holds.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { parseHostMessage } from "../../client/webview/validate/host-messages.js";
import { createNonce, panelHtml } from "../../engine/panel/html.js";
import type { TrajectoryLine } from "../../engine/panel/protocol.js";
import { requireBuild, removeTempDirs, tempDir } from "../cli/harness.js";
import { PanelBrowser, shownIndex, textOf } from "./browser.js";
import { longRun, writePanelPage } from "./trajectories.js";

const MESSAGES = 100_000;
let browser: PanelBrowser;
let dir = "";
let lines: TrajectoryLine[] = [];
let file = "";

before(async () => {
  requireBuild();
  dir = tempDir("long-page");
  lines = longRun(MESSAGES);
  file = writePanelPage(join(dir, "long.html"), lines);
  browser = await PanelBrowser.launch();
});

after(async () => {
  await browser?.close();
  removeTempDirs();
});

async function press(page: Page, key: string): Promise<void> {
  await page.locator("[data-testid=timeline]").focus();
  await page.keyboard.press(key);
}

/** Where the run's minefield was stepped on: the first failure, where a finished run opens. */
function minefieldMatch(): number {
  const evaluation = lines.find((l) => l.type === "evaluation");
  assert.ok(evaluation?.type === "evaluation");
  const at = evaluation.result.minefields[0]?.matched_at;
  assert.ok(typeof at === "number");
  return at;
}

test("the page writer puts the first chunk of lines before the panel's script and the rest after it, losing none", () => {
  const html = panelHtml({
    title: "t",
    nonce: createNonce(),
    assets: { kind: "inline", script: "void 0", style: "" },
    lines: lines.slice(0, 2500),
  });
  const chunks = [...html.matchAll(/<script type="application\/json" id="([^"]+)"([^>]*)>(.*?)<\/script>/g)];
  assert.deepEqual(
    chunks.map((c) => c[1]),
    ["trajectory-data", "trajectory-data-1", "trajectory-data-2"],
  );
  assert.equal(chunks[0]![2], ' data-chunks="3" data-lines="2500"');
  assert.deepEqual(
    chunks.flatMap((c) => JSON.parse(c[3]!) as unknown[]),
    lines.slice(0, 2500),
  );
  const script = html.indexOf("<script nonce=");
  assert.ok(html.indexOf(chunks[0]![0]) < script && script < html.indexOf(chunks[1]![0]), "the panel's script sits after the first chunk");
  // A short run's page is one list, as pages written before chunks were.
  const short = panelHtml({
    title: "t",
    nonce: createNonce(),
    assets: { kind: "inline", script: "void 0", style: "" },
    lines: lines.slice(0, 10),
  });
  assert.equal(short.match(/type="application\/json"/g)?.length, 1);
  assert.match(short, /<script type="application\/json" id="trajectory-data">\[/);
});

test("the page's word on how far it has read is checked at the wire like any host message", () => {
  assert.deepEqual(parseHostMessage({ type: "loading", loaded: 3, total: 10 }), {
    ok: true,
    value: { type: "loading", loaded: 3, total: 10 },
  });
  const over = parseHostMessage({ type: "loading", loaded: 11, total: 10 });
  assert.ok(!over.ok && /\/loaded/.test(over.error), JSON.stringify(over));
  assert.equal(parseHostMessage({ type: "loading", loaded: -1, total: 10 }).ok, false);
  assert.equal(parseHostMessage({ type: "loading", loaded: 1 }).ok, false);
});

test("100,000 messages: once read, the page is the whole run, opened at its first failure, and jumps reach both ends", async () => {
  const panel = await browser.open(file);
  const { page } = panel;
  assert.equal(await textOf(page, "[data-testid=message-count]"), String(MESSAGES));
  assert.equal(await textOf(page, "[data-testid=run-status]"), "ended: max_messages");
  assert.equal(await textOf(page, "[data-testid=score]"), "0.00");
  assert.equal(await textOf(page, "[data-testid=score-label]"), "score");
  // Opened where the short page of the same run opens: the minefield stepped on, not the first chunk's opening.
  assert.equal(await shownIndex(page), minefieldMatch());
  await press(page, "Home");
  assert.equal(await shownIndex(page), 0);
  assert.equal(await textOf(page, "[data-testid=timeline] .row.selected .row-index"), "0");
  await press(page, "End");
  assert.equal(await shownIndex(page), MESSAGES - 1);
  assert.equal(await textOf(page, "[data-testid=timeline] .row.selected .row-index"), String(MESSAGES - 1));
  assert.match(await textOf(page, "[data-testid=message]"), /round 24999/);
  await page.locator("[data-testid=jump]").fill("77777");
  await page.locator("[data-testid=jump]").press("Enter");
  await page.locator('[data-testid=message][data-index="77777"]').waitFor();
  assert.ok((await page.locator("[data-testid=timeline] .row").count()) < 60, "only the rows in view exist");
  // The milestones of the last chunks are in place: next milestone from the start lands on the first quarter's match.
  await page.locator("[data-action=first]").click();
  await page.locator("[data-action=next-milestone]").click();
  assert.equal(await textOf(page, "[data-testid=nodes-here] .node-title"), "first_quarter");
  assert.deepEqual(panel.problems, { consoleErrors: [], consoleWarnings: [], pageErrors: [], dialogs: [], requests: [], blockedByCsp: [] });
});

test("a long page cut short shows the messages it holds and says the run did not finish", async () => {
  const whole = readFileSync(file, "utf8");
  // As when a download stops: the page ends inside the fourth chunk.
  const cut = whole.slice(0, whole.indexOf('id="trajectory-data-3"') + 5000);
  const cutFile = join(dir, "cut.html");
  writeFileSync(cutFile, cut);
  const panel = await browser.open(cutFile);
  const { page } = panel;
  // The three whole chunks: 3,000 lines, the header and world changes among them.
  const held = lines.slice(0, 3000).filter((l) => l.type === "message").length;
  assert.equal(await textOf(page, "[data-testid=message-count]"), String(held));
  assert.equal(await textOf(page, "[data-testid=run-status]"), "did not finish");
  assert.equal(await textOf(page, "[data-testid=score-label]"), "not scored");
  await press(page, "End");
  assert.equal(await shownIndex(page), held - 1);
  assert.equal(panel.problems.pageErrors.length, 0);
  assert.ok(
    panel.problems.consoleWarnings.some((w) => /not valid JSON/.test(w)),
    panel.problems.consoleWarnings.join("\n"),
  );
});

// The replay panel in Chromium, on files written by `toolsandbox replay --html`: what a person
// stepping through a run sees and does. Stepping, world diffs, milestone badges, search, filters.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { requireBuild, removeTempDirs, tempDir } from "../cli/harness.js";
import { PanelBrowser, shownIndex, textOf, type PanelPage } from "./browser.js";
import { CLI, exportWithCli, flawedRun, longRun, samplePath, writeLines, writePanelPage } from "./trajectories.js";

let browser: PanelBrowser;
let dir = "";
const files: Record<string, string> = {};

before(async () => {
  requireBuild();
  dir = tempDir("panel");
  for (const name of [
    "send_message_with_contact_content_cellular_off_adapted",
    "remove_contact_by_phone_adapted",
    "update_contact_relationship_with_relationship_adapted",
  ]) {
    files[name] = exportWithCli(samplePath(name), join(dir, `${name}.html`));
  }
  files.flawed = exportWithCli(writeLines(join(dir, "flawed.trajectory.jsonl"), flawedRun()), join(dir, "flawed.html"));
  files.long = writePanelPage(join(dir, "long.html"), longRun(2000));
  browser = await PanelBrowser.launch();
});

after(async () => {
  await browser?.close();
  removeTempDirs();
});

async function open(name: string): Promise<PanelPage> {
  const file = files[name];
  assert.ok(file, name);
  return browser.open(file);
}

async function jump(page: Page, index: number): Promise<void> {
  await page.locator("[data-testid=jump]").fill(String(index));
  await page.locator("[data-testid=jump]").press("Enter");
  await page.locator(`[data-testid=message][data-index="${index}"]`).waitFor();
}

/** "kind table" of every change card the detail shows. */
async function changeCards(page: Page): Promise<string[]> {
  return page
    .locator("[data-testid=world] .change")
    .evaluateAll((cards) => cards.map((c) => `${c.getAttribute("data-op")} ${c.querySelector(".change-table")?.textContent ?? ""}`));
}

function assertClean({ problems }: PanelPage): void {
  assert.deepEqual(problems, { consoleErrors: [], consoleWarnings: [], pageErrors: [], dialogs: [], requests: [], blockedByCsp: [] });
}

test("the summary shows the scenario, the score and the turn count that `replay` computes", async () => {
  const replay = spawnSync(process.execPath, [CLI, "replay", samplePath("send_message_with_contact_content_cellular_off_adapted")], {
    encoding: "utf8",
  });
  const scoreLine = /^evaluation {2}score (\d\.\d\d) \(milestones (\d\.\d\d), minefields (\d\.\d\d)\), (\d+) turns$/m.exec(replay.stdout);
  assert.ok(scoreLine, replay.stdout);
  const panel = await open("send_message_with_contact_content_cellular_off_adapted");
  const { page } = panel;
  assert.equal(await textOf(page, "[data-testid=scenario-name]"), "send_message_with_contact_content_cellular_off_adapted");
  assert.equal(await textOf(page, "[data-testid=score]"), scoreLine[1]);
  assert.equal(await textOf(page, "[data-testid=milestone-score]"), scoreLine[2]);
  assert.equal(await textOf(page, "[data-testid=minefield-score]"), scoreLine[3]);
  assert.equal(await textOf(page, "[data-testid=turn-count]"), scoreLine[4]);
  assert.equal(await textOf(page, "[data-testid=message-count]"), "26");
  const scenario = "send_message_with_contact_content_cellular_off_adapted";
  assert.equal(await page.title(), `${scenario} · ${scenario}.trajectory.jsonl · ToolSandbox replay`);
  // The flawed run's lower score, computed by this build's evaluation, reaches the page too.
  const flawed = await open("flawed");
  assert.equal(await textOf(flawed.page, "[data-testid=score]"), "0.89");
  assertClean(panel);
  assertClean(flawed);
});

test("stepping forward and back changes the selected message and the world diff shown", async () => {
  const panel = await open("send_message_with_contact_content_cellular_off_adapted");
  const { page } = panel;
  // Every milestone matched: the replay opens on the first real user message, past the setup.
  assert.equal(await shownIndex(page), 16, "a replay opens at the first real user message");
  await jump(page, 18);
  assert.deepEqual(await changeCards(page), []);
  await page.locator("[data-action=step]").click();
  assert.equal(await shownIndex(page), 19);
  assert.deepEqual(await changeCards(page), ["update SETTING"]);
  assert.equal(await textOf(page, "[data-testid=timeline] .row.selected .row-index"), "19");
  await page.locator("[data-action=step]").click();
  assert.equal(await shownIndex(page), 20);
  assert.deepEqual(await changeCards(page), []);
  await page.locator("[data-action=step-back]").click();
  assert.equal(await shownIndex(page), 19);
  assert.deepEqual(await changeCards(page), ["update SETTING"]);
  // The keyboard does the same: j / ↓ forward, k / ↑ back, Home and End.
  await page.locator("[data-testid=timeline]").focus();
  await page.keyboard.press("j");
  await page.keyboard.press("ArrowDown");
  assert.equal(await shownIndex(page), 21);
  await page.keyboard.press("k");
  assert.equal(await shownIndex(page), 20);
  await page.keyboard.press("End");
  assert.equal(await shownIndex(page), 25);
  await page.keyboard.press("Home");
  assert.equal(await shownIndex(page), 0);
  // "?" lists the shortcuts; Escape closes the list.
  await page.keyboard.press("?");
  assert.match(await textOf(page, "[data-testid=shortcuts]"), /next milestone or minefield match/);
  await page.keyboard.press("Escape");
  assert.equal(await page.locator("[data-testid=shortcuts]").isHidden(), true);
  assertClean(panel);
});

test("a world diff shows changed columns old → new, and added and removed rows with their values", async () => {
  const updated = await open("send_message_with_contact_content_cellular_off_adapted");
  await jump(updated.page, 19);
  const change = updated.page.locator("[data-testid=world] .change[data-op=update]");
  assert.deepEqual(await change.locator(".col-name").allTextContents(), ["cellular"]);
  assert.equal(await change.locator(".old").textContent(), "false");
  assert.equal(await change.locator(".new").textContent(), "true");
  assert.match((await change.locator(".unchanged").textContent()) ?? "", /^6 other columns unchanged$/);

  await jump(updated.page, 22);
  const added = updated.page.locator("[data-testid=world] .change[data-op=insert]");
  assert.equal(await added.locator(".change-table").textContent(), "MESSAGING");
  const cells = await added.locator(".change-body").evaluate((body) => [...body.children].map((c) => c.textContent ?? ""));
  assert.ok(cells.includes("content") && cells.includes(`"How's the new album coming along"`), cells.join(" | "));
  // A timestamp also reads in the scenario's local time.
  assert.ok(
    cells.some((c) => /^\d+ 2026-05-20 08:30:00 /.test(c)),
    cells.join(" | "),
  );

  const removed = await open("remove_contact_by_phone_adapted");
  await jump(removed.page, 20);
  const gone = removed.page.locator("[data-testid=world] .change[data-op=delete]");
  assert.equal(await gone.locator(".change-key").textContent(), `person_id "9e137f06-916a-5310-8174-cf0b7e9f7054"`);
  const removedValues = await gone.locator(".old").allTextContents();
  assert.ok(removedValues.includes(`"Fredrik Thordendal"`), removedValues.join(" | "));

  // Two updates that re-append their rows: each says where the row moved.
  const moved = await open("update_contact_relationship_with_relationship_adapted");
  await jump(moved.page, 21);
  assert.deepEqual(await changeCards(moved.page), ["update CONTACT", "update CONTACT"]);
  assert.deepEqual(await moved.page.locator("[data-testid=world] .change-where").allTextContents(), [
    "changed · moved from row 1 to row 3",
    "changed · moved from row 1 to row 3",
  ]);
  assert.deepEqual(await moved.page.locator("[data-testid=world] .change .new").allTextContents(), [`"enemy"`, `"enemy"`]);

  // The whole world at a message: before the removal the contact is there, after it is not.
  await jump(removed.page, 19);
  await removed.page.locator("details.world-at summary").click();
  await removed.page.locator(".world-table-section").first().waitFor();
  const namesAt = async (): Promise<string[]> =>
    removed.page.locator(".world-table-section").filter({ hasText: "CONTACT" }).locator("tbody tr td:nth-child(2)").allTextContents();
  const before = await namesAt();
  assert.ok(before.includes(`"Fredrik Thordendal"`), before.join(","));
  await removed.page.locator("[data-action=step]").click();
  const after = await namesAt();
  assert.ok(
    !after.includes(`"Fredrik Thordendal"`),
    `the world view stays open and follows the step: ${after.join(",")} at ${await shownIndex(removed.page)}`,
  );
  for (const p of [updated, removed, moved]) assertClean(p);
});

test("milestone badges sit at the messages where they matched, with their similarity (◐ below 1) and why", async () => {
  const panel = await open("flawed");
  const { page } = panel;
  const expected = [
    ["cellular_on", 19, "1.00"],
    ["found_contact", 19, "1.00"],
    ["message_sent", 22, "0.58"],
    ["confirmed", 23, "1.00"],
  ] as const;
  for (const [id, at, similarity] of expected) {
    await jump(page, at);
    const badge = page.locator(`[data-testid=timeline] .row[data-index="${at}"] .badge.node[data-node="${id}"]`);
    // A match below 1 is partial: ◐, not the check mark of a full one.
    const full = similarity === "1.00";
    assert.equal(await badge.textContent(), `${full ? "✓" : "◐"} ${id} ${similarity}`);
    const card = page.locator(`[data-testid=nodes-here] .node-card[data-node="${id}"]`);
    assert.equal(await card.locator(".node-head [data-testid=similarity]").textContent(), similarity);
    assert.equal(await card.locator(".node-verdict").textContent(), full ? "matched here" : "matched here, in part");
  }
  // The explanation names the column that pulled message_sent down.
  await jump(page, 22);
  const weakest = page.locator(`.node-card[data-node="message_sent"] [data-testid=weakest-column]`);
  assert.match(
    (await weakest.textContent()) ?? "",
    /^Pulled down by column content \(0\.33\): ROUGE-L against "How's the new album coming along"$/,
  );
  assert.equal(await page.locator(".node-card[data-node=message_sent] .score-table tr.below td:first-child").textContent(), "content");
  // No badge where nothing matched.
  await jump(page, 21);
  assert.equal(await page.locator(`[data-testid=timeline] .row[data-index="21"] .badge.node`).count(), 0);
  assert.equal(await page.locator("[data-testid=nodes-here]").count(), 0);
  // The milestone chips in the summary jump to their message.
  await page.locator(`.node-chip[data-node="confirmed"]`).click();
  assert.equal(await shownIndex(page), 23);
  assertClean(panel);
});

test("continue to the next milestone jumps from match to match", async () => {
  const panel = await open("send_message_with_contact_content_cellular_off_adapted");
  const { page } = panel;
  const visited: number[] = [];
  for (let i = 0; i < 4; i++) {
    await page.locator("[data-action=next-milestone]").click();
    visited.push(await shownIndex(page));
  }
  assert.deepEqual(visited, [19, 22, 23, 23]);
  await page.locator("[data-testid=timeline]").focus();
  await page.keyboard.press("p");
  assert.equal(await shownIndex(page), 22);
  await page.keyboard.press("n");
  assert.equal(await shownIndex(page), 23);
  assertClean(panel);
});

test("the role filter lists only the chosen senders, or only what one role could see", async () => {
  const panel = await open("send_message_with_contact_content_cellular_off_adapted");
  const { page } = panel;
  const senders = async (): Promise<string[]> =>
    page
      .locator("[data-testid=timeline] .row")
      .evaluateAll((rows) => [...new Set(rows.map((r) => /role-(\w+)/.exec(r.className)?.[1] ?? ""))].sort());
  assert.deepEqual(await senders(), ["agent", "execution_environment", "system", "user"]);
  await page.locator("[data-role=system]").click();
  await page.locator("[data-role=user]").click();
  assert.deepEqual(await senders(), ["agent", "execution_environment"]);
  assert.equal(await page.locator("[data-role=user]").getAttribute("aria-pressed"), "false");
  assert.match(await textOf(page, "[data-testid=position]"), /26 messages, \d+ shown$/);
  // Stepping skips what the filter hides: 19 and 20 are the environment's responses.
  await jump(page, 18);
  await page.locator("[data-action=step]").click();
  assert.equal(await shownIndex(page), 19);
  await page.locator("[data-role=execution_environment]").click();
  await jump(page, 18);
  await page.locator("[data-action=step]").click();
  assert.equal(await shownIndex(page), 21);

  // Seen by the user: the user's side of the bus, without the agent's tool traffic.
  for (const role of ["system", "user", "execution_environment"]) await page.locator(`[data-role=${role}]`).click();
  await page.locator("[data-testid=seen-by]").selectOption("user");
  const visibility = await page
    .locator("[data-testid=timeline] .row")
    .evaluateAll((rows) => rows.map((r) => Number(r.getAttribute("data-index"))));
  assert.ok(visibility.length > 0 && !visibility.includes(17) && !visibility.includes(19), visibility.join(","));
  await page.locator("[data-testid=timeline] .row").first().click();
  assert.match(await textOf(page, "[data-testid=visibility]"), /user/);
  assertClean(panel);
});

test("search finds text, counts and highlights the matches, and Enter walks through them", async () => {
  const panel = await open("send_message_with_contact_content_cellular_off_adapted");
  const { page } = panel;
  const search = page.locator("[data-testid=search]");
  // From the (folded) setup row: the search looks inside the setup too, and unfolds it for a hit there.
  await jump(page, 0);
  await search.fill("Album");
  assert.equal(await textOf(page, "[data-testid=search-count]"), "– / 4");
  const walked: number[] = [];
  for (let i = 0; i < 5; i++) {
    await search.press("Enter");
    walked.push(await shownIndex(page));
    assert.equal(await page.locator("[data-testid=timeline] .row.selected.hit").count(), 1, "a hit's row is marked");
  }
  assert.deepEqual(walked, [15, 16, 21, 23, 15]);
  assert.equal(await page.locator("[data-testid=timeline] .row[data-index='17'].hit").count(), 0);
  await search.press("Shift+Enter");
  assert.equal(await shownIndex(page), 23);
  assert.equal(await textOf(page, "[data-testid=search-count]"), "4 / 4");
  const marks = await page.locator("[data-testid=message] mark").allTextContents();
  assert.ok(marks.length > 0 && marks.every((m) => m.toLowerCase() === "album"), marks.join(","));
  // A match inside tool arguments is highlighted in the call's JSON.
  await search.fill("Is the album");
  await search.press("Enter");
  const flawed = await open("flawed");
  await flawed.page.locator("[data-testid=search]").fill("Is the album");
  await flawed.page.locator("[data-testid=search]").press("Enter");
  assert.equal(await shownIndex(flawed.page), 21);
  assert.deepEqual(await flawed.page.locator("[data-testid=message] .tool-call mark").allTextContents(), ["Is the album"]);
  // Nothing found says so; Escape clears the search.
  await search.fill("no such words anywhere");
  assert.equal(await textOf(page, "[data-testid=search-count]"), "no matches");
  await search.press("Escape");
  assert.equal(await search.inputValue(), "");
  assert.equal(await page.locator("mark").count(), 0);
  assertClean(panel);
  assertClean(flawed);
});

test("play steps through the run on its own and pause stops it", async () => {
  const panel = await open("send_message_with_contact_content_cellular_off_adapted");
  const { page } = panel;
  await page.locator("[data-action=play]").click();
  assert.equal(await page.locator("[data-action=play]").getAttribute("aria-pressed"), "true");
  await page.waitForFunction(() => Number(document.querySelector("[data-testid=message]")?.getAttribute("data-index")) >= 1, undefined, {
    timeout: 5000,
  });
  await page.locator("[data-action=play]").click();
  const stopped = await shownIndex(page);
  await page.waitForTimeout(1000);
  assert.equal(await shownIndex(page), stopped);
  assert.equal(await page.locator("[data-action=play]").getAttribute("aria-pressed"), "false");
  assertClean(panel);
});

test("2,000 messages: only the rows in view exist, and End shows the last message", async () => {
  const panel = await open("long");
  const { page } = panel;
  assert.equal(await textOf(page, "[data-testid=message-count]"), "2000");
  assert.ok((await page.locator("[data-testid=timeline] .row").count()) < 60);
  // How long the jump takes is bench:panel's figure ("jump to last message"); here, what it shows.
  await page.evaluate(() => document.dispatchEvent(new KeyboardEvent("keydown", { key: "End", bubbles: true })));
  await page.waitForFunction(() => document.querySelector("[data-testid=message]")?.getAttribute("data-index") === "1999");
  assert.equal(await shownIndex(page), 1999);
  assert.equal(await textOf(page, "[data-testid=timeline] .row.selected .row-index"), "1999");
  // The last message is the agent's reply of the last round (four messages a round: 1999 is round 499's fourth).
  assert.match(await textOf(page, "[data-testid=message]"), /Cellular is (on|off) now \(round 499\)\./);
  assert.ok((await page.locator("[data-testid=timeline] .row").count()) < 60);
  await jump(page, 1001);
  assert.equal(await textOf(page, "[data-testid=timeline] .row.selected .row-index"), "1001");
  // Next milestone from the start lands on the first quarter's match.
  await page.locator("[data-action=first]").click();
  await page.locator("[data-action=next-milestone]").click();
  assert.equal(await textOf(page, "[data-testid=nodes-here] .node-title"), "first_quarter");
  assertClean(panel);
});

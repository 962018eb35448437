// The replay panel in Chromium on a run of a scenario imported from a ToolTalk-format conversation
// (the garden conversation of the importer's tests, over our fixture's databases: a meeting booked
// with CreateEvent, then more calendar, reminder and alarm changes): the run is made and exported
// by the CLI as a user would (`run`, then `replay --html`), and the panel must show
// ToolTalk's tables keyed by their own key columns, list cells as lists, and the milestone badges
// where `eval` says each milestone matched.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { CALENDAR } from "../../engine/packs/tooltalk/tables.js";
import type { RowChange } from "../../engine/world/types.js";
import { requireBuild, removeTempDirs, tempDir } from "../cli/harness.js";
import { PanelBrowser, shownIndex, textOf, type PanelPage } from "./browser.js";
import { CLI, exportWithCli, readLines } from "./trajectories.js";
import { gardenScenario } from "../benchmarks/tooltalk/importer/fixtures.js";

let browser: PanelBrowser;
let trajectory = "";
let html = "";

function cli(args: readonly string[]): string {
  const r = spawnSync(process.execPath, [CLI, ...args], { encoding: "utf8" });
  assert.equal(r.status, 0, `toolsandbox ${args.join(" ")}: ${r.stderr}`);
  return r.stdout;
}

before(async () => {
  requireBuild();
  const dir = tempDir("tooltalk-panel");
  const { name, text } = gardenScenario();
  const scenario = join(dir, `${name}.scenario.yaml`);
  writeFileSync(scenario, text);
  cli(["run", scenario, "--out", dir]);
  trajectory = join(dir, `${name}.trajectory.jsonl`);
  html = exportWithCli(trajectory, join(dir, `${name}.html`));
  browser = await PanelBrowser.launch();
});

after(async () => {
  await browser?.close();
  removeTempDirs();
});

async function jump(page: Page, index: number): Promise<void> {
  await page.locator("[data-testid=jump]").fill(String(index));
  await page.locator("[data-testid=jump]").press("Enter");
  await page.locator(`[data-testid=message][data-index="${index}"]`).waitFor();
}

function assertClean({ problems }: PanelPage): void {
  assert.deepEqual(problems, { consoleErrors: [], consoleWarnings: [], pageErrors: [], dialogs: [], requests: [], blockedByCsp: [] });
}

/** The CALENDAR row the run added, and the message it was recorded at, read from the trajectory file. */
function addedEvent(): { index: number; change: Extract<RowChange, { op: "insert" }> } {
  for (const line of readLines(trajectory)) {
    if (line.type !== "world") continue;
    const change = line.changes.find((c): c is Extract<RowChange, { op: "insert" }> => c.op === "insert" && c.table === "CALENDAR");
    if (change) return { index: line.index, change };
  }
  assert.fail("the run added no CALENDAR row");
}

test("the event CreateEvent added shows as a CALENDAR card keyed by event_id, its attendees as a list", async () => {
  const { index, change } = addedEvent();
  const { row } = change;
  assert.ok(
    Array.isArray(row.attendees) && row.attendees.includes("tomas_lind") && row.attendees.includes("mira_okafor"),
    JSON.stringify(row),
  );
  const panel = await browser.open(html);
  const { page } = panel;
  await jump(page, index);
  const card = page.locator("[data-testid=world] .change[data-op=insert]");
  assert.equal(await card.count(), 1);
  assert.equal(await card.locator(".change-table").textContent(), "CALENDAR");
  assert.equal(await card.locator(".change-key").textContent(), `event_id ${JSON.stringify(row.event_id)}`);
  // Every column of the row, in the schema's order, each with its value.
  assert.deepEqual(
    await card.locator(".col-name").allTextContents(),
    CALENDAR.columns.map((c) => c.name),
  );
  const attendees = card.locator(".col-name:text-is('attendees') + .new .cell");
  assert.equal(await attendees.getAttribute("class"), "cell list");
  assert.equal(await attendees.textContent(), JSON.stringify(row.attendees));
  assert.equal(await card.locator(".col-name:text-is('name') + .new .cell").textContent(), JSON.stringify(row.name));

  // The world at that message has ToolTalk's tables, CALENDAR with its own columns and the new row marked.
  await page.locator("details.world-at summary").click();
  await page.locator(".world-table-section").first().waitFor();
  const tables = await page.locator(".world-table-section h4").evaluateAll((hs) => hs.map((h) => h.firstChild?.textContent ?? ""));
  assert.deepEqual(tables, ["ACCOUNT", "SESSION", "ALARM", "CALENDAR", "EMAIL", "MESSAGE", "REMINDER", "WEATHER", "HISTORIC_WEATHER"]);
  const calendar = page.locator(".world-table-section").filter({ has: page.locator("h4", { hasText: /^CALENDAR/ }) });
  assert.deepEqual(
    await calendar.locator("th").allTextContents(),
    CALENDAR.columns.map((c) => c.name),
  );
  const touched = await calendar.locator("tbody tr.touched td").allTextContents();
  assert.ok(touched.includes(JSON.stringify(row.event_id)) && touched.includes(JSON.stringify(row.attendees)), touched.join(" | "));
  assertClean(panel);
});

test("every milestone badge sits where `eval` says the milestone matched, at similarity 1.00, and the score is 1.00", async () => {
  const scored = JSON.parse(cli(["eval", trajectory, "--json"])) as {
    trajectories: { score: number; milestones: { id: string; matched_at: number | null }[] }[];
  };
  const [result] = scored.trajectories;
  assert.ok(result && result.milestones.length > 0);
  const panel = await browser.open(html);
  const { page } = panel;
  assert.equal(await textOf(page, "[data-testid=score]"), result.score.toFixed(2));
  assert.equal(await textOf(page, "[data-testid=score]"), "1.00");
  for (const { id, matched_at: at } of result.milestones) {
    assert.notEqual(at, null, `${id} matched nowhere`);
    await jump(page, at!);
    const badge = page.locator(`[data-testid=timeline] .row[data-index="${at}"] .badge.node[data-node="${id}"]`);
    assert.equal(await badge.textContent(), `✓ ${id} 1.00`);
    assert.equal(await page.locator(`[data-testid=nodes-here] .node-card[data-node="${id}"] .node-verdict`).textContent(), "matched here");
  }
  // The chip of the event's milestone jumps to the message where the CALENDAR row was added.
  await page.locator(`.node-chip[data-node="reply2_create_event"]`).click();
  assert.equal(await shownIndex(page), addedEvent().index);
  assertClean(panel);
});

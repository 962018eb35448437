// Issue 26, item 6, in Chromium: what a score, a milestone and a minefield look like. A paused run
// before the agent acted shows no score (never a red 0.00), and its turn count is labelled even in a
// narrow panel; a 0.45-like partial match is an amber ◐, not a green ✓; a stepped-on minefield says
// "hit", never "1.00"; compare colours a match green; highlights stay readable in dark and light
// themes (VS Code's, whatever the browser prefers, and the pages' own); two runs picked in the runs
// view are marked; the Agent column shows "openai:gpt-4o-mini" whole.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { createNonce, panelHtml } from "../../engine/panel/html.js";
import type { TrajectoryLine } from "../../engine/panel/protocol.js";
import type { EvaluationResult } from "../../engine/evaluation/result.js";
import { requireBuild, removeTempDirs, tempDir } from "../cli/harness.js";
import { PanelBrowser, textOf } from "./browser.js";
import { runsReport } from "../../engine/reports/runs-report.js";
import { syntheticRuns, writeRunsPage } from "./runs-fixtures.js";
import { applyTheme, contrasts, resolvedColor, type ThemeCase } from "./theme.js";
import { CLI, exportWithCli, flawedRun, readLines, samplePath, writeLines, writePanelPage } from "./trajectories.js";

const SAMPLE = "send_message_with_contact_content_cellular_off_adapted";
const MINEFIELD_SAMPLE = "send_message_with_contact_content_cellular_off_insufficient_information";
const AGENTS = ["openai:gpt-4o", "openai:gpt-4o-mini", "openai:llama3.1-70b", "scripted"];
const THEMES: readonly ThemeCase[] = ["vscode-dark", "vscode-light", "dark", "light"];
/** WCAG AA for text. */
const READABLE = 4.5;

let browser: PanelBrowser;
const files: Record<string, string> = {};

// Stands in for the extension host's side of acquireVsCodeApi, as in live.test.ts.
const STUB = `
window.__requests = [];
window.acquireVsCodeApi = function () {
  return { postMessage: function (m) { window.__requests.push(m); }, getState: function () { return null; }, setState: function () {} };
};`;

before(async () => {
  requireBuild();
  const dir = tempDir("score-colours");
  const dist = join(__dirname, "..", "..", "dist");
  const nonce = createNonce();
  const live = panelHtml({
    title: "live",
    nonce,
    assets: {
      kind: "inline",
      script: readFileSync(join(dist, "webview.js"), "utf8"),
      style: readFileSync(join(dist, "webview.css"), "utf8"),
    },
  }).replace(`<script nonce="${nonce}">`, `<script nonce="${nonce}">${STUB}</script>\n<script nonce="${nonce}">`);
  files.live = join(dir, "live.html");
  writeFileSync(files.live, live);
  // The agent sends another text: message_sent matches at 0.58 only (the run scores 0.89).
  const flawed = writeLines(join(dir, "flawed.trajectory.jsonl"), flawedRun());
  files.flawed = exportWithCli(flawed, join(dir, "flawed.html"));
  // The insufficient-information sample with its minefield stepped on at the agent's first call.
  const mined = readLines(samplePath(MINEFIELD_SAMPLE)).map((l): TrajectoryLine => {
    if (l.type !== "evaluation") return l;
    const result = l.result as EvaluationResult;
    const minefields = result.minefields.map((m) => ({ ...m, matched_at: 17, explained_at: 17, similarity: 1 }));
    return { ...l, result: { ...result, score: 0, minefield_score: 1, zero_reason: "a minefield was hit", minefields } } as TrajectoryLine;
  });
  files.minefield = writePanelPage(join(dir, "minefield.html"), mined);
  files.compare = join(dir, "compare.html");
  const r = spawnSync(process.execPath, [CLI, "compare", samplePath(SAMPLE), flawed, "--html", files.compare], { encoding: "utf8" });
  assert.equal(r.status, 0, r.stderr);
  // 40 runs, the four agents in turn (model names of different lengths), three of them errored.
  const records = syntheticRuns(40).map((r, i) => ({ ...r, agent: AGENTS[i % AGENTS.length]! }));
  files.runs = writeRunsPage(join(dir, "runs.html"), { type: "runs", title: "40 runs", records, report: runsReport(records) });
  browser = await PanelBrowser.launch();
});

after(async () => {
  await browser?.close();
  removeTempDirs();
});

async function post(page: Page, message: unknown): Promise<void> {
  await page.evaluate((m) => window.postMessage(m, "*"), message);
  await page.evaluate(() => new Promise((resolve) => setTimeout(resolve, 0)));
}

/** The sample's evaluation with nothing matched yet: what the host sends while the run plays. */
function evaluationSoFar(lines: readonly TrajectoryLine[]): TrajectoryLine {
  const line = lines.find((l) => l.type === "evaluation");
  assert.ok(line !== undefined && line.type === "evaluation");
  const result = line.result as EvaluationResult;
  const milestones = result.milestones.map((m) => ({ ...m, matched_at: null, similarity: 0 }));
  return { ...line, result: { ...result, score: 0, milestone_score: 0, milestones } } as TrajectoryLine;
}

test("a paused run whose agent has not acted shows no score, not a red 0.00; the turn count keeps its label when narrow", async () => {
  const { page, problems } = await browser.open(files.live ?? "", "[data-testid=timeline]");
  const lines = readLines(samplePath(SAMPLE));
  // The header and the setup (system prompts and the demonstration chat, whose agent messages are
  // scripted) up to the user's request: the agent has not acted yet.
  const firstAct = lines.findIndex((l) => l.type === "message" && l.message.sender === "agent" && l.message.scripted !== true);
  await post(page, { type: "live", state: "running" });
  for (const line of lines.slice(0, firstAct)) await post(page, line);
  await post(page, evaluationSoFar(lines));
  await post(page, { type: "live", state: "paused" });
  assert.equal(await textOf(page, "[data-testid=score]"), "–");
  assert.equal(await textOf(page, "[data-testid=score-label]"), "no score yet");
  assert.doesNotMatch((await page.locator(".summary .score").getAttribute("class")) ?? "", /zero/);
  // In a narrow panel the labels are hidden but the turn count's: the score keeps its in its tooltip.
  await page.setViewportSize({ width: 400, height: 800 });
  assert.equal(await page.locator(".summary .score").getAttribute("title"), "no score yet");
  assert.ok(await page.locator("[data-testid=turn-label]").isVisible(), "the turn count is labelled");
  assert.match(await textOf(page, "[data-testid=turn-label]"), /^turns?$/);
  const [count, label] = await Promise.all([
    page.locator("[data-testid=turn-count]").boundingBox(),
    page.locator("[data-testid=turn-label]").boundingBox(),
  ]);
  assert.ok(count && label && Math.abs(count.y - label.y) < 8 && label.x > count.x, "the label sits beside its number");

  // The agent acts; nothing is matched yet: 0.00 so far, drawn neutral while the run plays.
  await post(page, { type: "live", state: "running" });
  await post(page, lines[firstAct]);
  await post(page, evaluationSoFar(lines));
  await post(page, { type: "live", state: "paused" });
  assert.equal(await textOf(page, "[data-testid=score]"), "0.00");
  assert.equal(await textOf(page, "[data-testid=score-label]"), "so far");
  assert.equal(await page.locator(".summary .score").getAttribute("class"), "score so-far");
  const border = await page.locator(".summary .score").evaluate((e) => getComputedStyle(e).borderTopColor);
  assert.notEqual(border, await resolvedColor(page, "var(--red)"), "a score so far is not drawn red");
  assert.deepEqual(problems.consoleErrors, []);
  assert.deepEqual(problems.pageErrors, []);
});

test("a milestone matched at 0.58 is an amber ◐ in the header, the timeline and its card, never a green ✓", async () => {
  const { page } = await browser.open(files.flawed ?? "");
  const chip = page.locator(".node-chip[data-node=message_sent]");
  assert.match((await chip.getAttribute("class")) ?? "", /\bpartial\b/);
  assert.equal(await chip.locator(".chip-symbol").textContent(), "◐");
  assert.equal(await chip.locator(".chip-score").textContent(), "0.58");
  const [partial, full, amber, green] = await Promise.all([
    chip.locator(".chip-symbol").evaluate((e) => getComputedStyle(e).color),
    page.locator(".node-chip[data-node=confirmed] .chip-symbol").evaluate((e) => getComputedStyle(e).color),
    resolvedColor(page, "var(--amber)"),
    resolvedColor(page, "var(--green)"),
  ]);
  assert.deepEqual([partial, full], [amber, green], "◐ amber, a full match's ✓ green");
  assert.match((await page.locator(".summary .score").getAttribute("class")) ?? "", /\bpartial\b/);
  await chip.click();
  const badge = page.locator("[data-testid=timeline] .badge.node[data-node=message_sent]");
  assert.match((await badge.getAttribute("class")) ?? "", /\bpartial\b/);
  assert.match((await badge.textContent()) ?? "", /^◐ message_sent 0\.58$/);
  const card = page.locator("[data-testid=nodes-here] .node-card[data-node=message_sent]");
  assert.match((await card.getAttribute("class")) ?? "", /\bpartial\b/);
  assert.equal(await card.locator(".node-symbol").textContent(), "◐");
  assert.equal(await card.locator(".node-verdict").textContent(), "matched here, in part");
});

test("a minefield stepped on says hit, never 1.00, in the header, the timeline and its card", async () => {
  const { page } = await browser.open(files.minefield ?? "");
  const chip = page.locator(".node-chip[data-kind=minefield]");
  assert.match((await chip.getAttribute("class")) ?? "", /\bstepped\b/);
  assert.equal(await chip.locator(".chip-score").textContent(), "hit");
  assert.equal(await textOf(page, "[data-testid=score]"), "0.00");
  await chip.click();
  const badge = page.locator("[data-testid=timeline] .badge.node.minefield");
  assert.match((await badge.textContent()) ?? "", /^✗ \S+ hit$/);
  const card = page.locator("[data-testid=nodes-here] .node-card.minefield");
  assert.equal(await card.locator(".node-head [data-testid=similarity]").textContent(), "hit");
  assert.doesNotMatch((await card.locator(".node-head").textContent()) ?? "", /1\.00/);
});

test("compare colours each side by its outcome: a full match green, a partial one amber, never red", async () => {
  const { page } = await browser.open(files.compare ?? "", "[data-testid=compare-nodes]");
  const row = page.locator("[data-testid=compare-nodes] tr[data-node=message_sent]");
  assert.match((await row.locator("td[data-side=A]").getAttribute("class")) ?? "", /^matched diff$/);
  assert.match((await row.locator("td[data-side=B]").getAttribute("class")) ?? "", /^partial diff$/);
  for (const theme of THEMES) {
    await applyTheme(page, theme);
    const [a, b, red, green, amber] = await Promise.all([
      row.locator("td[data-side=A]").evaluate((e) => getComputedStyle(e).color),
      row.locator("td[data-side=B]").evaluate((e) => getComputedStyle(e).color),
      resolvedColor(page, "var(--red)"),
      resolvedColor(page, "var(--green)"),
      resolvedColor(page, "var(--amber)"),
    ]);
    assert.deepEqual([a, b], [green, amber], theme);
    assert.notEqual(a, red, theme);
  }
});

test("highlighted rows and scores are readable in VS Code's dark and light themes and in the pages' own", async () => {
  const panel = await browser.open(files.flawed ?? "");
  // The card of the partly matched milestone: its columns below 1 are highlighted rows.
  await panel.page.locator(".node-chip[data-node=message_sent]").click();
  await panel.page.locator(".score-table tr.below td").first().waitFor();
  const compare = await browser.open(files.compare ?? "", "[data-testid=compare-nodes]");
  const runs = await browser.open(files.runs ?? "", "[data-testid=runs-table] .runs-row");
  const rows = runs.page.locator("[data-testid=runs-table] .runs-row[data-file]");
  await rows.nth(1).click({ modifiers: ["Control"] });
  await rows.nth(3).click({ modifiers: ["Control"] });
  const checks: [Page, string[]][] = [
    [
      panel.page,
      [
        ".score-table tr.below td",
        ".row.selected .row-preview",
        ".summary .score.partial .score-value",
        ".node-chip.partial .chip-id",
        ".node-card.partial .node-symbol",
      ],
    ],
    [compare.page, ["tr.diverges td.cell", "tr.diverges td.n", ".nodes td.matched", ".nodes td.partial", "tr.same td.cell"]],
    [runs.page, [".runs-row.picked .col-scenario", ".runs-row.picked .col-agent", ".runs-row.errored .status-badge"]],
  ];
  const unreadable: string[] = [];
  for (const theme of THEMES) {
    for (const [page, selectors] of checks) {
      await applyTheme(page, theme);
      for (const c of await contrasts(page, selectors))
        if (c.ratio < READABLE) unreadable.push(`${theme} ${c.selector}: ${c.ratio} (${c.color} on ${c.background})`);
    }
  }
  assert.deepEqual(unreadable, []);
});

test("two runs picked in the runs view are marked A and B, over the hover too; the Agent column shows each name whole", async () => {
  const { page } = await browser.open(files.runs ?? "", "[data-testid=runs-table] .runs-row");
  const rows = page.locator("[data-testid=runs-table] .runs-row[data-file]");
  const plain = await rows.nth(5).evaluate((e) => getComputedStyle(e).backgroundColor);
  await rows.nth(1).click({ modifiers: ["Control"] });
  await rows.nth(3).click({ modifiers: ["Control"] });
  const picked = page.locator("[data-testid=runs-table] .runs-row.picked");
  assert.equal(await picked.count(), 2);
  assert.deepEqual(await picked.evaluateAll((r) => r.map((e) => e.getAttribute("aria-selected"))), ["true", "true"]);
  assert.deepEqual(await picked.locator(".col-scenario").evaluateAll((c) => c.map((e) => e.getAttribute("data-pick"))), ["A", "B"]);
  // The pointer still rests on the second row picked: its mark shows through the hover.
  await rows.nth(3).hover();
  for (const i of [1, 3]) {
    const background = await rows.nth(i).evaluate((e) => getComputedStyle(e).backgroundColor);
    assert.notEqual(background, plain, `row ${i} picked looks like the others`);
  }
  assert.match(await textOf(page, "[data-testid=runs-picked]"), /^A: \S+\.trajectory\.jsonl · B: \S+\.trajectory\.jsonl$/);
  // An errored run's score is an amber badge saying so, with the error in its tooltip.
  const status = page.locator(".runs-row.errored [data-testid=run-status]").first();
  assert.equal(await status.textContent(), "errored");
  assert.equal(await status.getAttribute("title"), "agent openai: no answer");
  assert.equal(await status.evaluate((e) => getComputedStyle(e).color), await resolvedColor(page, "var(--amber)"));
  // Ctrl+click again unpicks.
  await rows.nth(1).click({ modifiers: ["Control"] });
  assert.equal(await picked.count(), 1);

  const agents = await page
    .locator("[data-testid=runs-table] .runs-row[data-file] .col-agent")
    .evaluateAll((cells) => cells.map((c) => ({ text: c.textContent ?? "", cut: c.scrollWidth > c.clientWidth })));
  assert.ok(agents.some((a) => a.text === "openai:gpt-4o-mini"));
  assert.deepEqual(
    agents.filter((a) => a.cut),
    [],
  );
  // Every column has its own track: the row's last cell (Date) sits on the row's line, not under it.
  const [first, last] = await Promise.all([
    rows.first().locator(".col-scenario").boundingBox(),
    rows.first().locator(".col-date").boundingBox(),
  ]);
  assert.ok(first && last && Math.abs(first.y - last.y) < 2, "the date shares the row's line");
});

test("the summary's sections per group of agent and user stack one under the other, none clipped or overlapping", async () => {
  const { page } = await browser.open(files.runs ?? "", "[data-testid=runs-table] .runs-row");
  const sections = await page.locator("[data-testid=runs-group-summary]").evaluateAll((all) =>
    all.map((e) => {
      const box = e.getBoundingClientRect();
      return {
        top: box.top,
        bottom: box.bottom,
        clipped: e.scrollHeight > e.clientHeight + 1,
        heading: e.querySelector("h2")?.textContent ?? "",
      };
    }),
  );
  assert.ok(sections.length >= 2, `${sections.length} groups`);
  assert.deepEqual(
    sections.filter((s) => s.clipped).map((s) => s.heading),
    [],
  );
  for (let i = 1; i < sections.length; i++)
    assert.ok(sections[i]!.top >= sections[i - 1]!.bottom - 0.5, `${sections[i]!.heading} overlaps the group above`);
});

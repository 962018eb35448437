// The runs view in Chromium, on the page `toolsandbox report --html` writes: over 100 runs in four
// suites (plus one cut short and one whose scenario name is markup), sorted, filtered and grouped;
// the per-category table and pass^k on top; every name shown as text.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { requireBuild, removeTempDirs, tempDir } from "../cli/harness.js";
import { PanelBrowser, textOf } from "./browser.js";
import { CLI, SAMPLES } from "./trajectories.js";

let browser: PanelBrowser;
let page_file = "";
const PAYLOAD = '<img src=x onerror="window.__pwned=1">';
const SUITES = ["gpt-4o", "llama", "mock", "scripted"];

before(async () => {
  requireBuild();
  const dir = tempDir("runs-view");
  const runs = join(dir, "runs");
  const samples = readdirSync(SAMPLES).filter((f) => f.endsWith(".trajectory.jsonl"));
  // Each suite's runs are runs of their own, not byte-identical copies (which count once): the
  // header records another seed per suite.
  SUITES.forEach((suite, k) => {
    mkdirSync(join(runs, suite), { recursive: true });
    for (const f of samples) {
      const [header, ...rest] = readFileSync(join(SAMPLES, f), "utf8").split("\n");
      writeFileSync(join(runs, suite, f), [header!.replace(/"seed":0\b/, `"seed":${k + 1}`), ...rest].join("\n"));
    }
  });
  // One run cut short, one whose scenario name is markup.
  const text = readFileSync(join(SAMPLES, samples[0]!), "utf8");
  writeFileSync(join(runs, "mock", "cut.trajectory.jsonl"), text.slice(0, text.length / 2));
  writeFileSync(join(runs, "mock", "payload.trajectory.jsonl"), text.replace(/"name":"[^"]*"/, `"name":${JSON.stringify(PAYLOAD)}`));
  page_file = join(dir, "runs.html");
  const r = spawnSync(process.execPath, [CLI, "report", runs, "--html", page_file], { encoding: "utf8" });
  assert.equal(r.status, 0, r.stderr);
  browser = await PanelBrowser.launch();
});

after(async () => {
  await browser?.close();
  removeTempDirs();
});

const total = (): number => readdirSync(SAMPLES).filter((f) => f.endsWith(".trajectory.jsonl")).length * SUITES.length + 2;

test("over 100 runs: the count, the category table and pass^k on top; rows drawn only in view", async () => {
  const { page, problems } = await browser.open(page_file, "[data-testid=runs-table] .runs-row");
  assert.ok(total() > 100);
  assert.equal(await textOf(page, "[data-testid=runs-count]"), `${total()} of ${total()} runs`);
  assert.match(
    await textOf(page, "[data-testid=runs-facts]"),
    new RegExp(`^${total()} runs · \\d+ scored · 0 errored \\(left out\\) · 1 damaged`),
  );
  assert.match(await textOf(page, "[data-testid=runs-pass-k]"), /pass\^k .*k=1 /);
  assert.ok((await page.locator("[data-testid=runs-categories] tr").count()) > 3);
  const drawn = await page.locator("[data-testid=runs-table] .runs-row").count();
  assert.ok(drawn < 80, `${drawn} rows in the DOM`);
  assert.equal(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned), undefined);
  assert.equal(await page.getByText(PAYLOAD).count(), 1, "the markup name is shown as text");
  assert.deepEqual(problems.pageErrors, []);
  assert.deepEqual(problems.consoleErrors, []);
});

test("sorting by score puts the damaged and unscored runs last; a filter narrows; grouping by suite heads each suite", async () => {
  const { page } = await browser.open(page_file, "[data-testid=runs-table] .runs-row");
  await page.locator('[data-sort="score"]').click();
  assert.equal(await page.locator('[data-sort="score"]').getAttribute("aria-sort"), "descending");
  await page.locator("[data-testid=runs-table]").evaluate((b) => (b.scrollTop = b.scrollHeight));
  await page.waitForTimeout(100);
  const last = await page.locator("[data-testid=runs-table] .runs-row").last().getAttribute("class");
  assert.match(last ?? "", /damaged|unscored/);
  await page.locator("[data-testid=runs-filter]").fill("send_message cellular");
  assert.match(await textOf(page, "[data-testid=runs-count]"), new RegExp(`^${3 * SUITES.length} of `));
  await page.locator("[data-testid=runs-filter]").fill("");
  await page.locator("[data-testid=runs-group]").selectOption("suite");
  const heads = await page.locator(".runs-group-row").allTextContents();
  assert.match(heads[0] ?? "", /^gpt-4o · 29 runs · mean score 1\.00$/);
  // By app: each app the samples' references use heads its runs; the per-app table is above.
  await page.locator("[data-testid=runs-group]").selectOption("app");
  const apps = await page.locator(".runs-group-row").allTextContents();
  assert.match(apps[0] ?? "", /^\(no app\) · \d+ runs/, "runs whose reference calls no tool, and damaged ones");
  assert.match(apps[1] ?? "", /^Calendar · \d+ runs · mean score/);
  assert.ok((await page.locator("[data-testid=runs-apps] tbody tr").count()) >= 8);
});

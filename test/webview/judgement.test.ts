// The role-play verdict in the panel (Chromium): a run of a scenario with a persona, its agent and
// judge played by mock-llm over HTTP, exported with `replay --html`, shows the judge, the overall
// score and each criterion's score and reason; reasons (and a failure) carrying markup are shown
// as text, never run.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { startMockLlm, type MockLlm } from "../../engine/mock-llm/server.js";
import type { TrajectoryLine } from "../../engine/panel/protocol.js";
import { loadScenarioFile } from "../../engine/scenario/load.js";
import { requireBuild, removeTempDirs, runCliAsync, tempDir } from "../cli/harness.js";
import { PanelBrowser, textOf } from "./browser.js";
import { exportWithCli, readLines, writePanelPage } from "./trajectories.js";

const SCENARIO = "test/fixtures/role-play/cellular_off_persona.scenario.yaml";
const PAYLOAD = '<img src=x onerror="document.title=\'pwned\'"><script>document.title="pwned"</script>';

let browser: PanelBrowser;
let mock: MockLlm;
let trajectory = "";
let dir = "";

before(async () => {
  requireBuild();
  const { scenario } = loadScenarioFile(SCENARIO);
  assert.ok(scenario);
  mock = await startMockLlm({ scenarios: [scenario] });
  dir = tempDir("judgement-panel");
  const ran = await runCliAsync([
    "run",
    SCENARIO,
    "--agent",
    "openai:mock",
    "--judge",
    "openai:mock",
    "--base-url",
    `${mock.url}/v1`,
    "--out",
    dir,
  ]);
  assert.equal(ran.status, 0, ran.stderr);
  trajectory = join(dir, "cellular_off_persona.trajectory.jsonl");
  browser = await PanelBrowser.launch();
});

after(async () => {
  await browser?.close();
  await mock?.close();
  removeTempDirs();
});

test("the panel shows the judge's verdict of a mock-llm round trip: the overall score, and each criterion's score and reason", async () => {
  const { page, problems } = await browser.open(exportWithCli(trajectory, join(dir, "replay.html")));
  await page.locator("[data-testid=judgement]").waitFor({ state: "attached" });
  assert.equal(await textOf(page, "[data-testid=judgement-overall]"), "5.00 of 5");
  assert.match(await textOf(page, "[data-testid=judgement] .judgement-title"), /judged by openai:mock/);
  assert.equal(await textOf(page, "[data-criterion=identity] .judgement-reason"), "Reply 1 names the persona, Captain Nova.");
  assert.equal(await textOf(page, "[data-criterion=identity] .judgement-score"), "5/5");
  assert.equal(await page.locator("[data-testid=judgement] tr").count(), 4);
  assert.deepEqual(problems.pageErrors, []);
  assert.deepEqual(problems.consoleErrors, []);
});

test("reasons and a failure carrying markup are shown as text, never as HTML", async () => {
  const lines = readLines(trajectory).map(
    (l): TrajectoryLine =>
      l.type === "judgement" ? { ...l, criteria: l.criteria.map((c) => ({ ...c, reason: `${c.reason} ${PAYLOAD}` })) } : l,
  );
  const { page, problems } = await browser.open(writePanelPage(join(dir, "payload.html"), lines));
  await page.locator("[data-testid=judgement]").waitFor({ state: "attached" });
  assert.ok((await textOf(page, "[data-criterion=identity] .judgement-reason")).endsWith(PAYLOAD));
  assert.equal(await page.locator("[data-testid=judgement] img, [data-testid=judgement] script").count(), 0);
  assert.notEqual(await page.title(), "pwned");

  const failed = readLines(trajectory).map(
    (l): TrajectoryLine =>
      l.type === "judgement" ? { ...l, criteria: [], overall: null, failure: `the judge's answer is not JSON: ${PAYLOAD}` } : l,
  );
  const second = await browser.open(writePanelPage(join(dir, "failed.html"), failed));
  await second.page.locator("[data-testid=judgement-failure]").waitFor({ state: "attached" });
  assert.equal(await textOf(second.page, "[data-testid=judgement-failure]"), `No verdict: the judge's answer is not JSON: ${PAYLOAD}`);
  assert.equal(await second.page.locator("[data-testid=judgement] img, [data-testid=judgement] script").count(), 0);
  assert.notEqual(await second.page.title(), "pwned");
  assert.deepEqual([...problems.pageErrors, ...second.problems.pageErrors], []);
});

// The evaluator's workbench in code-server with the packaged extension: a model run against
// mock-llm with its telemetry (tokens as the mock reports them, per call and in the header); the
// setup folded into one row; the model run compared with the scenario's reference, the first
// divergence highlighted (mock-llm cuts the agent's first call short, so the runs part there);
// the runs view over more than 100 runs; the panel at 320 px with nothing cut. Screenshots in
// test-artifacts/e2e/evaluator/.
import { after, before } from "node:test";
import assert from "node:assert/strict";
import { copyFileSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { CodeServer } from "./code-server.js";
import { artifactDir, packageExtension, removeScratch, sampleWorkspace, startMockLlm, type MockLlm } from "./fixtures.js";
import { stepsOn } from "./steps.js";
import { Workbench } from "./workbench.js";

const NAME = "send_message_with_contact_content_cellular_off_adapted";
const SCENARIO = `${NAME}.scenario.yaml`;
const SUITES = ["gpt-4o", "llama", "mini", "scripted"];
const artifacts = artifactDir(__filename);
let server: CodeServer | undefined;
let mock: MockLlm | undefined;
let workbench: Workbench;
const step = stepsOn(() => workbench);
let workspace = "";

before(async () => {
  const vsix = packageExtension();
  workspace = sampleWorkspace();
  // The agent's first request gets its call's arguments cut short: the model run parts from the reference there.
  mock = await startMockLlm(workspace, artifacts, ["malformed-arguments:first=1,role=agent"]);
  mkdirSync(join(workspace, ".vscode"));
  writeFileSync(
    join(workspace, ".vscode", "settings.json"),
    JSON.stringify({
      "files.autoSave": "off",
      "toolsandbox.agent.baseUrl": mock.baseUrl,
      "toolsandbox.agent.model": "mock",
      "toolsandbox.user.baseUrl": mock.baseUrl,
      "toolsandbox.user.model": "mock",
    }),
  );
  // Earlier runs in four suites of the runs folder: 4 × 29 saved sample runs.
  const runs = join(workspace, ".toolsandbox", "runs");
  for (const suite of SUITES) {
    mkdirSync(join(runs, suite), { recursive: true });
    for (const f of readdirSync(join(workspace, "trajectories"))) copyFileSync(join(workspace, "trajectories", f), join(runs, suite, f));
  }
  server = await CodeServer.start({ install: [vsix] });
  workbench = await Workbench.open(server, workspace, artifacts);
});

after(async () => {
  await workbench?.close();
  await server?.stop(join(artifacts, "logs"));
  await mock?.stop();
  removeScratch();
});

const runFile = (): string => join(workspace, ".toolsandbox", "runs", `${NAME}.run-1.trajectory.jsonl`);

step("a model run against mock-llm records each call's latency, request id and token usage; the panel shows them", async () => {
  await workbench.openEditor(SCENARIO);
  await workbench.runCommand("ToolSandbox: Run Scenario with Model");
  const panel = workbench.webview();
  const cost = panel.locator("[data-testid=telemetry]");
  await cost.filter({ hasText: /model calls · .* tokens \(.* in, .* out\)$/ }).waitFor({ state: "attached" });
  await panel
    .locator("[data-testid=score]")
    .filter({ hasText: /\d\.\d\d/ })
    .waitFor();
  const lines = readFileSync(runFile(), "utf8")
    .split("\n")
    .filter((l) => l !== "")
    .map((l) => JSON.parse(l) as { type: string; call?: { usage?: { prompt_tokens?: number }; request_id?: string } });
  const calls = lines.filter((l) => l.type === "model_call");
  assert.ok(calls.length >= 3, `${calls.length} model calls recorded`);
  assert.ok(
    calls.every((c) => (c.call?.usage?.prompt_tokens ?? 0) > 0),
    "mock-llm reports token usage",
  );
  assert.ok(calls.every((c) => /^req-mock-\d+$/.test(c.call?.request_id ?? "")));
  // The agent's first call (message 17) came from the run's first model call.
  await panel.locator("[data-testid=jump]").fill("17");
  await panel.locator("[data-testid=jump]").press("Enter");
  const facts = panel.locator("[data-testid=model-call]");
  await facts.waitFor();
  assert.match((await facts.locator('[data-fact="prompt tokens"]').textContent()) ?? "", /^[\d,]+$/);
  assert.equal(((await facts.locator('[data-fact="request id"]').textContent()) ?? "").trim(), calls[0]?.call?.request_id);
  // DialogTool's scores arrive once the run finished; the call cut short is that turn's execution ✗.
  await panel
    .locator("[data-testid=dialogtool]")
    .filter({ hasText: /^DialogTool: awareness / })
    .waitFor({ state: "attached" });
  assert.match((await panel.locator('[data-testid=dialogtool-here] [data-task="execution"]').textContent()) ?? "", /^execution ✗$/);
  await workbench.screenshot("telemetry");
});

step("the system prompts and the demonstration chat are one collapsed setup row", async () => {
  const panel = workbench.webview();
  const setup = panel.locator("[data-testid=setup-row]");
  await setup.waitFor();
  assert.match((await setup.textContent()) ?? "", /Setup.*system prompts, \d+ demonstration messages/);
  assert.equal(await panel.locator('[data-testid=timeline] .row[data-index="5"]').count(), 0, "demonstration messages are folded");
  await workbench.screenshot("setup-row");
});

step("the model run compared with the reference: the first divergence is highlighted", async () => {
  await workbench.webview().locator("[data-action=compare-reference]").click();
  await workbench.page.locator(".tab.active", { hasText: /^Compare .* ↔ reference$/ }).waitFor();
  const compare = workbench.webview();
  const divergence = compare.locator("[data-testid=divergence]");
  await divergence.waitFor();
  assert.match((await divergence.textContent()) ?? "", /First divergence: message 17, turn 1/);
  const row = compare.locator("tr.diverges");
  assert.equal(await row.getAttribute("data-index"), "17");
  await workbench.screenshot("compare-with-reference");
});

step("the runs view lists more than 100 runs, grouped by suite, and a row opens its replay", async () => {
  await workbench.runCommand("ToolSandbox: Show Runs");
  const view = workbench.webview();
  const count = view.locator("[data-testid=runs-count]");
  await count.filter({ hasText: /runs$/ }).waitFor();
  const total = Number(/of ([\d,]+) runs/.exec((await count.textContent()) ?? "")?.[1]?.replace(/,/g, ""));
  assert.equal(total, SUITES.length * 29 + 1, "the saved runs of every suite and the model run");
  // pass^k is given per group of agent and user, never pooled: one line for each.
  const passK = await view.locator("[data-testid=runs-pass-k]").allTextContents();
  assert.ok(passK.length >= 2 && passK.every((line) => /pass\^k/.test(line)), passK.join("\n"));
  await view.locator("[data-testid=runs-group]").selectOption("suite");
  await view.locator(".runs-group-row", { hasText: /^gpt-4o · 29 runs/ }).waitFor();
  await workbench.screenshot("runs-view");
  // The filter narrows to the llama suite's runs of the three scenarios whose names share the stem.
  await view.locator("[data-testid=runs-filter]").fill("send_message_with_contact_content_cellular_off llama");
  await view.locator("[data-testid=runs-count]", { hasText: /^3 of / }).waitFor();
  await view.locator(`.runs-row[data-file$="llama/${NAME}.trajectory.jsonl"]`).click();
  await workbench.page.locator(".tab.active", { hasText: new RegExp(`^${NAME}$`) }).waitFor();
  await workbench.webview().locator("[data-testid=scenario-name]", { hasText: NAME }).waitFor({ state: "attached" });
});

step("at 320 px the panel's header and toolbar keep to one row each and nothing is cut", async () => {
  await workbench.runCommand("View: Close Editors in Other Groups");
  await workbench.runCommand("View: Toggle Primary Side Bar Visibility");
  await workbench.page.setViewportSize({ width: 370, height: 800 });
  const panel = workbench.webview();
  await panel.locator("[data-testid=scenario-name]").waitFor({ state: "attached" });
  // No named functions inside evaluate: tsx would wrap them in a helper the page does not have.
  const layout = await panel.locator("body").evaluate(() => {
    const counts: number[] = [];
    for (const sel of [".summary", ".toolbar"]) {
      const tops: number[] = [];
      for (const child of document.querySelector(sel)?.children ?? []) {
        const box = child.getBoundingClientRect();
        if (box.width > 0 && box.height > 0 && !tops.some((t) => Math.abs(t - box.top) < 12)) tops.push(box.top);
      }
      counts.push(tops.length);
    }
    const cut = [...document.querySelectorAll<HTMLElement>(".badge, .score, .stat, .toolbar button")]
      .filter(
        (e) =>
          e.getClientRects().length > 0 && (e.scrollWidth > e.clientWidth + 1 || e.getBoundingClientRect().right > window.innerWidth + 0.5),
      )
      .map((e) => e.className);
    return {
      width: window.innerWidth,
      summary: counts[0],
      toolbar: counts[1],
      cut,
      sideways: document.documentElement.scrollWidth > window.innerWidth,
    };
  });
  await workbench.screenshot("panel-320");
  assert.ok(layout.width <= 330, `the panel is ${layout.width} px wide`);
  assert.deepEqual(
    { summary: layout.summary, toolbar: layout.toolbar, cut: layout.cut, sideways: layout.sideways },
    { summary: 1, toolbar: 1, cut: [], sideways: false },
  );
});

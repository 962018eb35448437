// Issue 36 in code-server: "Play Scenario as Agent…" on a sample, played to its end in the panel's
// form (a search by the phone number the world offers, the removal by the id the search returned,
// a message for the user), the run written as human's and scored 1.0; then Save Run as Scenario…
// from the panel drafts it, and the draft opens with no errors: the only problems listed under it
// are its strength findings. Screenshots of the form and the draft into docs/images/ (and
// test-artifacts/e2e/play/).
import { after, before } from "node:test";
import assert from "node:assert/strict";
import { copyFileSync, mkdirSync, readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { CodeServer } from "./code-server.js";
import { artifactDir, packageExtension, removeScratch, sampleWorkspace } from "./fixtures.js";
import { saveRunAsDraft } from "./drafts.js";
import { stepsOn } from "./steps.js";
import { Workbench } from "./workbench.js";

const NAME = "remove_contact_by_phone_adapted";
const SCENARIO = `${NAME}.scenario.yaml`;
const PHONE = "+12453344098";
const PERSON = "9e137f06-916a-5310-8174-cf0b7e9f7054";
const IMAGES = resolve(__dirname, "..", "..", "docs", "images");
const artifacts = artifactDir(__filename);
let server: CodeServer | undefined;
let workbench: Workbench;
let workspace = "";
const step = stepsOn(() => workbench);
const runsFolder = (): string => join(workspace, ".toolsandbox", "runs");

before(async () => {
  const vsix = packageExtension();
  workspace = sampleWorkspace();
  server = await CodeServer.start({ install: [vsix] });
  workbench = await Workbench.open(server, workspace, artifacts);
});

after(async () => {
  await workbench?.close();
  await server?.stop(join(artifacts, "logs"));
  removeScratch();
});

/** A screenshot for the docs too. */
async function docsShot(name: string): Promise<void> {
  const file = await workbench.screenshot(name);
  mkdirSync(IMAGES, { recursive: true });
  copyFileSync(file, join(IMAGES, `${name}.png`));
}

/** What the Problems view lists under the row of the file named `fileName`: the count on that row, and each problem with its severity. */
async function problemsListedUnder(fileName: string): Promise<{ count: number; problems: { severity: string; text: string }[] }> {
  const rows = await workbench.page.locator(".markers-panel .monaco-list-row").evaluateAll((elements) =>
    elements.map((row) => ({
      index: Number(row.getAttribute("data-index")),
      level: Number(row.getAttribute("aria-level")),
      label: row.querySelector(".label-name")?.textContent ?? "",
      badge: row.querySelector(".monaco-count-badge")?.textContent ?? "",
      severity: row.querySelector(".codicon-error") ? "error" : row.querySelector(".codicon-warning") ? "warning" : "info",
      text: row.textContent ?? "",
    })),
  );
  // The list draws its rows out of order; data-index is their order in the tree.
  rows.sort((a, b) => a.index - b.index);
  const start = rows.findIndex((r) => r.level === 1 && r.label.trim() === fileName);
  assert.ok(start >= 0, `the Problems view has a row for ${fileName}: ${rows.map((r) => r.label || r.text).join(" | ")}`);
  const problems: { severity: string; text: string }[] = [];
  for (const row of rows.slice(start + 1)) {
    if (row.level === 1) break;
    problems.push({ severity: row.severity, text: row.text });
  }
  return { count: Number(rows[start]?.badge.trim()), problems };
}

/** Waits until the form says it is the person's turn again (or the episode is over). */
async function formSays(pattern: RegExp): Promise<void> {
  await workbench.webview().locator(".play-status", { hasText: pattern }).waitFor();
}

step("Play Scenario as Agent… opens the panel on a form of the scenario's tools, its fields typed by their schemas", async () => {
  await workbench.openEditor(SCENARIO);
  await workbench.runCommand("ToolSandbox: Play Scenario as Agent…");
  const view = workbench.webview();
  await formSays(/^Your turn/);
  const tools = await view.locator(".play-tool summary code").allTextContents();
  // In the order the agent is shown them: the pack's.
  assert.deepEqual(tools, ["remove_contact", "search_contacts"]);
  await view.locator(".play-tool[data-tool=search_contacts] summary").click();
  // The world's phone numbers are offered for phone_number.
  const list = await view.locator('[aria-label="search_contacts phone_number"]').getAttribute("list");
  const offered = await view
    .locator(`datalist#${list ?? "none"} option`)
    .evaluateAll((options) => options.map((o) => (o as HTMLOptionElement).value));
  assert.ok(offered.includes(PHONE), `offered: ${offered.join(", ")}`);
  // The user's opening is in the message bus already.
  await view.locator(".app", { hasText: "Take him out of my contacts" }).first().waitFor();
});

step("each call is answered in the panel as it is made, and a message for the user ends the turn", async () => {
  const view = workbench.webview();
  await view.locator('[aria-label="search_contacts phone_number"]').fill(PHONE);
  await view.locator(".play-call[data-tool=search_contacts]").click();
  await formSays(/^Your turn/);
  await view.locator(".app", { hasText: PERSON }).first().waitFor();
  await view.locator(".play-tool[data-tool=remove_contact] summary").click();
  await view.locator('[aria-label="remove_contact person_id"]').fill(PERSON);
  await docsShot("play-form");
  await view.locator(".play-call[data-tool=remove_contact]").click();
  await formSays(/^Your turn/);
  await view.locator('[aria-label="Message to the user"]').fill(`The contact with phone number ${PHONE} has been removed.`);
  await view.locator(".play-say").click();
  await formSays(/episode is over/);
  const score = view.locator("[data-testid=score]");
  await score.filter({ hasText: /^\s*1\.00\s*$/ }).waitFor();
  const [run] = readdirSync(runsFolder()).filter((f) => f.endsWith(".trajectory.jsonl"));
  assert.equal(run, `${NAME}.run-1.trajectory.jsonl`);
  const lines = readFileSync(join(runsFolder(), run), "utf8")
    .split("\n")
    .filter((l) => l !== "")
    .map((l) => JSON.parse(l) as { type: string; run?: { agent: string }; result?: { score: number } });
  assert.equal(lines[0]?.run?.agent, "human", "the agent is recorded as human");
  assert.equal(lines.find((l) => l.type === "evaluation")?.result?.score, 1);
  await workbench.screenshot("play-finished");
});

step("Save Run as Scenario… from the panel drafts the played run, and the draft opens with no errors", async () => {
  const draft = `${NAME}_draft.scenario.yaml`;
  // The panel's run: no run to pick.
  await saveRunAsDraft(workbench, workspace, draft);
  // Its warnings are the strength findings (wrong agents the draft still passes), advice the author
  // is meant to see beside a draft. The Problems view lists every open file's problems, the
  // sample's own among them; the draft's are the rows under its own file's row.
  await workbench.press("Mod+Shift+M");
  await workbench.page.locator(".markers-panel .monaco-list-row", { hasText: "strength-" }).first().waitFor();
  const { count, problems } = await problemsListedUnder(draft);
  assert.ok(problems.length > 0, "the draft's strength findings are listed under it");
  assert.equal(problems.length, count, `every problem the draft's row counts is listed: ${problems.map((p) => p.text).join(" | ")}`);
  assert.deepEqual(
    problems.filter((p) => p.severity === "error"),
    [],
    "no error is listed for the draft",
  );
  const notStrength = problems.filter((p) => !/toolsandbox\(?strength-(survivor|refused-variant)\)?/.test(p.text));
  assert.deepEqual(notStrength, [], "every problem of the draft is a strength finding");
  await docsShot("play-draft-open");
});

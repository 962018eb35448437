// Running and replaying in code-server with the packaged extension: a scenario played by the
// scripted roles, then by `toolsandbox mock-llm` as the model for both roles; the panel stepped;
// the milestone results shown in the scenario editor and followed to their message; a milestone
// edited (unsaved) and the run re-scored as it is typed, a YAML error, the edits undone; a saved
// trajectory replayed; a scenario run from the Testing view. One workbench for the file;
// screenshots in test-artifacts/e2e/run/.
import { after, before } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { CodeServer } from "./code-server.js";
import { artifactDir, packageExtension, removeScratch, sampleWorkspace, startMockLlm, type MockLlm } from "./fixtures.js";
import { stepsOn } from "./steps.js";
import { Workbench } from "./workbench.js";

const NAME = "send_message_with_contact_content_cellular_off_adapted";
const SCENARIO = `${NAME}.scenario.yaml`;
const SAVED = `trajectories/${NAME}.trajectory.jsonl`;
const artifacts = artifactDir(__filename);
let server: CodeServer | undefined;
let mock: MockLlm | undefined;
let workbench: Workbench;
const step = stepsOn(() => workbench);
let workspace = "";

before(async () => {
  const vsix = packageExtension();
  workspace = sampleWorkspace();
  mock = await startMockLlm(workspace, artifacts);
  // The model run's endpoints, as a user sets them: the local mock for both roles, no key. Auto
  // save off, as on the desktop (the web default saves after a second), so edits stay unsaved.
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
  server = await CodeServer.start({ install: [vsix] });
  workbench = await Workbench.open(server, workspace, artifacts);
});

after(async () => {
  await workbench?.close();
  await server?.stop(join(artifacts, "logs"));
  await mock?.stop();
  removeScratch();
});

const runsFolder = (): string => join(workspace, ".toolsandbox", "runs");
const runFiles = (): string[] => {
  try {
    return readdirSync(runsFolder())
      .filter((f) => f.endsWith(".trajectory.jsonl"))
      .sort();
  } catch {
    return [];
  }
};
/** The lines of a trajectory file, parsed. */
const linesOf = (file: string): Array<Record<string, unknown>> =>
  readFileSync(file, "utf8")
    .split("\n")
    .filter((l) => l !== "")
    .map((l) => JSON.parse(l) as Record<string, unknown>);
const scoreOf = (file: string): string => {
  const evaluation = linesOf(file).find((l) => l.type === "evaluation") as { result: { score: number } } | undefined;
  assert.ok(evaluation, `${file} has no evaluation line`);
  return evaluation.result.score.toFixed(2);
};

/** Waits until the panel shows a finished run's score and returns it as shown. */
async function panelScore(): Promise<string> {
  const score = workbench.webview().locator("[data-testid=score]");
  await score.filter({ hasText: /^\s*\d\.\d\d\s*$/ }).waitFor();
  return ((await score.textContent()) ?? "").trim();
}

step("Run Scenario plays the open scenario with the scripted roles, writes the run and shows it in the panel", async () => {
  await workbench.openEditor(SCENARIO);
  await workbench.runCommand("ToolSandbox: Run Scenario");
  const shown = await panelScore();
  await workbench.webview().locator("[data-testid=scenario-name]", { hasText: NAME }).waitFor({ state: "attached" });
  await workbench.screenshot("scripted-run-panel");
  const files = runFiles();
  assert.deepEqual(files, [`${NAME}.run-1.trajectory.jsonl`]);
  const file = join(runsFolder(), files[0] ?? "");
  assert.equal(shown, scoreOf(file), "the panel shows the score written to the run file");
  assert.equal(shown, "1.00", "the scripted roles play the reference, which meets every milestone");
});

step("each milestone line shows its result, and clicking it moves the panel to that message", async () => {
  const saved = linesOf(join(workspace, SAVED)).find((l) => l.type === "evaluation") as {
    result: { milestones: Array<{ id: string; matched_at: number }> };
  };
  const lines = milestoneLines(readFileSync(join(workspace, SCENARIO), "utf8"));
  assert.deepEqual([...lines.keys()], ["cellular_on", "found_contact", "message_sent", "confirmed"]);
  const shown = new Map<string, string>();
  for (const [id, line] of lines) shown.set(id, ((await (await workbench.codeLensesAbove(line)).textContent()) ?? "").trim());
  await workbench.screenshot("inline-milestone-results");
  // Where each milestone matched in this run is where it matched in the saved sample run.
  assert.deepEqual(
    Object.fromEntries(shown),
    Object.fromEntries(saved.result.milestones.map((m) => [m.id, `✓ matched at message ${m.matched_at} · similarity 1.00`])),
  );

  const confirmed = saved.result.milestones.find((m) => m.id === "confirmed")?.matched_at;
  await (await workbench.codeLensesAbove(lines.get("confirmed") ?? 0)).click();
  await workbench.webview().locator(`[data-testid=message][data-index="${confirmed}"]`).waitFor();
  await workbench.screenshot("panel-at-milestone");
});

step("the panel steps forward and back through the run's messages", async () => {
  const panel = workbench.webview();
  const shown = async (): Promise<number> => Number(await panel.locator("[data-testid=message]").getAttribute("data-index"));
  const start = await shown();
  await panel.locator("[data-action=step-back]").click();
  await panel.locator(`[data-testid=message][data-index="${start - 1}"]`).waitFor();
  await panel.locator("[data-action=step-back]").click();
  await panel.locator(`[data-testid=message][data-index="${start - 2}"]`).waitFor();
  await workbench.screenshot("panel-stepped-back");
  await panel.locator("[data-action=step]").click();
  await panel.locator(`[data-testid=message][data-index="${start - 1}"]`).waitFor();
  assert.equal(await shown(), start - 1);
  // The timeline highlights the message the detail shows.
  assert.equal(((await panel.locator("[data-testid=timeline] .row.selected .row-index").textContent()) ?? "").trim(), String(start - 1));
});

/** The milestone the edits below break, and what it read after the scripted run. */
const EDITED = "message_sent";
let matchedText = "";
/** The score shown once the edit has been scored: the "previous score" while the text has errors. */
let editedScore = "";

step(
  "editing a milestone re-scores the open run at once: the milestone reads missed and the score drops, labelled as a re-score, with no new run",
  async () => {
    await workbench.openEditor(SCENARIO);
    const saved = readFileSync(join(workspace, SCENARIO), "utf8");
    const line = milestoneLines(saved).get(EDITED) ?? 0;
    const before = await workbench.resultsOn(line, /^✓ matched at message \d+ · similarity 1\.00$/, /^✓ 1\.00$/);
    // The end of the line is the result in brief, so it is not cut and does not repeat the CodeLens.
    assert.equal(before.lineEnd, "✓ 1.00");
    matchedText = before.lens;
    assert.match(await statusBarResults(/score \d\.\d\d/), /^score 1\.00 · \d+ turns$/);
    const runsBefore = runFiles();

    // The expected recipient becomes "+012453344098", a number the run never wrote to: unsaved.
    const phone = positionAfter(saved, 'recipient_phone_number: "+');
    await workbench.goTo(phone.line, phone.column);
    await workbench.type("0");
    await workbench.page.locator(".editor-group-container.active .tab.active.dirty").waitFor();
    const after = await workbench.resultsOn(line, /^✗ missed · best similarity \d\.\d\d$/, /^✗ missed$/);
    assert.equal(after.lineEnd, "✗ missed");
    // The run was played with the scenario before the edit: the new score says so, with the recorded one.
    const status = await statusBarResults(/re-scored against the scenario as it is now: (?!1\.00)\d\.\d\d; recorded 1\.00/);
    await workbench.screenshot("milestone-edited-rescored");
    editedScore = /now: (\d\.\d\d)/.exec(status)?.[1] ?? "";
    assert.ok(Number(editedScore) < 1, `the score drops below 1.00 (status bar: ${status})`);
    // Nothing was played or saved: the same run files, and the scenario on disk as it was.
    assert.deepEqual(runFiles(), runsBefore);
    assert.equal(readFileSync(join(workspace, SCENARIO), "utf8"), saved);
  },
);

step("while the scenario has a YAML error the results stay, and the status bar says they are the previous ones", async () => {
  const text = readFileSync(join(workspace, SCENARIO), "utf8");
  const line = milestoneLines(text).get(EDITED) ?? 0;
  // `- id: message_sent: x` is a mapping where a plain value belongs: a syntax error.
  await workbench.goTo(line, (text.split("\n")[line - 1] ?? "").length + 1);
  await workbench.type(": x");
  await workbench.press("Escape"); // close the suggestions that typing opened
  await workbench.activeEditor().locator(".squiggly-error").first().waitFor();
  const status = await statusBarResults(/scenario has errors/);
  await workbench.screenshot("yaml-error-previous-score");
  assert.match(status, new RegExp(`^scenario has errors, showing the previous score ${editedScore.replace(".", "\\.")} · \\d+ turns$`));
});

step("undoing the edits brings back the run's own results", async () => {
  const runsBefore = runFiles();
  const dirty = workbench.page.locator(".editor-group-container.active .tab.active.dirty");
  // Typing makes one or more undo stops; undoing past the first edit changes nothing.
  for (let i = 0; i < 10 && (await dirty.count()) > 0; i++) await workbench.press("Mod+Z");
  await dirty.waitFor({ state: "detached" });
  const line = milestoneLines(readFileSync(join(workspace, SCENARIO), "utf8")).get(EDITED) ?? 0;
  const restored = await workbench.resultsOn(line, /^✓ matched/, /^✓ 1\.00$/);
  const status = await statusBarResults(/score \d\.\d\d/);
  await workbench.screenshot("edits-undone");
  assert.deepEqual(restored, { lens: matchedText, lineEnd: "✓ 1.00" });
  assert.match(status, /^score 1\.00 · \d+ turns$/);
  assert.deepEqual(runFiles(), runsBefore);
});

step("Run Scenario with Model plays the scenario against mock-llm and scores it like the scripted run", async () => {
  await workbench.openEditor(SCENARIO);
  await workbench.runCommand("ToolSandbox: Run Scenario with Model");
  await workbench.webview().locator("[data-testid=scenario-name]", { hasText: NAME }).waitFor({ state: "attached" });
  const second = join(runsFolder(), `${NAME}.run-2.trajectory.jsonl`);
  await waitForFileLine(second, (l) => l.type === "evaluation");
  const shown = await panelScore();
  await workbench.screenshot("model-run-panel");
  assert.deepEqual(runFiles(), [`${NAME}.run-1.trajectory.jsonl`, `${NAME}.run-2.trajectory.jsonl`]);
  const header = linesOf(second)[0] as { run?: { agent?: unknown; user?: unknown } };
  assert.match(String(header.run?.agent), /mock/, "the run records the agent's model");
  assert.match(String(header.run?.user), /mock/, "the run records the user simulator's model");
  // Both roles were played by the endpoint: mock-llm logs one line per request.
  const requests = readFileSync(join(artifacts, "mock-llm.log"), "utf8");
  assert.match(requests, new RegExp(`^#\\d+ agent ${NAME} step \\d+ -> 200$`, "m"));
  assert.match(requests, new RegExp(`^#\\d+ user ${NAME} step \\d+ -> 200$`, "m"));
  assert.equal(shown, scoreOf(second));
  assert.equal(shown, "1.00", "mock-llm answers with the reference, so the score matches the scripted run");
});

step("Replay Trajectory opens a saved run from the workspace in the panel", async () => {
  await workbench.runCommand("ToolSandbox: Replay Trajectory");
  await workbench.filterQuickInput(NAME);
  await workbench.quickPick(NAME, "trajectories/");
  // The panel is titled after the file it shows: the saved run, not either run made above.
  await workbench.page.locator(".editor-group-container.active .tab.active", { hasText: new RegExp(`^${NAME}$`) }).waitFor();
  await showsSavedRun();
  await workbench.screenshot("replay-saved-trajectory");
});

step("a trajectory file opened from the workspace shows in the same viewer", async () => {
  await workbench.runCommand("View: Close All Editors");
  await workbench.openFile(SAVED);
  await showsSavedRun();
  await workbench.screenshot("trajectory-file-opened");
});

step("the Testing view lists the workspace's scenarios, and running one passes and writes its run", async () => {
  const name = "add_contact_with_name_and_phone_number_adapted";
  const runFile = `${name}.run-1.trajectory.jsonl`;
  assert.ok(!runFiles().includes(runFile));
  await workbench.runCommand("Testing: Focus on Test Explorer View");
  const page = workbench.page;
  // The label, then the description (the score, once run); a longer scenario name would go on with "_".
  const row = page
    .locator(".test-explorer .monaco-list-row")
    .filter({ has: page.locator(".label", { hasText: new RegExp(`^${name}(?!_)`) }) });
  await row.waitFor();
  await workbench.screenshot("testing-view");
  await row.hover();
  await row.locator('.action-label[aria-label^="Run Test"]').click();
  await row.locator(".computed-state.codicon-testing-passed-icon").waitFor();
  await workbench.screenshot("testing-view-passed");
  assert.ok(runFiles().includes(runFile), `${runFile} is written`);
  assert.equal(scoreOf(join(runsFolder(), runFile)), "1.00");
});

/** The active panel shows the saved sample run: its message count and score, and at message 19 the world change. */
async function showsSavedRun(): Promise<void> {
  const panel = workbench.webview();
  await panel.locator("[data-testid=message-count]", { hasText: "26" }).waitFor({ state: "attached" });
  assert.equal(await panelScore(), scoreOf(join(workspace, SAVED)));
  await panel.locator("[data-testid=jump]").fill("19");
  await panel.locator("[data-testid=jump]").press("Enter");
  await panel.locator(`[data-testid=message][data-index="19"]`).waitFor();
  // Message 19 is the first response of the parallel turn, which carries its world changes (cellular on), as upstream.
  const change = panel.locator("[data-testid=world] .change[data-op=update]");
  await change.waitFor();
  assert.deepEqual(await change.locator(".col-name").allTextContents(), ["cellular"]);
}

/**
 * The extension's results entry of the status bar (id `toolsandbox.results`, after the extension's
 * id) once it reads `pattern`, its icon aside. A run also leaves a passing status message with its score.
 */
async function statusBarResults(pattern: RegExp): Promise<string> {
  const item = workbench.page.locator('.statusbar-item[id$="toolsandbox.results"]', { hasText: pattern });
  await item.waitFor();
  return ((await item.textContent()) ?? "").trim();
}

/** The 1-based line and column right after the first occurrence of `text`. */
function positionAfter(content: string, text: string): { line: number; column: number } {
  const at = content.indexOf(text);
  assert.ok(at >= 0, `no ${text} in the scenario`);
  const before = content.slice(0, at + text.length).split("\n");
  return { line: before.length, column: (before[before.length - 1] ?? "").length + 1 };
}

/** Line numbers (1-based) of the `- id:` lines under `milestones:`, by id. */
function milestoneLines(text: string): Map<string, number> {
  const lines = new Map<string, number>();
  let inMilestones = false;
  text.split("\n").forEach((line, i) => {
    if (/^\S/.test(line)) inMilestones = line.startsWith("milestones:");
    const id = inMilestones ? /^ {2}- id: (\w+)/.exec(line)?.[1] : undefined;
    if (id !== undefined) lines.set(id, i + 1);
  });
  return lines;
}

/** Polls a file the extension writes until a line passes `accept` (the run writes as it goes). */
async function waitForFileLine(file: string, accept: (line: Record<string, unknown>) => boolean): Promise<void> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    try {
      if (linesOf(file).some(accept)) return;
    } catch {
      // Not there yet, or a line half-written.
    }
    if (Date.now() > deadline) throw new Error(`${file}: no such line within 60 s`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

// The debugger and "Run Scenario with Agent…" in code-server with the packaged extension: F5 with
// a launch.json on a sample stops on entry, then at a breakpoint on a milestone's line; the
// Variables view shows the world with the cell that changed marked; the panel follows the session
// to that message; a tool call typed in the Debug Console prints its result; the episode runs to
// its end and its run is written. Then a command agent from toolsandbox.agents (the MCP client
// of test/fixtures/agents/reference-agent.mjs, playing the reference) runs the scenario with the
// panel live. One workbench for the file; screenshots in test-artifacts/e2e/debug/.
import { after, before } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { CodeServer } from "./code-server.js";
import { artifactDir, packageExtension, removeScratch, sampleWorkspace, scratchDir } from "./fixtures.js";
import { stepsOn } from "./steps.js";
import { Workbench } from "./workbench.js";
import { loadScenario } from "../../engine/runner/scenario-files.js";
// @ts-expect-error: a plain JavaScript fixture
import { playKey } from "../fixtures/agents/reference-agent.mjs";
import { agentToolNames, referencePlay } from "../agents/helpers.js";

const NAME = "send_message_with_contact_content_cellular_off_adapted";
const SCENARIO = `${NAME}.scenario.yaml`;
const SAVED = `trajectories/${NAME}.trajectory.jsonl`;
const REFERENCE_AGENT = resolve(__dirname, "..", "fixtures", "agents", "reference-agent.mjs");
const AGENT_NAME = "reference agent";
const artifacts = artifactDir(__filename);
let server: CodeServer | undefined;
let workbench: Workbench;
const step = stepsOn(() => workbench);
let workspace = "";

before(async () => {
  const vsix = packageExtension();
  workspace = sampleWorkspace();
  // The fixture agent finds the reference it plays by the scenario's opening and tools.
  const scenario = loadScenario(join(workspace, SCENARIO)).scenario;
  assert.ok(scenario, `${SCENARIO} loads`);
  const plays = join(scratchDir("plays"), "plays.json");
  writeFileSync(plays, JSON.stringify({ [playKey(scenario.user.opening, agentToolNames(scenario))]: referencePlay(scenario) }));
  mkdirSync(join(workspace, ".vscode"));
  writeFileSync(
    join(workspace, ".vscode", "settings.json"),
    JSON.stringify({
      "files.autoSave": "off",
      "toolsandbox.agents": [{ name: AGENT_NAME, command: `node '${REFERENCE_AGENT}' '${plays}'`, timeLimit: 120 }],
    }),
  );
  writeFileSync(
    join(workspace, ".vscode", "launch.json"),
    JSON.stringify({
      version: "0.2.0",
      configurations: [
        {
          type: "toolsandbox",
          request: "launch",
          name: "Debug the sample",
          program: `\${workspaceFolder}/${SCENARIO}`,
          agent: "scripted",
          user: "scripted",
          stopOnEntry: true,
        },
      ],
    }),
  );
  server = await CodeServer.start({ install: [vsix] });
  workbench = await Workbench.open(server, workspace, artifacts);
});

after(async () => {
  await workbench?.close();
  await server?.stop(join(artifacts, "logs"));
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
const linesOf = (file: string): Array<Record<string, unknown>> =>
  readFileSync(file, "utf8")
    .split("\n")
    .filter((l) => l !== "")
    .map((l) => JSON.parse(l) as Record<string, unknown>);
/** Where the saved sample run matched each milestone (the scripted roles play it the same). */
const matchedAt = (id: string): number => {
  const evaluation = linesOf(join(workspace, SAVED)).find((l) => l.type === "evaluation") as {
    result: { milestones: Array<{ id: string; matched_at: number }> };
  };
  const at = evaluation.result.milestones.find((m) => m.id === id)?.matched_at;
  assert.equal(typeof at, "number", `the saved run matched ${id}`);
  return at as number;
};
/** The 1-based line of `  - id: <id>` under milestones. */
const milestoneLine = (id: string): number => readFileSync(join(workspace, SCENARIO), "utf8").split("\n").indexOf(`  - id: ${id}`) + 1;

/** A row of the Variables view, by its text ("World"; "cellular = true ● was false"). */
const variable = (text: RegExp) => workbench.page.locator(".debug-variables .monaco-list-row").filter({ hasText: text }).first();
/** The Call Stack's header while stopped: "Paused on entry", or the stop's description ("Milestone cellular_on matched"). */
const pausedOn = (what: "entry" | string) =>
  workbench.page.getByText(what === "entry" ? /^\s*Paused on entry\s*$/i : new RegExp(`^\\s*Milestone ${what} matched\\s*$`)).first();

step("F5 with the launch.json stops on entry, then at the breakpoint on a milestone's line", async () => {
  await workbench.openEditor(SCENARIO);
  const line = milestoneLine("cellular_on");
  assert.ok(line > 0);
  await workbench.goTo(line, 1);
  await workbench.press("F9");
  await workbench.activeEditor().locator(".codicon-debug-breakpoint").first().waitFor();
  await workbench.press("F5");
  await pausedOn("entry").waitFor();
  await workbench.screenshot("debug-stopped-on-entry");
  await workbench.press("F5");
  // The stop says why: the Call Stack's header names the milestone that matched.
  await pausedOn("cellular_on").waitFor();
  // The top frame is the message the milestone matched at.
  await workbench.page
    .locator(".debug-call-stack .monaco-list-row", { hasText: `#${matchedAt("cellular_on")} ` })
    .first()
    .waitFor();
  await workbench.screenshot("debug-stopped-at-milestone");
});

step("the panel follows the session: it shows this run and the message the session stopped at", async () => {
  const panel = workbench.webview();
  const at = matchedAt("cellular_on");
  await panel.locator(`[data-testid=message][data-index="${at}"]`).waitFor();
  assert.equal(((await panel.locator("[data-testid=timeline] .row.selected .row-index").textContent()) ?? "").trim(), String(at));
  await panel.locator("[data-testid=scenario-name]", { hasText: NAME }).waitFor({ state: "attached" });
  await workbench.screenshot("panel-follows-debug-session");
});

step("the Variables view shows the world at the stop, the cell that changed since the last stop marked", async () => {
  await variable(/^\s*World\s*$/).click();
  await variable(/SETTING.*changed since the last stop ●/).click();
  await variable(/^\s*0\b.*● changed/).click();
  const cell = variable(/cellular.*true ● was false/);
  await cell.waitFor();
  await workbench.screenshot("variables-world-changed-cell");
});

step("a tool call typed in the Debug Console prints the agent-visible result", async () => {
  // The Debug Console opened with the session; its input line is at the bottom.
  const input = workbench.page.locator(".repl-input-wrapper .monaco-editor");
  await input.click();
  await workbench.type('search_contacts(name="Fredrik")');
  await workbench.press("Enter");
  await workbench.page.locator(".repl .monaco-list-row", { hasText: "+12453344098" }).first().waitFor();
  await workbench.screenshot("debug-console-tool-call");
});

step("Continue plays the episode to its end; the run is written and scored as Run Scenario's", async () => {
  const before = runFiles();
  assert.equal(before.length, 1, `the session writes one run: ${before.join(", ")}`);
  await workbench.activeEditor().click();
  await workbench.press("F5");
  await workbench.page.locator(".debug-toolbar").waitFor({ state: "hidden" });
  const file = join(runsFolder(), before[0] ?? "");
  const evaluation = linesOf(file).find((l) => l.type === "evaluation") as { result: { score: number } } | undefined;
  assert.equal(evaluation?.result.score, 1);
  // The Debug Console's tool call was not recorded: the messages are the saved sample run's.
  const messages = (path: string) => linesOf(path).filter((l) => l.type === "message").length;
  assert.equal(messages(file), messages(join(workspace, SAVED)));
  await workbench.webview().locator("[data-testid=score]").filter({ hasText: /1\.00/ }).waitFor();
  await workbench.screenshot("debug-session-ended");
});

step("Run Scenario with Agent… runs the configured command agent over MCP with the panel live, scored 1.00", async () => {
  await workbench.openEditor(SCENARIO);
  await workbench.runCommand("ToolSandbox: Run Scenario with Agent…", { opensQuickPick: true });
  await workbench.page.locator(".quick-input-list .monaco-list-row .label-name", { hasText: "Configure agents…" }).waitFor();
  await workbench.screenshot("agent-quick-pick");
  const runsBefore = runFiles();
  // Typed and accepted with Enter, as a person picks from a short list.
  await workbench.filterQuickInput(AGENT_NAME);
  await workbench.page.locator(".quick-input-list .monaco-list-row.focused .label-name", { hasText: AGENT_NAME }).waitFor();
  await workbench.press("Enter");
  await workbench.page.locator(".quick-input-widget").waitFor({ state: "hidden" });
  // The panel switches to the new run (the debug session's run-1 before it) and shows its score once played.
  const added = await waitFor(() => {
    const files = runFiles().filter((f) => !runsBefore.includes(f));
    return files.length > 0 ? files : null;
  });
  assert.equal(added.length, 1, `one new run: ${added.join(", ")}`);
  const title = (added[0] ?? "").replace(/\.trajectory\.jsonl$/, "");
  await workbench.page.locator(".tab", { hasText: title }).first().waitFor();
  await workbench.webview().locator("[data-testid=scenario-name]", { hasText: NAME }).waitFor({ state: "attached" });
  await workbench
    .webview()
    .locator("[data-testid=score]")
    .filter({ hasText: /^\s*1\.00\s*$/ })
    .waitFor();
  await waitFor(() => linesOf(join(runsFolder(), added[0] ?? "")).find((l) => l.type === "evaluation") ?? null);
  await workbench.screenshot("agent-run-panel");
  const header = linesOf(join(runsFolder(), added[0] ?? ""))[0] as { run: { agent: string } };
  assert.match(header.run.agent, /^cmd:node /);
  // The command's output is kept beside the run, under the run's name.
  const base = (added[0] ?? "").replace(/\.trajectory\.jsonl$/, "");
  const logs = readdirSync(runsFolder()).filter((f) => f.startsWith(`${base}.agent-`));
  assert.deepEqual(logs.sort(), [`${base}.agent-stderr.log`, `${base}.agent-stdout.log`]);
});

/** Polls `probe` until it gives something (the extension writes as it goes). */
async function waitFor<T>(probe: () => T | null, timeoutMs = 90_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const found = probe();
    if (found !== null) return found;
    if (Date.now() > end) throw new Error("timed out waiting for the extension's run");
    await new Promise((r) => setTimeout(r, 250));
  }
}

// The in-host suite: checks made from inside the extension host, against the real VS Code API.
// The module follows @vscode/test-electron's convention (the host loads it from
// `extensionTestsPath` and awaits `run()`), so the same bundle (dist/test/vscode-suite.js) runs
// under `npm run test:vscode` on a desktop and inside code-server in test/e2e/in-host.test.ts.
// It expects a workspace holding the sample scenarios, opened trusted.
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import * as vscode from "vscode";
import { runChecks, waitFor } from "./runner.js";

const EXTENSION_ID = "toolsandbox-studio.toolsandbox-studio";
const SCENARIO_NAME = "add_contact_with_name_and_phone_number_adapted";
const COMMANDS = [
  "toolsandbox.runScenario",
  "toolsandbox.runScenarioWithModel",
  "toolsandbox.runScenarioWithAgent",
  "toolsandbox.playScenarioAsAgent",
  "toolsandbox.replayTrajectory",
  "toolsandbox.rescoreTrajectory",
  "toolsandbox.openPanel",
  "toolsandbox.setApiKey",
  "toolsandbox.clearApiKey",
];
const TIMEOUT_MS = 60_000;

function workspaceFolder(): string {
  const folder = vscode.workspace.workspaceFolders?.[0];
  if (folder === undefined) throw new Error("open a folder holding the sample scenarios");
  return folder.uri.fsPath;
}

function assert(condition: boolean, message: string): asserts condition {
  if (!condition) throw new Error(message);
}

async function extensionActivates(): Promise<void> {
  const extension = vscode.extensions.getExtension(EXTENSION_ID);
  assert(extension !== undefined, `${EXTENSION_ID} is not installed`);
  await extension.activate();
  assert(extension.isActive, `${EXTENSION_ID} did not activate`);
}

async function commandsRegistered(): Promise<void> {
  const all = new Set(await vscode.commands.getCommands(true));
  const missing = COMMANDS.filter((c) => !all.has(c));
  assert(missing.length === 0, `not registered: ${missing.join(", ")}`);
}

async function languageServerReportsMistakes(): Promise<void> {
  // An untitled document: the language server checks unsaved text too, and nothing touches disk.
  const doc = await vscode.workspace.openTextDocument({
    language: "toolsandbox-scenario",
    content:
      "name: broken\nuser: { goal: g, opening: o }\ntools:\n  allow: [serch_contacts]\nreference:\n  - agent: hi\n  - end_conversation: true\n",
  });
  await vscode.window.showTextDocument(doc);
  const unknownTool = await waitFor(
    "a diagnostic on serch_contacts",
    () => vscode.languages.getDiagnostics(doc.uri).find((d) => d.source === "toolsandbox" && doc.getText(d.range) === "serch_contacts"),
    TIMEOUT_MS,
  );
  assert(unknownTool.severity === vscode.DiagnosticSeverity.Error, "an unknown tool is an error");
  assert(/search_contacts/.test(unknownTool.message), `the message suggests the right name: ${unknownTool.message}`);
  // Fixing the text clears it.
  const edit = new vscode.WorkspaceEdit();
  edit.replace(doc.uri, unknownTool.range, "search_contacts");
  assert(await vscode.workspace.applyEdit(edit), "the fix applies");
  await waitFor(
    "the diagnostic to go",
    () =>
      vscode.languages.getDiagnostics(doc.uri).some((d) => d.source === "toolsandbox" && d.severity === vscode.DiagnosticSeverity.Error)
        ? null
        : true,
    TIMEOUT_MS,
  );
  await vscode.commands.executeCommand("workbench.action.revertAndCloseActiveEditor");
}

interface EvaluationLine {
  readonly type: "evaluation";
  readonly result: { readonly score: number };
}

async function runCommandWritesScoredTrajectory(): Promise<void> {
  const scenario = vscode.Uri.file(join(workspaceFolder(), `${SCENARIO_NAME}.scenario.yaml`));
  const runs = join(workspaceFolder(), ".toolsandbox", "runs");
  const before = new Set(listRuns(runs));
  await vscode.commands.executeCommand("toolsandbox.runScenario", scenario);
  const written = listRuns(runs).filter((f) => !before.has(f));
  assert(written.length === 1, `one new run file expected in ${runs}, found: ${written.join(", ") || "none"}`);
  const lines = readFileSync(join(runs, written[0] ?? ""), "utf8")
    .split("\n")
    .filter((l) => l !== "");
  const last: unknown = JSON.parse(lines[lines.length - 1] ?? "null");
  assert(isEvaluationLine(last), "the run file ends with its evaluation");
  assert(last.result.score === 1, `the scripted roles meet every milestone (score ${last.result.score})`);
}

/** The survivor's warning offers Open Surviving Run; it writes the mutant's run and opens it in the replay panel. */
async function survivorOpensAsRun(): Promise<void> {
  const scenario = vscode.Uri.file(join(workspaceFolder(), `${SCENARIO_NAME}.scenario.yaml`));
  await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(scenario));
  const code = (d: vscode.Diagnostic): string => String(typeof d.code === "object" ? d.code.value : d.code);
  const survivor = await waitFor(
    "a strength-survivor warning (the language server measures strength in the background)",
    () => vscode.languages.getDiagnostics(scenario).find((d) => code(d) === "strength-survivor"),
    TIMEOUT_MS * 2,
  );
  const actions = await vscode.commands.executeCommand<vscode.CodeAction[]>("vscode.executeCodeActionProvider", scenario, survivor.range);
  const open = actions.find((a) => a.title === "Open Surviving Run");
  assert(open?.command !== undefined, `the warning offers Open Surviving Run (offered: ${actions.map((a) => a.title).join(", ")})`);
  await vscode.commands.executeCommand(open.command.command, ...(open.command.arguments ?? []));
  const folder = join(workspaceFolder(), ".toolsandbox", "strength");
  const written = readdirSync(folder).filter((f) => f.startsWith(`${SCENARIO_NAME}.survivor-`));
  assert(written.length === 1, `one surviving run expected in ${folder}, found: ${written.join(", ") || "none"}`);
  const lines = readFileSync(join(folder, written[0] ?? ""), "utf8")
    .split("\n")
    .filter((l) => l !== "");
  const last: unknown = JSON.parse(lines[lines.length - 1] ?? "null");
  assert(isEvaluationLine(last), "the surviving run ends with its evaluation");
  assert(last.result.score >= 1, `the wrong agent passes the milestones (score ${last.result.score})`);
  const title = (written[0] ?? "").replace(/\.trajectory\.jsonl$/, "");
  await waitFor(
    `the replay panel showing ${title}`,
    () => vscode.window.tabGroups.all.flatMap((g) => g.tabs).find((t) => t.input instanceof vscode.TabInputWebview && t.label === title),
    TIMEOUT_MS,
  );
}

function listRuns(folder: string): string[] {
  try {
    return readdirSync(folder).filter((f) => f.startsWith(`${SCENARIO_NAME}.run-`) && f.endsWith(".trajectory.jsonl"));
  } catch {
    return [];
  }
}

function isEvaluationLine(value: unknown): value is EvaluationLine {
  if (typeof value !== "object" || value === null || (value as { type?: unknown }).type !== "evaluation") return false;
  const result = (value as { result?: unknown }).result;
  return typeof result === "object" && result !== null && typeof (result as { score?: unknown }).score === "number";
}

export function run(): Promise<void> {
  return runChecks("vscode-suite", [
    { name: "the extension activates", run: extensionActivates },
    { name: "its commands are registered", run: commandsRegistered },
    { name: "the language server reports a misspelt tool in unsaved text and clears it once fixed", run: languageServerReportsMistakes },
    { name: "toolsandbox.runScenario writes a trajectory that ends with its score", run: runCommandWritesScoredTrajectory },
    { name: "a strength warning's Open Surviving Run opens the mutant's passing run in the replay panel", run: survivorOpensAsRun },
  ]);
}

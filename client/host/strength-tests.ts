// A scenario's strength in the Testing view (docs/strength.md), as the language server measured it
// (server/handlers/strength-notice.ts; never measured again here): under the scenario's item, a
// child labelled with the CodeLens's verdict, and under it one child per wrong agent that passes,
// at the line its warning is on. The children are shown, never run: a scenario passes or fails on
// its run's score, and a failing strength child would mark a passing run failed. Each survivor's
// item, like its warning, has "Open Surviving Run": the mutant played again, its run opened in the
// replay panel by the command saved runs open by (surviving-run.ts).
import { dirname } from "node:path";
import * as vscode from "vscode";
import { errorMessage } from "../../engine/base/text.js";
import { type SurvivorRef, survivorRefOf } from "../../engine/strength/survivor-run.js";
import type { StrengthNotice } from "../../server/handlers/strength-notice.js";
import { currentText } from "./scenario-documents.js";
import { writeSurvivingRun } from "./surviving-run.js";
import { strengthItemId } from "./testing-tree.js";

const SURVIVOR_WORDS = /^A wrong agent passes: /;

export class StrengthItems {
  /** The latest notice per document uri, shown again when the tree re-reads the scenario's file. */
  private readonly notices = new Map<string, StrengthNotice>();
  /** The survivor each survivor item stands for. */
  private readonly survivors = new Map<string, { readonly uri: vscode.Uri; readonly ref: SurvivorRef }>();

  constructor(private readonly controller: vscode.TestController) {}

  show(notice: StrengthNotice, scenarioOf: (uri: vscode.Uri) => vscode.TestItem | null): void {
    this.notices.set(notice.uri, notice);
    const item = scenarioOf(vscode.Uri.parse(notice.uri));
    if (item) this.reapply(item);
  }

  /** The scenario item's strength child, from the latest notice for its file (none without one). */
  reapply(item: vscode.TestItem): void {
    const uri = item.uri;
    const notice = uri ? this.notices.get(uri.toString()) : undefined;
    const id = strengthItemId(item.id);
    if (!uri || notice === undefined || notice.verdict === null) {
      item.children.delete(id);
      return;
    }
    const strength = this.controller.createTestItem(id, notice.verdict, uri);
    strength.description = notice.survivors.length === 0 ? "no wrong agent passes" : undefined;
    strength.children.replace(
      notice.survivors.map((s, i) => {
        const survivorId = `${id}:survivor:${i}`;
        const child = this.controller.createTestItem(survivorId, s.message.replace(SURVIVOR_WORDS, ""), uri);
        child.range = new vscode.Range(s.range.start.line, s.range.start.character, s.range.end.line, s.range.end.character);
        this.survivors.set(survivorId, { uri, ref: s.ref });
        return child;
      }),
    );
    item.children.add(strength);
  }

  /** The survivor a Testing-view item stands for. */
  survivorOf(item: vscode.TestItem): { readonly uri: vscode.Uri; readonly ref: SurvivorRef } | null {
    return this.survivors.get(item.id) ?? null;
  }
}

/**
 * "Open Surviving Run", from a warning's code action (the document's uri and the survivor) or from
 * a survivor's item in the Testing view.
 */
export async function openSurvivingRun(args: readonly unknown[], survivorOf: StrengthItems["survivorOf"]): Promise<void> {
  const [first, second] = args;
  const named =
    typeof first === "string" ? { uri: vscode.Uri.parse(first), ref: survivorRefOf(second) } : isTestItem(first) ? survivorOf(first) : null;
  if (named === null || named.ref === null) {
    void vscode.window.showErrorMessage("ToolSandbox: Open Surviving Run needs a strength warning or a survivor in the Testing view.");
    return;
  }
  const { uri, ref } = named;
  const root = vscode.workspace.getWorkspaceFolder(uri)?.uri.fsPath ?? dirname(uri.fsPath);
  const run = await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Window, title: "ToolSandbox: playing the surviving mutant" },
    async () => {
      try {
        return await writeSurvivingRun(await currentText(uri), uri.fsPath, ref, root);
      } catch (e) {
        return { ok: false as const, problem: errorMessage(e) };
      }
    },
  );
  if (!run.ok) {
    void vscode.window.showErrorMessage(`ToolSandbox: cannot open the surviving run: ${run.problem}`);
    return;
  }
  await vscode.commands.executeCommand("toolsandbox.replayTrajectory", vscode.Uri.file(run.file));
}

const isTestItem = (x: unknown): x is vscode.TestItem =>
  typeof x === "object" && x !== null && typeof (x as { id?: unknown }).id === "string" && "children" in x;

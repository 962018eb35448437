// Pure: the CodeLens on a scenario's `milestones:` key that says its strength ("strength 7/9 (78%)
// · 2 wrong agents pass · 0 right agents refused", engine/strength/strength-findings.ts). The words
// come from the background scoring of the last text with no errors; the position is the current
// text's, so the lens stays on its line while the author types and the next scoring runs.
import type { CodeLens } from "vscode-languageserver";
import type { ScenarioDocument } from "./document.js";
import { guarded } from "./guard.js";

export function strengthLenses(doc: ScenarioDocument, verdict: string | null): CodeLens[] {
  if (verdict === null) return [];
  return guarded("codeLens", [], () => {
    const src = doc.source;
    const { pair } = src.locate(["milestones"]);
    if (pair === null) return [];
    // A lens with no command is shown as text: there is nothing to run from it.
    return [{ range: src.rangeAt(["milestones"], "key"), command: { title: verdict, command: "" } }];
  });
}

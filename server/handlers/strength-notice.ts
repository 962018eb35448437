// The notification that tells the editor a document's strength changed (docs/strength.md), sent
// each time the background scoring gives a new verdict: the CodeLens's words, and the survivors
// as their warnings say them, each with the mutant it names. The extension's Testing view shows
// them under the scenario (client/host/strength-tests.ts); other clients ignore it.
import { DiagnosticSeverity, type Diagnostic, type Range } from "vscode-languageserver";
import { type SurvivorRef, survivorRefOf } from "../../engine/strength/survivor-run.js";

export const STRENGTH_METHOD = "toolsandbox/strength";

export interface StrengthSurvivor {
  readonly message: string;
  readonly range: Range;
  readonly ref: SurvivorRef;
}

export interface StrengthNotice {
  readonly uri: string;
  /** The CodeLens's verdict; null when the text has no strength (errors, or a reference that fails). */
  readonly verdict: string | null;
  readonly survivors: readonly StrengthSurvivor[];
}

/** The notice for a document from its published findings. */
export function strengthNotice(uri: string, verdict: string | null, findings: readonly Diagnostic[]): StrengthNotice {
  const survivors: StrengthSurvivor[] = [];
  for (const d of findings) {
    const ref = d.code === "strength-survivor" && d.severity === DiagnosticSeverity.Warning ? survivorRefOf(d.data) : null;
    if (ref !== null) survivors.push({ message: typeof d.message === "string" ? d.message : d.message.value, range: d.range, ref });
  }
  return { uri, verdict, survivors: verdict === null ? [] : survivors };
}

// Pure: engine diagnostics -> LSP diagnostics. No protocol, no I/O; the handler calls it.
import { DiagnosticSeverity, type Diagnostic as LspDiagnostic } from "vscode-languageserver";
import type { Diagnostic } from "../../engine/base/diagnostics.js";
import type { ScenarioDocument } from "./document.js";
import { guarded } from "./guard.js";

const SEVERITY: Record<Diagnostic["severity"], DiagnosticSeverity> = {
  error: DiagnosticSeverity.Error,
  warning: DiagnosticSeverity.Warning,
  info: DiagnosticSeverity.Information,
};

export function toLspDiagnostic(d: Diagnostic): LspDiagnostic {
  return {
    range: d.range,
    severity: SEVERITY[d.severity],
    code: d.code,
    source: "toolsandbox",
    message: d.message,
    ...(d.data ? { data: d.data } : {}),
  };
}

/** Diagnostics of a parsed document version (the check runs once per version and is shared). */
export function documentDiagnostics(doc: ScenarioDocument): LspDiagnostic[] {
  return guarded("diagnostics", [], () => doc.check.diagnostics.map(toLspDiagnostic));
}

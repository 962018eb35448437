// `toolsandbox validate`: checks scenario files and prints every problem the way compilers do.
import { formatDiagnostic, type Diagnostic } from "../diagnostics.js";
import { EXIT, type ExitCode } from "./errors.js";
import { plural } from "./format.js";
import type { CliIO } from "./io.js";
import { collectScenarioFiles, hasErrors, loadScenario } from "./scenario-files.js";

export interface ValidateOptions {
  readonly json?: boolean;
}

interface FileReport {
  readonly file: string;
  readonly valid: boolean;
  readonly diagnostics: readonly Diagnostic[];
}

export function validateCommand(paths: readonly string[], options: ValidateOptions, io: CliIO): ExitCode {
  const reports: FileReport[] = collectScenarioFiles(paths).map((file) => {
    const { diagnostics } = loadScenario(file);
    return { file, valid: !hasErrors(diagnostics), diagnostics };
  });
  const all = reports.flatMap((r) => r.diagnostics);
  const counts = {
    files: reports.length,
    errors: all.filter((d) => d.severity === "error").length,
    warnings: all.filter((d) => d.severity === "warning").length,
  };
  if (options.json) {
    io.out(JSON.stringify({ files: reports, totals: counts }, null, 2));
  } else {
    for (const d of all) io.out(formatDiagnostic(d));
    io.out(summaryLine(counts));
  }
  return counts.errors > 0 ? EXIT.failed : EXIT.ok;
}



function summaryLine(c: { files: number; errors: number; warnings: number }): string {
  const checked = `${plural(c.files, "file")} checked`;
  if (c.errors === 0 && c.warnings === 0) return `${checked}: no problems`;
  return `${checked}: ${plural(c.errors, "error")}, ${plural(c.warnings, "warning")}`;
}

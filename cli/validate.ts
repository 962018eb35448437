// `toolsandbox validate`: checks scenario files and prints every problem the way compilers do.
// A file free of errors then has its reference solution played and scored: a reference that
// misses one of its own milestones or steps on a minefield is reported on that node's line.
import { formatDiagnostic, type Diagnostic } from "../engine/base/diagnostics.js";
import { checkReferenceScore } from "../engine/evaluation/reference-check.js";
import { YamlSource } from "../engine/scenario/yaml-source.js";
import { EXIT, type ExitCode } from "../engine/runner/errors.js";
import { plural } from "../engine/base/text.js";
import type { Command } from "commander";
import type { CliIO } from "./io.js";
import { collectScenarioFiles, hasErrors, loadScenario } from "../engine/runner/scenario-files.js";

interface ValidateOptions {
  readonly json?: boolean;
  /** Warnings (a knowledge leak, say) are reported as errors, so they fail the run. */
  readonly strict?: boolean;
}

interface FileReport {
  readonly file: string;
  readonly valid: boolean;
  readonly diagnostics: readonly Diagnostic[];
}

async function validateCommand(paths: readonly string[], options: ValidateOptions, io: CliIO): Promise<ExitCode> {
  const reports: FileReport[] = [];
  for (const file of collectScenarioFiles(paths)) {
    const { text, scenario, diagnostics } = loadScenario(file);
    const all =
      scenario && !hasErrors(diagnostics)
        ? [...diagnostics, ...(await checkReferenceScore(scenario, new YamlSource(text, file)))]
        : diagnostics;
    const promoted = options.strict ? all.map((d) => (d.severity === "warning" ? { ...d, severity: "error" as const } : d)) : all;
    const sorted = promoted
      .slice()
      .sort((a, b) => a.range.start.line - b.range.start.line || a.range.start.character - b.range.start.character);
    reports.push({ file, valid: !hasErrors(sorted), diagnostics: sorted });
  }
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

export function registerValidate(program: Command, io: CliIO, setExit: (code: ExitCode) => void): void {
  program
    .command("validate")
    .description("check scenario files, and score each reference solution; print every problem as file:line:col: severity code: message")
    .argument("<paths...>", "scenario files, or directories to search for *.scenario.yaml")
    .option("--json", "print the diagnostics as JSON")
    .option("--strict", "report every warning as an error (a knowledge leak, say), so that it fails the run")
    .addHelpText(
      "after",
      "\nA file without errors has its reference solution played by the scripted roles and scored; a milestone\nit misses or a minefield it hits is an error on that node's line. Exits 1 when any file has an error;\nwarnings alone exit 0, unless --strict.",
    )
    .action(async (paths: string[], opts: { json?: boolean; strict?: boolean }) => setExit(await validateCommand(paths, opts, io)));
}

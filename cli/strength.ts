// `toolsandbox strength`: mutation testing for scenarios (docs/strength.md). Per scenario the
// mutation score (wrong agents caught over wrong agents that count), then one line per surviving
// mutant and per refused variant with the milestone that should decide it and a fix; for a suite,
// tables per category and per mutator. The same files give the same bytes.
import { writeFileSync } from "node:fs";
import { type Command, InvalidArgumentError } from "commander";
import { plural } from "../engine/base/text.js";
import { EXIT, ExitError, type ExitCode } from "../engine/runner/errors.js";
import { collectScenarioFiles, hasErrors, loadScenario } from "../engine/runner/scenario-files.js";
import { YamlSource } from "../engine/scenario/yaml-source.js";
import { isOperatorName, OPERATOR_DESCRIPTIONS, OPERATORS, type OperatorName } from "../engine/strength/catalogue.js";
import { mutationTestingReport, type StrengthFile } from "../engine/strength/mutation-report.js";
import { outcomeText, percent, strengthLine, undecidedOutcomes } from "../engine/strength/strength-findings.js";
import { type OutcomeLine, type ScenarioStrength, scenarioStrength } from "../engine/strength/strength.js";
import { byCategory, byOperator, suiteTotal, type Tally } from "../engine/strength/suite.js";
import { formatDiagnostic } from "../engine/base/diagnostics.js";
import type { CliIO } from "./io.js";
import { renderTable, type Column } from "./table.js";

interface StrengthOptions {
  readonly json?: boolean;
  readonly minScore?: number;
  readonly mutators?: readonly OperatorName[];
  readonly report?: string;
}

export function registerStrength(program: Command, io: CliIO, setExit: (code: ExitCode) => void): void {
  program
    .command("strength")
    .description("mutation testing for scenarios: which wrong agents each scenario would pass, and which right ones it would fail")
    .argument("<paths...>", "scenario files, or directories to search for *.scenario.yaml")
    .option("--json", "print every scenario's mutants and variants as JSON")
    .option("--min-score <x>", "exit 1 when a scenario's mutation score is under x (0 to 1)", minScore)
    .option("--mutators <names>", `only these mutators and variants, comma-separated (${OPERATORS.join(", ")})`, operatorList)
    .option("--report <file>", "also write the mutants as a mutation-testing-report-schema JSON file (Stryker's format)")
    .addHelpText(
      "after",
      `\nMutators and variants:\n${OPERATORS.map((name) => `  ${name.padEnd(20)} ${OPERATOR_DESCRIPTIONS[name]}`).join("\n")}\n\n` +
        "A mutant survives when it scores at or above 1.0; an equivalent mutant (same world history, same messages\nto and from the user, no value used that only the changed step returned) is left out of the score.\nExits 1 when a file has errors, or under --min-score.",
    )
    .action(async (paths: string[], opts: StrengthOptions) => setExit(await strengthCommand(paths, opts, io)));
}

function minScore(value: string): number {
  const n = Number(value);
  if (!Number.isFinite(n) || n < 0 || n > 1) throw new InvalidArgumentError("a number from 0 to 1");
  return n;
}

function operatorList(value: string): OperatorName[] {
  const names = value
    .split(",")
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
  const unknown = names.filter((n) => !isOperatorName(n));
  if (unknown.length > 0)
    throw new InvalidArgumentError(
      `unknown ${unknown.length === 1 ? "mutator" : "mutators"}: ${unknown.join(", ")} (known: ${OPERATORS.join(", ")})`,
    );
  return names as OperatorName[];
}

interface Measured {
  readonly file: string;
  readonly src: YamlSource;
  readonly strength: ScenarioStrength;
}

async function strengthCommand(paths: readonly string[], options: StrengthOptions, io: CliIO): Promise<ExitCode> {
  const measured: Measured[] = [];
  let broken = 0;
  for (const file of collectScenarioFiles(paths)) {
    const { text, scenario, diagnostics } = loadScenario(file);
    if (scenario === null || hasErrors(diagnostics)) {
      for (const d of diagnostics.filter((x) => x.severity === "error")) io.err(formatDiagnostic(d));
      broken++;
      continue;
    }
    const strength = await scenarioStrength(scenario, options.mutators ? { operators: options.mutators } : {});
    measured.push({ file, src: new YamlSource(text, file), strength });
  }
  if (options.report !== undefined) {
    const files: StrengthFile[] = measured.map((m) => ({ file: m.file, src: m.src, strength: m.strength }));
    try {
      writeFileSync(options.report, `${JSON.stringify(mutationTestingReport(files), null, 2)}\n`);
    } catch (e) {
      throw new ExitError(`cannot write ${options.report}: ${e instanceof Error ? e.message : String(e)}`, EXIT.io);
    }
  }
  const all = measured.map((m) => m.strength);
  if (options.json) {
    io.out(
      JSON.stringify(
        {
          scenarios: measured.map((m) => ({ file: m.file, ...m.strength })),
          total: suiteTotal(all),
          by_category: byCategory(all),
          by_mutator: byOperator(all),
        },
        null,
        2,
      ),
    );
  } else {
    for (const m of measured) printScenario(m, io);
    if (measured.length > 1) printSuite(all, io);
  }
  const under =
    options.minScore === undefined
      ? []
      : measured.filter((m) => m.strength.error !== null || (m.strength.score !== null && m.strength.score < options.minScore! - 1e-9));
  if (!options.json && options.minScore !== undefined)
    io.out(
      under.length === 0
        ? `every scenario at or above ${options.minScore}`
        : `${plural(under.length, "scenario")} under ${options.minScore}: ${under.map((m) => m.strength.scenario).join(", ")}`,
    );
  return broken > 0 || under.length > 0 ? EXIT.failed : EXIT.ok;
}

/** One scenario's verdict line, then a line per surviving mutant and per refused variant (also `draft`'s). */
export function printScenario(m: Measured, io: CliIO): void {
  io.out(`${m.file}: ${strengthLine(m.strength)}`);
  for (const l of undecidedOutcomes(m.strength)) io.out(`  ${where(m, l)}: ${outcomeText(l)}`);
}

function where(m: Measured, l: OutcomeLine): string {
  const { start } = m.src.rangeAt(["reference", l.step]);
  return `${m.file}:${start.line + 1}:${start.character + 1}`;
}

function printSuite(all: readonly ScenarioStrength[], io: CliIO): void {
  const columns: Column<Tally>[] = [
    { header: "", cell: (t) => t.label },
    { header: "SCENARIOS", align: "right", cell: (t) => String(t.scenarios) },
    { header: "KILLED", align: "right", cell: (t) => String(t.killed + t.timeout) },
    { header: "SURVIVED", align: "right", cell: (t) => String(t.survived) },
    { header: "NO COVERAGE", align: "right", cell: (t) => String(t.noCoverage) },
    { header: "EQUIVALENT", align: "right", cell: (t) => String(t.equivalent) },
    { header: "SCORE", align: "right", cell: (t) => percent(t.score) },
    { header: "REFUSED", align: "right", cell: (t) => String(t.refused) },
  ];
  io.out("");
  for (const line of renderTable([{ ...columns[0]!, header: "CATEGORY" }, ...columns.slice(1)], [...byCategory(all), suiteTotal(all)]))
    io.out(line);
  io.out("");
  const operatorColumns: Column<Tally>[] = [
    { ...columns[0]!, header: "MUTATOR" },
    ...columns.slice(1, 7),
    { header: "PASSED", align: "right", cell: (t) => String(t.passed) },
    columns[7]!,
  ];
  for (const line of renderTable(operatorColumns, byOperator(all))) io.out(line);
  const skipped = all.filter((s) => s.error !== null).length;
  if (skipped > 0) io.out(`${plural(skipped, "scenario")} not measured (the reference does not pass): counted in no figure`);
}

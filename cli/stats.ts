// `toolsandbox stats`: what a set of scenarios covers, as tables like the ToolSandbox paper's
// (scenarios per category; per tool, per table and per column, how many milestones check it).
// Reads scenario files (directories searched) and saved trajectories (their embedded scenario).
// Over scenarios of several world packs, tools, tables and columns get a PACK column, so
// same-named rows of different packs (ToolSandbox's REMINDER, ToolTalk's) stay apart.
import type { Command } from "commander";
import { formatDiagnostic } from "../engine/base/diagnostics.js";
import {
  scenarioStats,
  type ColumnRow,
  type CountSummary,
  type PackQualified,
  type PackRow,
  type ScenarioStats,
  type TableRow,
  type Tally,
  type ToolRow,
} from "../engine/evaluation/scenario-stats.js";
import type { AppStatsRow } from "../engine/evaluation/app-stats.js";
import type { Scenario } from "../engine/scenario/model.js";
import { TRAJECTORY_SUFFIX } from "../engine/trajectory/writer.js";
import { ExitError, EXIT, type ExitCode } from "../engine/runner/errors.js";
import { plural } from "../engine/base/text.js";
import { problemLine, type CliIO } from "./io.js";
import { loadTrajectory } from "./replay.js";
import { collectScenarioFiles, collectTrajectoryFiles, hasErrors, isRunFolder, loadScenario } from "../engine/runner/scenario-files.js";
import { renderTable, type Column } from "./table.js";

interface StatsOptions {
  readonly json?: boolean;
}

/** Where each counted scenario came from; a name seen before is not counted again. */
export interface StatsSource {
  readonly file: string;
  readonly scenario: string;
  readonly counted: boolean;
}

export interface StatsReport extends ScenarioStats {
  readonly files: readonly StatsSource[];
}

export function registerStats(program: Command, io: CliIO): void {
  program
    .command("stats")
    .description("count scenarios per category and tool, and what their milestones and minefields check")
    .argument("<paths...>", `scenario files, directories to search for *.scenario.yaml, or *${TRAJECTORY_SUFFIX} files`)
    .option("--json", "print the counts as JSON")
    .addHelpText(
      "after",
      "\nA scenario is counted once per name (a trajectory of a scenario already counted is skipped).\nExits 1, counting nothing, when a scenario file has errors.",
    )
    // Failures are thrown as ExitError, which the top level turns into the exit code.
    .action((paths: string[], opts: StatsOptions) => void statsCommand(paths, opts, io));
}

export function statsCommand(paths: readonly string[], options: StatsOptions, io: CliIO): ExitCode {
  const { scenarios, files } = loadScenarios(paths, io);
  const skipped = files.filter((f) => !f.counted).length;
  if (skipped > 0) {
    const verb = skipped === 1 ? "repeats" : "repeat";
    io.err(problemLine(`note: ${plural(skipped, "file")} ${verb} a scenario name already counted; each scenario is counted once`));
  }
  const stats = scenarioStats(scenarios);
  if (options.json) {
    const report: StatsReport = { files, ...stats };
    io.out(JSON.stringify(report, null, 2));
  } else {
    for (const line of statsLines(stats, files.length)) io.out(line);
  }
  return EXIT.ok;
}

/**
 * Every scenario: the scenario files in argument order, then the trajectories. Files with errors have
 * their diagnostics printed to stderr as `validate` formats them, then nothing is counted.
 */
function loadScenarios(paths: readonly string[], io: CliIO): { scenarios: Scenario[]; files: StatsSource[] } {
  // A path is a trajectory (or a folder of runs) when it names one; anything else holds scenarios.
  const trajectoryPaths = paths.filter((p) => p.endsWith(TRAJECTORY_SUFFIX) || isRunFolder(p));
  const scenarioPaths = paths.filter((p) => !trajectoryPaths.includes(p));
  const loaded = scenarioPaths.length === 0 ? [] : collectScenarioFiles(scenarioPaths).map((file) => loadScenario(file));
  const broken = loaded.filter((l) => hasErrors(l.diagnostics) || !l.scenario);
  if (broken.length > 0) {
    for (const l of broken) for (const d of l.diagnostics) io.err(formatDiagnostic(d));
    const verb = broken.length === 1 ? "has" : "have";
    throw new ExitError(`${broken.length} of ${plural(loaded.length, "scenario file")} ${verb} errors; nothing was counted`, EXIT.failed);
  }
  const found: { file: string; scenario: Scenario }[] = [
    ...loaded.flatMap((l) => (l.scenario ? [{ file: l.file, scenario: l.scenario }] : [])),
    ...collectTrajectoryFiles(trajectoryPaths).map((file) => ({ file, scenario: loadTrajectory(file).header.scenario })),
  ];
  const seen = new Set<string>();
  const scenarios: Scenario[] = [];
  const files = found.map(({ file, scenario }): StatsSource => {
    const counted = !seen.has(scenario.name);
    if (counted) {
      seen.add(scenario.name);
      scenarios.push(scenario);
    }
    return { file, scenario: scenario.name, counted };
  });
  return { scenarios, files };
}

const count = <T>(header: string, value: (row: T) => number): Column<T> => ({ header, align: "right", cell: (r) => String(value(r)) });

/** The row's own columns, then the four counts of its tally. */
function tallyColumns<T extends Tally>(...own: Column<T>[]): Column<T>[] {
  return [
    ...own,
    count("SCENARIOS", (r) => r.scenarios),
    count("MILESTONES", (r) => r.milestones),
    count("MINEFIELDS", (r) => r.minefields),
    count("CONSTRAINTS", (r) => r.constraints),
  ];
}

const PACK_COLUMNS: readonly Column<PackRow>[] = [{ header: "PACK", cell: (r) => r.pack }, count("SCENARIOS", (r) => r.scenarios)];

const TOOL_COLUMNS: readonly Column<ToolRow>[] = [
  { header: "TOOL", cell: (r) => r.tool },
  count("NECESSARY", (r) => r.necessary),
  count("ALLOWED", (r) => r.allowed),
  count("UNUSED", (r) => r.allowed_unused),
  count("CALLS", (r) => r.reference_calls),
  count("MILESTONES", (r) => r.milestones),
  count("MINEFIELDS", (r) => r.minefields),
];

// MILESTONES/MINEFIELDS count expected calls only: a node checking a tool's effect on a table
// (ToolTalk's AddReminder, say) names no tool, so the legend says where those are counted.
const TOOL_LEGEND = [
  "NECESSARY: scenarios whose reference solution calls the tool; ALLOWED: scenarios whose agent may call it;",
  "UNUSED: allowed but not called; CALLS: reference calls; MILESTONES/MINEFIELDS: nodes that expect a call",
  "of the tool (a golden tool trace); a node that checks a tool's effect on a table counts under TABLE, not here.",
];

/** The PACK column first when the rows come from several packs (they then carry `pack`). */
const APP_COLUMNS: readonly Column<AppStatsRow>[] = [
  { header: "APP", cell: (r) => r.app },
  count("ALLOWED", (r) => r.allowed),
  count("NEEDED", (r) => r.necessary),
  count("REFERENCE CALLS", (r) => r.reference_calls),
];

function packed<T extends PackQualified>(stats: ScenarioStats, columns: readonly Column<T>[]): Column<T>[] {
  return stats.packs ? [{ header: "PACK", cell: (r) => r.pack ?? "" }, ...columns] : [...columns];
}

const COMPARED_WITH: Readonly<Record<string, string>> = {
  initial: "initial world",
  milestone: "a milestone's match",
  none: "no reference",
};

/** The tables, each under a blank line, then the shape of the milestone DAGs. */
function statsLines(stats: ScenarioStats, fileCount: number): string[] {
  const sections: string[][] = [
    [`${plural(stats.scenarios, "scenario")} from ${plural(fileCount, "file")}`],
    ...(stats.packs ? [renderTable(PACK_COLUMNS, stats.packs)] : []),
    [
      ...renderTable<ScenarioStats["categories"][number]>(
        [{ header: "CATEGORY", cell: (r) => r.category }, count("SCENARIOS", (r) => r.scenarios)],
        stats.categories,
      ),
      ...(stats.uncategorized > 0 ? [`(${plural(stats.uncategorized, "scenario")} without a category)`] : []),
    ],
    [...renderTable(packed(stats, TOOL_COLUMNS), stats.tools), ...TOOL_LEGEND],
    renderTable(packed(stats, APP_COLUMNS), stats.apps),
    renderTable(packed(stats, tallyColumns<TableRow>({ header: "TABLE", cell: (r) => r.table })), stats.tables),
    renderTable(packed(stats, tallyColumns<ColumnRow>({ header: "COLUMN", cell: (r) => `${r.table}.${r.column}` })), stats.columns),
    renderTable(
      tallyColumns<ScenarioStats["constraint_kinds"][number]>({ header: "CONSTRAINT", cell: (r) => r.kind }),
      stats.constraint_kinds,
    ),
    renderTable(
      tallyColumns<ScenarioStats["measures"][number]>(
        { header: "MEASURE", cell: (r) => r.measure },
        count("COLUMN USES", (r) => r.column_uses),
        count("WRITTEN", (r) => r.written),
      ),
      stats.measures,
    ),
    renderTable(
      tallyColumns<ScenarioStats["references"][number]>({
        header: "COMPARED WITH",
        cell: (r) => COMPARED_WITH[r.compared_with] ?? r.compared_with,
      }),
      stats.references,
    ),
    shapeLines(stats.shape),
  ];
  return sections.flatMap((lines, i) => (i === 0 ? lines : ["", ...lines]));
}

function perScenario(s: CountSummary): string {
  if (s.min === null || s.max === null || s.mean === null) return "none";
  return `${s.min} to ${s.max}, mean ${s.mean.toFixed(2)}`;
}

function shapeLines(shape: ScenarioStats["shape"]): string[] {
  return [
    `Milestones per scenario: ${perScenario(shape.milestones)} (${shape.milestones.total} in all, ${plural(shape.milestone_edges, "`after` edge")}); ` +
      `${plural(shape.branching_scenarios, "scenario")} branch or join instead of one chain in written order`,
    `Minefields per scenario: ${perScenario(shape.minefields)} (${shape.minefields.total} in all, in ${plural(shape.scenarios_with_minefields, "scenario")})`,
    `Reference solutions: ${plural(shape.reference_tool_calls, "tool call")}, ${plural(shape.reference_parallel_turns, "parallel turn")}`,
  ];
}

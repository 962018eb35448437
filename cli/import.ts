// `toolsandbox import toolsandbox <checkout> --out DIR [--python EXE]` is in importToolSandboxCommand
// (engine/benchmarks/toolsandbox/importer/ does the work).
// `toolsandbox import tooltalk <paths...> --out DIR`: turns ToolTalk conversation files (or every
// *.json under a folder, ToolTalk's data root included) into scenario files, one
// `<name>.scenario.yaml` each, carrying the database rows they need (from `databases/` beside or
// under the paths, or --databases). A conversation that
// cannot be imported is one line on stderr naming the file and the JSON path of the problem, and
// the others are still written; the exit code is then 1. A path that does not exist, or an output
// folder that cannot be written, stops the command (exit 3) before or as it happens.
import { existsSync, readFileSync, statSync } from "node:fs";
import { makeDirectories, writeFileNoFollow } from "../engine/base/output-files.js";
import { dirname, join, relative, resolve, sep } from "node:path";
import type { Command } from "commander";
import { importConversation, type ImportedScenario } from "../engine/benchmarks/tooltalk/importer/import-conversation.js";
import { SCENARIO_FILE_SUFFIX } from "../engine/benchmarks/tooltalk/importer/names.js";
import { ImportProblem } from "../engine/benchmarks/tooltalk/importer/problem.js";
import { conversationFilesUnder } from "../engine/benchmarks/tooltalk/evaluation/conversation-files.js";
import {
  DatabaseFileError,
  findDatabasesFolder,
  isDatabasesFolder,
  readToolTalkDatabases,
} from "../engine/packs/tooltalk/database-files.js";
import type { Tables } from "../engine/world/types.js";
import { parseConversation } from "../engine/benchmarks/tooltalk/evaluation/conversation.js";
import { JsonInputError } from "../engine/base/json-reader.js";
import { ExportDataError } from "../engine/benchmarks/toolsandbox/importer/export-data.js";
import { importToolSandbox, type SuiteImport } from "../engine/benchmarks/toolsandbox/importer/import-suite.js";
import { ExporterError } from "../engine/benchmarks/toolsandbox/importer/run-exporter.js";
import { ExitError, EXIT, fsError, type ExitCode } from "../engine/runner/errors.js";
import { isDirectory } from "../engine/runner/scenario-files.js";
import { plural } from "../engine/base/text.js";
import { problemLine, type CliIO } from "./io.js";

const IMPORT_SOURCES = ["tooltalk", "toolsandbox"] as const;

interface ImportOptions {
  readonly out: string;
  /** ToolTalk's `databases` folder; found from the paths when absent. */
  readonly databases?: string;
  /** ToolSandbox only: the Python that runs the exporter (default python3). */
  readonly python?: string;
}

interface ImportReport {
  /** Written scenario files, in input order. */
  readonly written: readonly string[];
  /** One line per conversation that was not imported. */
  readonly problems: readonly string[];
}

export function registerImport(program: Command, io: CliIO, setExit: (code: ExitCode) => void): void {
  program
    .command("import")
    .description(
      "turn another benchmark's conversations into scenario files (ToolTalk: one <name>.scenario.yaml per conversation; ToolSandbox: one per scenario of a checkout)",
    )
    .argument("<source>", `the benchmark the files come from (${IMPORT_SOURCES.join(", ")})`)
    .argument(
      "<paths...>",
      "ToolTalk: conversation files, or folders searched recursively for *.json conversations (ToolTalk's data root works); ToolSandbox: the checkout",
    )
    .requiredOption("-o, --out <dir>", "directory for the scenario files")
    .option("--databases <dir>", "ToolTalk: the databases folder (default: the one under the paths, or beside them)")
    .option("--python <exe>", "ToolSandbox: the Python that imports the checkout", "python3")
    .addHelpText(
      "after",
      "\nA conversation that cannot be imported is reported on one line (file and JSON path) and skipped; the\nothers are written, and the exit code is 1. The same input always gives the same files, byte for byte.",
    )
    .action((source: string, paths: string[], opts: ImportOptions) => setExit(importCommand(source, paths, opts, io)));
}

function importCommand(source: string, paths: readonly string[], options: ImportOptions, io: CliIO): ExitCode {
  if (!(IMPORT_SOURCES as readonly string[]).includes(source)) {
    throw new ExitError(`unknown import source "${source}" (supported: ${IMPORT_SOURCES.join(", ")})`, EXIT.usage);
  }
  if (source === "toolsandbox") return importToolSandboxCommand(paths, options, io);
  const report = importToolTalk(paths, options.out, options.databases);
  for (const line of report.problems) io.err(problemLine(line));
  const total = report.written.length + report.problems.length;
  io.out(`${report.written.length} of ${plural(total, "conversation")} imported into ${options.out}`);
  return report.problems.length > 0 ? EXIT.failed : EXIT.ok;
}

function importToolSandboxCommand(paths: readonly string[], options: ImportOptions, io: CliIO): ExitCode {
  if (paths.length !== 1) throw new ExitError("import toolsandbox takes one path: the ToolSandbox checkout", EXIT.usage);
  if (!existsSync(paths[0] ?? "")) throw new ExitError(`${paths[0] ?? ""}: no such file or directory`, EXIT.io);
  const schema = schemaFile();
  const schemaPath = schema === null ? null : relative(resolve(options.out), schema).split(sep).join("/");
  let report: SuiteImport;
  try {
    report = importToolSandbox(paths[0] ?? "", { out: options.out, python: options.python ?? "python3", schemaPath });
  } catch (e) {
    if (e instanceof ExporterError || e instanceof ExportDataError) throw new ExitError(e.message, EXIT.failed);
    throw e;
  }
  for (const note of report.notes) io.err(note);
  for (const w of report.warnings) io.err(`warning: ${join(options.out, `${w.scenario}.scenario.yaml`)}: ${w.construct}: ${w.message}`);
  for (const line of report.problems) io.err(problemLine(line));
  const withReference = report.converted.filter((c) => c.hasReference).length;
  io.out(
    `${report.written.length} of ${plural(report.written.length + report.problems.length, "scenario")} imported into ${options.out} (${withReference} with a reference solution)`,
  );
  return report.problems.length > 0 ? EXIT.failed : EXIT.ok;
}

/** The conversation files a path names: itself, or every *.json file under a folder (the databases left out). */
function conversationFiles(path: string): string[] {
  try {
    statSync(path);
  } catch (e) {
    throw fsError(e, path);
  }
  if (!isDirectory(path)) return [path];
  let files: string[];
  try {
    files = conversationFilesUnder(path);
  } catch (e) {
    throw fsError(e, path);
  }
  if (files.length === 0) throw new ExitError(`${path}: no *.json conversation files in this directory or below it`, EXIT.io);
  return files;
}

/** ToolTalk's databases as rows, from `given` or the folder found from the first path. */
function databasesFor(paths: readonly string[], given: string | undefined): Tables {
  const folder = given ?? paths.map((p) => findDatabasesFolder(resolve(p))).find((f) => f !== null) ?? null;
  if (folder === null) {
    throw new ExitError(
      `no ToolTalk databases folder (with Account.json ... Weather.json) under or beside ${paths.join(", ")}; name it with --databases`,
      EXIT.usage,
    );
  }
  if (!isDatabasesFolder(folder))
    throw new ExitError(`${folder}: not ToolTalk's databases folder (it needs Account.json ... Weather.json)`, EXIT.usage);
  try {
    return readToolTalkDatabases(folder);
  } catch (e) {
    if (e instanceof DatabaseFileError) throw new ExitError(e.message, EXIT.io);
    if (e instanceof Error && !("code" in e)) throw new ExitError(e.message, EXIT.io);
    throw fsError(e, folder);
  }
}

/** The scenario schema shipped with this package (next to dist/ or engine/), for the modeline. */
function schemaFile(): string | null {
  for (let dir = __dirname, i = 0; i < 4; i++, dir = dirname(dir)) {
    const candidate = join(dir, "schemas", "scenario.schema.json");
    if (existsSync(candidate)) return candidate;
  }
  return null;
}

function importToolTalk(paths: readonly string[], out: string, databasesFolder?: string): ImportReport {
  const files = [...new Set(paths.flatMap(conversationFiles))];
  const databases = databasesFor(paths, databasesFolder);
  try {
    makeDirectories(out);
  } catch (e) {
    throw fsError(e, out);
  }
  const schema = schemaFile();
  const schemaPath = schema === null ? null : relative(resolve(out), schema).split(sep).join("/");
  const written: string[] = [];
  const problems: string[] = [];
  const names = new Map<string, string>();
  for (const file of files) {
    let text: string;
    try {
      text = readFileSync(file, "utf8");
    } catch (e) {
      const problem = fsError(e, file);
      problems.push(problem instanceof ExitError ? problem.message : `${file}: cannot be read`);
      continue;
    }
    let imported: ImportedScenario;
    try {
      imported = importConversation(parseConversation(text, file), { schemaPath, databases });
    } catch (e) {
      if (e instanceof JsonInputError || e instanceof ImportProblem) {
        problems.push(e.message);
        continue;
      }
      throw e;
    }
    const other = names.get(imported.name);
    if (other !== undefined) {
      problems.push(`${file}: $.name: the scenario name ${imported.name} is already used by ${other}`);
      continue;
    }
    names.set(imported.name, file);
    const target = join(out, `${imported.name}${SCENARIO_FILE_SUFFIX}`);
    try {
      writeFileNoFollow(target, imported.text);
    } catch (e) {
      throw fsError(e, target);
    }
    written.push(target);
  }
  return { written, problems };
}

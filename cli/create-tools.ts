// `toolsandbox create-tools`: DialogTool's tool creation. A model writes each tool of a pack in
// Python from its documentation; the code runs in the sandbox on cases our implementation
// answered; one result file per tool, a summary, and the pass rates per tool and per app.
import { InvalidArgumentError, Option, type Command } from "commander";
import { join } from "node:path";
import { createTool, type ToolCreationResult } from "../engine/benchmarks/dialogtool/creation/create-tool.js";
import { CREATION_PACKS, type CreationPack } from "../engine/benchmarks/dialogtool/creation/packs.js";
import { DEFAULT_SANDBOX_LIMITS, defaultSandboxPaths, sandboxProblem } from "../engine/benchmarks/dialogtool/creation/sandbox.js";
import { escapeBidi } from "../engine/benchmarks/dialogtool/creation/sandbox-protocol.js";
import { makeDirectories, writeFileAtomically } from "../engine/base/output-files.js";
import { ExitError, EXIT, fsError, type ExitCode } from "../engine/runner/errors.js";
import type { CliIO } from "./io.js";
import { numberIn } from "./number-options.js";
import { addModelRoleOptions, parseAgentId, withRoleSpecs } from "./role-options.js";
import { modelOfSpec, SUPPORTED_AGENTS, type ModelRoleFlags } from "../engine/runner/role-specs.js";
import { renderTable, type Column } from "./table.js";

const CREATION_SUMMARY_FILE = "creation-summary.json";
const CREATION_SUFFIX = ".creation.json";

interface CreateToolsOptions extends ModelRoleFlags {
  readonly pack: string;
  readonly tools?: readonly string[];
  readonly agent: string;
  readonly out: string;
  readonly callTimeout: number;
  readonly memoryLimit: number;
}

interface AppRow {
  readonly app: string;
  readonly tools: number;
  /** Tools whose every case passed. */
  readonly toolsPassed: number;
  readonly passed: number;
  readonly total: number;
}

const rate = (passed: number, total: number): string => (total === 0 ? "-" : `${((100 * passed) / total).toFixed(1)}%`);

const TOOL_COLUMNS: Column<ToolCreationResult>[] = [
  { header: "tool", cell: (r) => r.tool },
  { header: "app", cell: (r) => r.app },
  { header: "cases", align: "right", cell: (r) => `${r.passed}/${r.total}` },
  { header: "pass rate", align: "right", cell: (r) => rate(r.passed, r.total) },
  // The failure may quote the model or its endpoint: printed with bidirectional controls escaped.
  { header: "problem", cell: (r) => escapeBidi(r.failure ?? "") },
];

const APP_COLUMNS: Column<AppRow>[] = [
  { header: "app", cell: (r) => r.app },
  { header: "tools passed", align: "right", cell: (r) => `${r.toolsPassed}/${r.tools}` },
  { header: "cases", align: "right", cell: (r) => `${r.passed}/${r.total}` },
  { header: "pass rate", align: "right", cell: (r) => rate(r.passed, r.total) },
];

/** Per app, in order of first appearance, then "all". */
function appRows(results: readonly ToolCreationResult[]): AppRow[] {
  const apps = [...new Set(results.map((r) => r.app))];
  const row = (app: string, of: readonly ToolCreationResult[]): AppRow => ({
    app,
    tools: of.length,
    toolsPassed: of.filter((r) => r.passed === r.total).length,
    passed: of.reduce((n, r) => n + r.passed, 0),
    total: of.reduce((n, r) => n + r.total, 0),
  });
  return [
    ...apps.map((app) =>
      row(
        app,
        results.filter((r) => r.app === app),
      ),
    ),
    row("all", results),
  ];
}

function selectedTools(pack: CreationPack, names: readonly string[] | undefined): string[] {
  const known = pack.specs.map((s) => s.tool);
  if (!names) return known;
  const unknown = names.filter((n) => !known.includes(n));
  if (unknown.length > 0)
    throw new ExitError(`no tool-creation cases for ${unknown.join(", ")} in pack ${pack.id} (there are: ${known.join(", ")})`, EXIT.usage);
  return [...new Set(names)];
}

async function createToolsCommand(options: CreateToolsOptions, io: CliIO, env = process.env): Promise<ExitCode> {
  const pack = CREATION_PACKS.get(options.pack);
  if (!pack) throw new ExitError(`tool creation knows the packs ${[...CREATION_PACKS.keys()].join(", ")}, not ${options.pack}`, EXIT.usage);
  const { roles } = withRoleSpecs({ ...options, user: "scripted" }, env);
  if (roles.agent.kind !== "openai") throw new ExitError("create-tools needs a model: --agent openai:<model>", EXIT.usage);
  const model = modelOfSpec(roles.agent, "agent", env);
  const tools = selectedTools(pack, options.tools);
  const sandbox = defaultSandboxPaths();
  const problem = sandboxProblem(sandbox);
  if (problem !== null) throw new ExitError(problem, EXIT.io);
  try {
    makeDirectories(options.out);
  } catch (e) {
    throw fsError(e, options.out);
  }
  const limits = { ...DEFAULT_SANDBOX_LIMITS, callSeconds: options.callTimeout, memoryMb: options.memoryLimit };
  const results: ToolCreationResult[] = [];
  for (const name of tools) {
    const tool = pack.toolByName(name);
    const specs = pack.specs.find((s) => s.tool === name);
    if (!tool || !specs) throw new Error(`pack ${pack.id} has cases for ${name} but no such tool`);
    const result = await createTool({
      tool,
      app: pack.appOf(tool),
      specs,
      world: pack.world,
      ...(pack.rules === undefined ? {} : { rules: pack.rules }),
      ...(pack.toolNotes === undefined ? {} : { notes: pack.toolNotes(tool) }),
      model,
      label: `agent openai:${model.settings.model}`,
      sandbox,
      limits,
    });
    writeFileAtomically(join(options.out, `${name}${CREATION_SUFFIX}`), `${JSON.stringify(result, null, 2)}\n`);
    results.push(result);
  }
  const apps = appRows(results);
  const summary = {
    pack: pack.id,
    model: model.settings.model,
    tools: results.map((r) => ({ tool: r.tool, app: r.app, passed: r.passed, total: r.total, failure: r.failure })),
    apps: apps.map((a) => ({ app: a.app, tools: a.tools, tools_passed: a.toolsPassed, passed: a.passed, total: a.total })),
  };
  writeFileAtomically(join(options.out, CREATION_SUMMARY_FILE), `${JSON.stringify(summary, null, 2)}\n`);
  // Without /proc (not Linux) nothing outside the child watched its memory: say so rather than imply a cap.
  if (results.some((r) => r.sandbox?.memory.enforcement.startsWith("none")))
    io.err(`toolsandbox: warning: the sandbox's memory limit (${options.memoryLimit} MiB) was not enforced: this system has no /proc`);
  for (const line of renderTable(TOOL_COLUMNS, results)) io.out(line);
  io.out("");
  for (const line of renderTable(APP_COLUMNS, apps)) io.out(line);
  // A tool the model never answered for is a failed run, as a scenario whose model failed is for `run`.
  return results.some((r) => r.model_calls.some((c) => c.error !== undefined)) ? EXIT.failed : EXIT.ok;
}

function toolList(value: string): string[] {
  const names = value
    .split(",")
    .map((n) => n.trim())
    .filter((n) => n !== "");
  if (names.length === 0) throw new InvalidArgumentError("give at least one tool name");
  return names;
}

/** Below this the sandbox cannot even start Pyodide (about 170 MiB resident once loaded). */
const MIN_MEMORY_MB = 256;

const mebibytes = numberIn("the memory limit", MIN_MEMORY_MB, 1024 * 1024, { integer: true, unit: "MiB" });
const seconds = numberIn("the call timeout", 0, 3600, { unit: "seconds", aboveMin: true });

export function registerCreateTools(program: Command, io: CliIO, setExit: (code: ExitCode) => void): void {
  const command = program
    .command("create-tools")
    .description(
      "DialogTool's tool creation: a model writes a pack's tools in Python; each runs in a WebAssembly sandbox on cases our tools answered",
    )
    .requiredOption("-o, --out <dir>", `directory for <tool>${CREATION_SUFFIX} and ${CREATION_SUMMARY_FILE}`)
    .addOption(new Option("--pack <id>", "the world pack").choices([...CREATION_PACKS.keys()]).default("toolsandbox"))
    .addOption(new Option("--tools <names>", "comma-separated tools (default: every tool with cases)").argParser(toolList))
    .addOption(
      new Option("--agent <id>", `the model that writes the code (${SUPPORTED_AGENTS[1]})`).makeOptionMandatory().argParser(parseAgentId),
    )
    .addOption(
      new Option(
        "--call-timeout <seconds>",
        `time limit of each call of the model's function (default ${DEFAULT_SANDBOX_LIMITS.callSeconds})`,
      )
        .default(DEFAULT_SANDBOX_LIMITS.callSeconds)
        .argParser(seconds),
    )
    .addOption(
      new Option(
        "--memory-limit <MiB>",
        `the sandbox's whole memory, enforced from outside it: past it the sandbox is killed (default ${DEFAULT_SANDBOX_LIMITS.memoryMb})`,
      )
        .default(DEFAULT_SANDBOX_LIMITS.memoryMb)
        .argParser(mebibytes),
    )
    .addHelpText("after", "\nThe --user-* options of `run` are refused here. Exits 1 when a model request failed (its tool scores 0).")
    .action(async (opts: CreateToolsOptions) => setExit(await createToolsCommand(opts, io)));
  addModelRoleOptions(command);
}

// The `toolsandbox` command line. Every command returns an exit code; every failure becomes one
// line on stderr. Nothing below this file calls process.exit.
import { Command, CommanderError, InvalidArgumentError, Option } from "commander";
import { version } from "../../package.json";
import { CliError, EXIT, EXIT_CODES_HELP, type ExitCode } from "./errors.js";
import { errorMessage } from "./format.js";
import { problemLine, processIO, type CliIO } from "./io.js";
import { evalCommand } from "./eval.js";
import { replayCommand } from "./replay.js";
import { parseAgentId, parseUserId, SUPPORTED_AGENTS, SUPPORTED_USERS } from "./roles.js";
import { runCommand } from "./run.js";
import { registerStats } from "./stats.js";
import { toolsCommand } from "./tools.js";
import { validateCommand } from "./validate.js";

const EPILOG = `
${EXIT_CODES_HELP}

Environment:
  TOOLSANDBOX_DEBUG=1  print the stack trace of an internal error`;

/** Commander's error text, shortened: "error: option '--seed <n>' argument 'x' is invalid. why" -> "--seed: why". */
function usageMessage(text: string): string {
  const message = text.trim().replace(/^error: /, "");
  const invalid = /^option '(?:-\w, )?(--?[\w-]+)[^']*' argument '.*' is invalid\. (.*)$/s.exec(message);
  return invalid ? `${invalid[1]}: ${invalid[2]}` : message;
}

function parseSeed(value: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(n)) throw new InvalidArgumentError(`the seed must be a non-negative integer, got "${value}"`);
  return n;
}

function buildProgram(io: CliIO, setExit: (code: ExitCode) => void): Command {
  const program = new Command("toolsandbox")
    .description("Validate, run, score and replay ToolSandbox scenarios.")
    .version(version, "-V, --version", "print the version")
    .helpOption("-h, --help", "show help")
    .addHelpText("after", EPILOG)
    .showSuggestionAfterError(true)
    .exitOverride()
    .configureOutput({
      writeOut: (text) => process.stdout.write(text),
      writeErr: (text) => process.stderr.write(text),
      // Commander's own errors (bad flags, missing arguments) in the CLI's one-line form.
      outputError: (text) => io.err(problemLine(`${usageMessage(text)} (see --help)`)),
    });

  program
    .command("validate")
    .description("check scenario files, and score each reference solution; print every problem as file:line:col: severity code: message")
    .argument("<paths...>", "scenario files, or directories to search for *.scenario.yaml")
    .option("--json", "print the diagnostics as JSON")
    .addHelpText(
      "after",
      "\nA file without errors has its reference solution played by the scripted roles and scored; a milestone\nit misses or a minefield it hits is an error on that node's line. Exits 1 when any file has an error;\nwarnings alone exit 0.",
    )
    .action(async (paths: string[], opts: { json?: boolean }) => setExit(await validateCommand(paths, opts, io)));

  program
    .command("run")
    .description("play and score scenarios: one trajectory per scenario, summary.json, and a per-category table")
    .argument("<paths...>", "scenario files, or directories to search for *.scenario.yaml")
    .requiredOption("-o, --out <dir>", "directory for <name>.trajectory.jsonl and summary.json")
    .addOption(
      new Option("--agent <id>", `who plays the agent (supported: ${SUPPORTED_AGENTS.join(", ")})`).default("scripted").argParser(parseAgentId),
    )
    .addOption(
      new Option("--user <id>", `who plays the user (supported: ${SUPPORTED_USERS.join(", ")})`).default("scripted").argParser(parseUserId),
    )
    .addOption(new Option("--seed <n>", "seed for everything random in the episode").default(0).argParser(parseSeed))
    .addHelpText(
      "after",
      "\nNothing runs when a scenario file has errors. Exits 1 when a scenario could not be played to its end\n(role error, reference out of step, engine error).",
    )
    .action(async (paths: string[], opts: { out: string; agent: string; user: string; seed: number }) =>
      setExit(await runCommand(paths, opts, io)),
    );

  program
    .command("eval")
    .description("re-score saved trajectories without running anything: where each milestone and minefield matched, and why")
    .argument("<trajectories...>", "*.trajectory.jsonl files, or directories to search for them")
    .option("--scenario <file>", "score against this scenario file instead of the scenario embedded in each trajectory")
    .option("--json", "print a JSON array with one object per trajectory")
    .addHelpText(
      "after",
      "\nWith several trajectories it also prints the per-category table. Exits 1 when the --scenario file has errors.",
    )
    .action((paths: string[], opts: { scenario?: string; json?: boolean }) => setExit(evalCommand(paths, opts, io)));

  program
    .command("replay")
    .description("print a saved trajectory: every message, tool call and exception, the world diff after each step, and where each milestone and minefield matched")
    .argument("<trajectory>", "a *.trajectory.jsonl file")
    .action((file: string) => setExit(replayCommand(file, io)));

  program
    .command("tools")
    .description("list the tool catalog")
    .option("--json", "print every tool's catalog entry as JSON")
    .action((opts: { json?: boolean }) => setExit(toolsCommand(opts, io)));

  registerStats(program, io);
  return program;
}

export async function main(argv: readonly string[], io: CliIO): Promise<number> {
  let exitCode: ExitCode = EXIT.ok;
  const program = buildProgram(io, (code) => {
    exitCode = code;
  });
  if (argv.length <= 2) {
    // No command: the help is the answer, but it is still a usage error.
    program.outputHelp({ error: true });
    return EXIT.usage;
  }
  try {
    await program.parseAsync([...argv]);
    return exitCode;
  } catch (e) {
    return reportError(e, io);
  }
}

function reportError(e: unknown, io: CliIO): number {
  if (e instanceof CommanderError) {
    // --help and --version end with code 0; everything else commander raises is a usage error.
    return e.exitCode === 0 ? EXIT.ok : EXIT.usage;
  }
  if (e instanceof CliError) {
    io.err(problemLine(e.message));
    return e.exitCode;
  }
  io.err(problemLine(`internal error: ${errorMessage(e)}${io.debug ? "" : " (TOOLSANDBOX_DEBUG=1 shows the stack trace)"}`));
  if (io.debug && e instanceof Error && e.stack) io.err(e.stack);
  return EXIT.internal;
}

// A closed pipe (`toolsandbox replay x | head`) is the reader's choice, not an error.
process.stdout.on("error", (e: NodeJS.ErrnoException) => {
  if (e.code === "EPIPE") process.exit(EXIT.ok);
  process.stderr.write(`${problemLine(`cannot write to stdout: ${e.message}`)}\n`);
  process.exit(EXIT.io);
});

main(process.argv, processIO()).then(
  (code) => {
    process.exitCode = code;
  },
  (e: unknown) => {
    process.stderr.write(`${problemLine(`internal error: ${errorMessage(e)}`)}\n`);
    process.exitCode = EXIT.internal;
  },
);

// The `toolsandbox` command line. Every command returns an exit code; every failure becomes one
// line on stderr. Nothing below this file calls process.exit.
import { Command, CommanderError } from "commander";
import { version } from "../package.json";
import { OutputFileError } from "../engine/base/output-files.js";
import { ExitError, EXIT, EXIT_CODES_HELP, RoleSpecError, type ExitCode } from "../engine/runner/errors.js";
import { errorMessage } from "../engine/base/text.js";
import { problemLine, processIO, type CliIO } from "./io.js";
import { registerCompare } from "./compare.js";
import { registerCreateTools } from "./create-tools.js";
import { registerDap } from "./dap.js";
import { registerDraft } from "./draft.js";
import { registerEval } from "./eval.js";
import { registerImport } from "./import.js";
import { registerLsp } from "./lsp.js";
import { registerMockLlm } from "./mock-llm.js";
import { registerPlay } from "./play.js";
import { registerReplay } from "./replay.js";
import { registerReport } from "./report.js";
import { registerRun } from "./run.js";
import { registerServe } from "./serve.js";
import { registerStats } from "./stats.js";
import { registerStrength } from "./strength.js";
import { registerTools } from "./tools.js";
import { registerValidate } from "./validate.js";
import { registerWorld } from "./world.js";

const EPILOG = `
${EXIT_CODES_HELP}

Environment:
  TOOLSANDBOX_DEBUG=1                  print the stack trace of an internal error
  TOOLSANDBOX_DISABLE_COMPILE_CACHE=1  do not keep the compiled CLI in V8's code cache (in the temporary directory)
  TOOLSANDBOX_MAX_SCENARIO_BYTES, TOOLSANDBOX_MAX_MILESTONES, TOOLSANDBOX_MAX_NESTING_DEPTH,
  TOOLSANDBOX_MAX_TRAJECTORY_BYTES, TOOLSANDBOX_MAX_TRAJECTORY_MESSAGES
                                       raise a documented input limit (docs/limits.md)`;

/** Commander's error text, shortened: "error: option '--seed <n>' argument 'x' is invalid. why" -> "--seed: why". */
function usageMessage(text: string): string {
  const message = text.trim().replace(/^error: /, "");
  const invalid = /^option '(?:-\w, )?(--?[\w-]+)[^']*' argument '.*' is invalid\. (.*)$/s.exec(message);
  return invalid ? `${invalid[1]}: ${invalid[2]}` : message;
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

  registerValidate(program, io, setExit);
  registerRun(program, io, setExit);
  registerPlay(program, io, setExit);
  registerEval(program, io, setExit);
  registerReplay(program, io, setExit);
  registerTools(program, io, setExit);
  registerWorld(program, io, setExit);
  registerStats(program, io);
  registerStrength(program, io, setExit);
  registerDraft(program, io, setExit);
  registerCreateTools(program, io, setExit);
  registerReport(program, io);
  registerCompare(program, io);
  registerImport(program, io, setExit);
  registerMockLlm(program, io);
  registerServe(program, io, setExit);
  registerLsp(program);
  registerDap(program);
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

/** The exit code of an error the engine or a command throws on purpose; null for anything else (a bug). */
function exitCodeOf(e: unknown): ExitCode | null {
  if (e instanceof ExitError) return e.exitCode;
  // Role ids and model options the user got wrong, on the path the extension and debugger share.
  if (e instanceof RoleSpecError) return EXIT.usage;
  if (e instanceof OutputFileError) return EXIT.io;
  return null;
}

function reportError(e: unknown, io: CliIO): number {
  if (e instanceof CommanderError) {
    // --help and --version end with code 0; everything else commander raises is a usage error.
    return e.exitCode === 0 ? EXIT.ok : EXIT.usage;
  }
  const code = exitCodeOf(e);
  if (code !== null) {
    io.err(problemLine((e as Error).message));
    return code;
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

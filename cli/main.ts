// The `toolsandbox` command line. Every command returns an exit code; every failure becomes one
// line on stderr. Nothing below this file calls process.exit.
import { Command, CommanderError, InvalidArgumentError, Option } from "commander";
import { version } from "../package.json";
import type { FeedbackStyle } from "../engine/episode/call-feedback.js";
import { DEFAULT_PACK_ID, PACK_IDS, type PackId } from "../engine/packs/types.js";
import { OutputFileError } from "../engine/base/output-files.js";
import { ExitError, EXIT, EXIT_CODES_HELP, RoleSpecError, type ExitCode } from "../engine/runner/errors.js";
import { errorMessage } from "../engine/base/text.js";
import { problemLine, processIO, type CliIO } from "./io.js";
import { evalCommand } from "./eval.js";
import { worldCommand } from "./world.js";
import { evalAgainstUpstream } from "./eval-upstream.js";
import { registerImport } from "./import.js";
import { replayCommand } from "./replay.js";
import { addJudgeOptions, judgeSpec } from "./judge-options.js";
import { addReviewOptions, reviewerSpec } from "./review-options.js";
import { addModelRoleOptions, parseAgentId, parseUserId, withRoleSpecs } from "./role-options.js";
import { SUPPORTED_AGENTS, SUPPORTED_USERS, type ModelRoleFlags } from "../engine/runner/role-specs.js";
import { runCommand } from "./run.js";
import { parseShard, ShardSpecError, type Shard } from "../engine/runner/shards.js";
import { registerLsp } from "./lsp.js";
import { registerDap } from "./dap.js";
import { registerMockLlm } from "./mock-llm.js";
import { batchWindowMs, positiveSeconds, registerServe } from "./serve.js";
import { registerStats } from "./stats.js";
import { registerReport } from "./report.js";
import { registerCreateTools } from "./create-tools.js";
import { registerCompare } from "./compare.js";
import { toolsCommand } from "./tools.js";
import { validateCommand } from "./validate.js";

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

function parseSeed(value: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(n))
    throw new InvalidArgumentError(`the seed must be a non-negative integer, got "${value}"`);
  return n;
}

/** A positive whole number no larger than `max` (for counts such as --concurrency and --trials). */
function positiveInteger(what: string, max: number) {
  return (value: string): number => {
    const n = Number(value);
    if (!/^\d+$/.test(value) || n < 1 || n > max)
      throw new InvalidArgumentError(`${what} must be a whole number from 1 to ${max}, got "${value}"`);
    return n;
  };
}

/** Default most episodes (and requests per endpoint) of `--concurrency auto`. */
const DEFAULT_AUTO_CONCURRENCY = 32;

/** `--concurrency`: N episodes at once, or `auto[:MAX]` (as many as the endpoints keep up with, at most MAX). */
function parseConcurrency(value: string): number | { readonly auto: number } {
  const auto = /^auto(?::(\d+))?$/.exec(value);
  if (!auto) return positiveInteger("the concurrency", 1024)(value);
  const max = auto[1] === undefined ? DEFAULT_AUTO_CONCURRENCY : Number(auto[1]);
  if (max < 1 || max > 1024) throw new InvalidArgumentError(`auto:MAX takes a MAX from 1 to 1024, got "${value}"`);
  return { auto: max };
}

function parseShardOption(value: string): Shard {
  try {
    return parseShard(value);
  } catch (e) {
    if (e instanceof ShardSpecError) throw new InvalidArgumentError(e.message);
    throw e;
  }
}

function parseThreshold(value: string): number {
  const n = Number(value);
  if (value.trim() === "" || !Number.isFinite(n) || n < 0 || n > 1)
    throw new InvalidArgumentError(`the threshold must be a number from 0 to 1, got "${value}"`);
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
    .option("--strict", "report every warning as an error (a knowledge leak, say), so that it fails the run")
    .addHelpText(
      "after",
      "\nA file without errors has its reference solution played by the scripted roles and scored; a milestone\nit misses or a minefield it hits is an error on that node's line. Exits 1 when any file has an error;\nwarnings alone exit 0, unless --strict.",
    )
    .action(async (paths: string[], opts: { json?: boolean; strict?: boolean }) => setExit(await validateCommand(paths, opts, io)));

  const run = program
    .command("run")
    .description("play and score scenarios: one trajectory per scenario, summary.json, and a per-category table")
    .argument("<paths...>", "scenario files, or directories to search for *.scenario.yaml")
    .requiredOption("-o, --out <dir>", "directory for <name>.trajectory.jsonl and summary.json")
    .addOption(
      new Option("--agent <id>", `who plays the agent (supported: ${SUPPORTED_AGENTS.join(", ")})`)
        .default("scripted")
        .argParser(parseAgentId),
    )
    .addOption(
      new Option("--user <id>", `who plays the user (supported: ${SUPPORTED_USERS.join(", ")})`).default("scripted").argParser(parseUserId),
    )
    .addOption(
      new Option("--seed <n>", "seed for everything random in the episode (trial k uses seed + k - 1)").default(0).argParser(parseSeed),
    )
    .addOption(
      new Option(
        "--concurrency <n>",
        `episodes played at once, or auto[:MAX]: as many as the model endpoints keep up with (backing off on 429, 503 and time-outs), at most MAX (default ${DEFAULT_AUTO_CONCURRENCY})`,
      )
        .default(1)
        .argParser(parseConcurrency),
    )
    .option(
      "--cache <dir>",
      "keep model answers in <dir> and answer a request from there when the same job sent it before (trial and seed included)",
    )
    .addOption(
      new Option(
        "--shard <i/n>",
        "play only part i of n of the jobs (a stable split by job name); `report --merge` joins the parts",
      ).argParser(parseShardOption),
    )
    .addOption(
      new Option("--trials <k>", "play each scenario k times: <name>.trial-<i>.trajectory.jsonl, and pass^k in the summary")
        .default(1)
        .argParser(positiveInteger("the number of trials", 10000)),
    )
    .option("--resume", "keep the complete trajectories already in --out and play only the rest (unfinished ones start over)")
    .option("--progress", "show the progress bar on stderr even when it is not a terminal")
    .option(
      "--prompts <file>",
      "a prompt set (as `import toolsandbox` writes one) applied to every scenario instead of its own prompts: what the models are shown",
    )
    .addOption(
      new Option(
        "--feedback <style>",
        "how invalid calls are answered, overriding each scenario's options.feedback: engine errors or ToolScan's texts",
      ).choices(["engine", "toolscan"]),
    )
    .addOption(
      new Option(
        "--mode <mode>",
        "milestone: play episodes and score milestones; tooltalk: ToolTalk's per-turn, teacher-forced simulation and metrics (ToolTalk scenarios); dialogtool: DialogTool's tool awareness, selection, execution and response scores per agent turn, teacher-forced (any scenario with a reference)",
      )
        .choices(["milestone", "tooltalk", "dialogtool"])
        .default("milestone"),
    )
    .addOption(
      new Option(
        "--awareness <how>",
        "--mode dialogtool: binary (call tools or reply) or actions (the agent first chooses its action from DialogTool's list; scored with a confusion matrix)",
      ).choices(["binary", "actions"]),
    )
    .addOption(
      new Option(
        "--selection <how>",
        "--mode dialogtool: flat (all tools at once) or hierarchical (each turn also asked app first, then that app's tools; both settings reported)",
      ).choices(["flat", "hierarchical"]),
    )
    .addOption(
      new Option(
        "--max-calls-per-turn <n>",
        "--mode tooltalk: calls one assistant turn may make before it is cut off (default 20)",
      ).argParser(positiveInteger("the number of calls per turn", 1000)),
    )
    .addHelpText(
      "after",
      '\nNothing is kept when a scenario file has errors: the files are checked while the first episodes start,\nand a file with errors cancels them and removes what they wrote. Exits 1 when a scenario could not be\nplayed to its end (role error, reference out of step, engine error). The files are the same at any\n--concurrency. Ctrl-C cancels the running episodes (their trajectories end with "cancelled"), writes\nsummary.json and exits 130; --resume then plays what is left.',
    )
    .action(
      async (
        paths: string[],
        opts: {
          out: string;
          agent: string;
          user: string;
          seed: number;
          concurrency: number | { readonly auto: number };
          cache?: string;
          shard?: Shard;
          trials: number;
          resume?: boolean;
          progress?: boolean;
          feedback?: FeedbackStyle;
          augment?: boolean;
          errorsAsFailures?: boolean;
          mode: "milestone" | "tooltalk" | "dialogtool";
          maxCallsPerTurn?: number;
          awareness?: "binary" | "actions";
          selection?: "flat" | "hierarchical";
        } & ModelRoleFlags,
      ) =>
        setExit(
          await runCommand(
            paths,
            { ...withRoleSpecs(opts), judge: judgeSpec(opts, process.env), reviewer: reviewerSpec(opts, process.env) },
            io,
          ),
        ),
    );
  run
    .addOption(
      new Option(
        "--time-limit <seconds>",
        "--agent cmd: or a2a: the time an episode may take before it ends as timed_out, a command killed (default 600)",
      ).argParser(positiveSeconds),
    )
    .addOption(
      new Option(
        "--batch-window <ms>",
        "--agent cmd: or a2a: tool calls arriving within this long of each other form one parallel batch (default 10)",
      ).argParser(batchWindowMs),
    );
  addReviewOptions(addJudgeOptions(addModelRoleOptions(run)))
    .option(
      "--augment",
      "play each scenario as upstream's 8 tool-augmentation variants: 0, 3, 10 or all distraction tools, and scrambled tool names, descriptions, argument descriptions or argument types",
    )
    .option(
      "--errors-as-failures",
      "count errored scenarios (model, role or engine failures) as failures scoring 0 in the means and pass^k, instead of leaving them out",
    );

  program
    .command("eval")
    .description("re-score saved trajectories without running anything: where each milestone and minefield matched, and why")
    .argument("<trajectories...>", "*.trajectory.jsonl files, or directories to search for them")
    .option("--scenario <file>", "score against this scenario file instead of the scenario embedded in each trajectory")
    .option("--json", 'print one JSON object: { "trajectories": [one object per trajectory], "pass_hat_k": ... }')
    .addOption(
      new Option("--success-threshold <score>", "the score from which a trial counts as a success for pass^k (within 1e-6)")
        .default(1)
        .argParser(parseThreshold),
    )
    .addOption(
      new Option(
        "--mode <mode>",
        'milestone: the scenario\'s milestones and minefields; tooltalk: ToolTalk\'s metrics per conversation and aggregated (trajectories of ToolTalk scenarios and *.tooltalk.json files of `run --mode tooltalk`; --json prints { "conversations": [...], "aggregate": ... }); dialogtool: DialogTool\'s per-turn scores (trajectories, turn by turn within each dialogue turn, and *.dialogtool.json files of `run --mode dialogtool`)',
      )
        .choices(["milestone", "tooltalk", "dialogtool"])
        .default("milestone"),
    )
    .option(
      "--against-upstream <checkout>",
      "also score each trajectory with this ToolSandbox checkout's own evaluation and print both side by side (scenarios imported from it)",
    )
    .option("--python <exe>", "with --against-upstream: the Python that imports the checkout", "python3")
    .addHelpText(
      "after",
      "\nEach trajectory with a reference solution also gets ToolTalk's and ToolScan's metrics. With several\ntrajectories it prints the per-category table, and pass^k when some scenario has several (trials).\nExits 1 when the --scenario file has errors, or with --against-upstream when a score differs.",
    )
    .action(
      (
        paths: string[],
        opts: {
          scenario?: string;
          json?: boolean;
          successThreshold: number;
          mode: "milestone" | "tooltalk" | "dialogtool";
          againstUpstream?: string;
          python: string;
        },
      ) => {
        if (opts.againstUpstream === undefined) return setExit(evalCommand(paths, opts, io));
        if (opts.scenario !== undefined || opts.mode !== "milestone") {
          throw new ExitError(
            "--against-upstream scores each trajectory against its own upstream scenario: it cannot be combined with --scenario or another --mode",
            EXIT.usage,
          );
        }
        return setExit(evalAgainstUpstream(paths, { checkout: opts.againstUpstream, python: opts.python, json: opts.json }, io));
      },
    );

  program
    .command("replay")
    .description(
      "print a saved trajectory: every message, tool call and exception, the world diff after each step, and where each milestone and minefield matched",
    )
    .argument("<trajectory>", "a *.trajectory.jsonl file")
    .option("--html <file>", "write the replay panel as one self-contained HTML file instead of printing the transcript")
    .action((file: string, opts: { html?: string }) => setExit(replayCommand(file, io, opts)));

  program
    .command("tools")
    .description("list a world pack's tools")
    .addOption(new Option("--pack <id>", "the world pack").choices([...PACK_IDS]).default(DEFAULT_PACK_ID))
    .option("--json", "print every tool's catalog entry as JSON")
    .action((opts: { json?: boolean; pack: PackId }) => setExit(toolsCommand(opts, io)));

  program
    .command("world")
    .description("print a world pack's default world, with the ids a scenario refers to")
    .addOption(new Option("--pack <id>", "the world pack").choices([...PACK_IDS]).default(DEFAULT_PACK_ID))
    .option("--json", "print the tables as JSON (timestamps as POSIX seconds at the default clock)")
    .action((opts: { json?: boolean; pack: PackId }) => setExit(worldCommand(opts, io)));

  registerStats(program, io);
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

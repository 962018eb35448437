// `toolsandbox serve <scenario>`: one episode's world as an MCP server, for an agent that connects
// by itself (over stdio, or Streamable HTTP on 127.0.0.1). The episode is played, written and
// scored as `run` plays one (runner/play.ts); its trajectory is the next free
// <scenario>.run-<n>.trajectory.jsonl in --out. With --stdio, stdout is the protocol: every line of
// ours goes to stderr. The contract is docs/agents.md.
import { createServer } from "node:net";
import { basename } from "node:path";
import { type Command, Option } from "commander";
import { formatDiagnostic } from "../engine/base/diagnostics.js";
import { plural } from "../engine/base/text.js";
import { ExitError, EXIT, fsError, type ExitCode } from "../engine/runner/errors.js";
import { planJobs } from "../engine/runner/jobs.js";
import { playJob } from "../engine/runner/play.js";
import { hasErrors, loadScenario } from "../engine/runner/scenario-files.js";
import { serveHost } from "../engine/runner/serve-host.js";
import { resultStatus } from "../engine/runner/summary.js";
import { claimRunFile } from "../engine/trajectory/run-files.js";
import { DEFAULT_BATCH_WINDOW_MS } from "../engine/roles/mcp/agent.js";
import { expandAugmentations } from "../engine/scenario/augmentations/augmentations.js";
import { problemLine, type CliIO } from "./io.js";
import { listenReason, systemErrorCode } from "./mock-llm.js";
import { untilStopSignal } from "./stop-signals.js";
import { numberIn } from "./number-options.js";
import { addModelRoleOptions, parseUserId } from "./role-options.js";
import { roleSpec, SUPPORTED_USERS, type ModelRoleFlags } from "../engine/runner/role-specs.js";

interface ServeOptions extends ModelRoleFlags {
  readonly out: string;
  readonly stdio?: boolean;
  readonly port?: number;
  readonly user: string;
  readonly seed: number;
  readonly prompts?: string;
  readonly timeLimit?: number;
  readonly batchWindow?: number;
  /** One of upstream's tool-augmentation variants, by the suffix `run --augment` gives its name ("all_tools", ...). */
  readonly augment?: string;
}

/** The suffixes of upstream's eight variants, "" being the scenario itself. */
const VARIANTS = [
  "3_distraction_tools",
  "10_distraction_tools",
  "all_tools",
  "3_distraction_tools_tool_description_scrambled",
  "3_distraction_tools_arg_type_scrambled",
  "3_distraction_tools_arg_description_scrambled",
  "3_distraction_tools_tool_name_scrambled",
] as const;

async function serveCommand(file: string, options: ServeOptions, io: CliIO): Promise<ExitCode> {
  if (options.stdio === true && options.port !== undefined) throw new ExitError("--stdio and --port exclude each other", EXIT.usage);
  if (options.stdio !== true && options.port === undefined) throw new ExitError("say how to serve: --stdio, or --port <n>", EXIT.usage);
  const loaded = loadScenario(file, options.prompts === undefined ? {} : { prompts: options.prompts });
  for (const d of loaded.diagnostics) io.err(formatDiagnostic(d));
  if (hasErrors(loaded.diagnostics) || !loaded.scenario) return EXIT.failed;
  let scenario = loaded.scenario;
  if (options.augment !== undefined) {
    const wanted = `${scenario.name}_${options.augment}`;
    const variant = expandAugmentations(scenario).find((v) => v.name === wanted);
    if (!variant)
      throw new ExitError(`${file}: has no variant ${options.augment} (it is a variant itself, or allows every tool)`, EXIT.usage);
    scenario = variant;
  }
  const user = roleSpec("user", options.user, options, process.env);
  // Before the trajectory is claimed: a port in use leaves no header-only run behind.
  if (options.port !== undefined && options.port !== 0) await checkPortFree(options.port);

  let trajectoryPath: string;
  try {
    trajectoryPath = claimRunFile(options.out, scenario.name);
  } catch (e) {
    throw fsError(e, options.out);
  }
  const [planned] = planJobs([{ file, scenario }], 1, options.seed);
  if (!planned) throw new Error("a scenario planned no job");
  const job = { ...planned, trajectory: basename(trajectoryPath) };
  const host = serveHost({
    transport: options.stdio === true ? "stdio" : { port: options.port ?? 0 },
    timeLimitSeconds: options.timeLimit ?? null,
    onListening: (url) => io.err(problemLine(`serving ${scenario.name} over MCP at ${url}`)),
  });
  if (options.stdio === true) io.err(problemLine(`serving ${scenario.name} over MCP on stdin/stdout`));

  return untilStopSignal(async (stop) => {
    const { result, engineError } = await playJob(job, {
      agent: { kind: "mcp", id: "mcp", host, batchWindowMs: options.batchWindow ?? DEFAULT_BATCH_WINDOW_MS },
      user,
      outDir: options.out,
      signal: stop,
    });
    if (engineError !== null && io.debug) io.err(String(engineError instanceof Error ? engineError.stack : engineError));
    const score =
      resultStatus(result) === "errored" ? "errored" : result.score === null ? "not scored" : `score ${result.score.toFixed(2)}`;
    const detail = result.detail === null ? "" : ` (${result.detail})`;
    io.err(
      problemLine(
        `${scenario.name}: ${score}, ended by ${result.end_reason ?? "an engine error"}${detail}, ${plural(result.message_count, "message")}; trajectory in ${trajectoryPath}`,
      ),
    );
    return result.failed ? EXIT.failed : EXIT.ok;
  });
}

/** Fails with one line (exit 3, as `mock-llm` does) when 127.0.0.1:<port> cannot be listened on. */
async function checkPortFree(port: number): Promise<void> {
  const probe = createServer();
  try {
    await new Promise<void>((resolve, reject) => {
      probe.once("error", reject);
      probe.listen(port, "127.0.0.1", () => resolve());
    });
  } catch (e) {
    if (systemErrorCode(e) === undefined) throw e;
    throw new ExitError(`cannot listen on 127.0.0.1:${port}: ${listenReason(e)}`, EXIT.io);
  }
  await new Promise<void>((resolve) => probe.close(() => resolve()));
}

const parsePort = numberIn("the port", 0, 65535, { integer: true });

export const positiveSeconds = numberIn("the time limit", 0, 86_400 * 7, { unit: "seconds", aboveMin: true });
export const batchWindowMs = numberIn("the batch window", 0, 60_000, { integer: true, unit: "milliseconds" });

export function registerServe(program: Command, io: CliIO, setExit: (code: ExitCode) => void): void {
  const serve = program
    .command("serve")
    .description("serve one episode of a scenario as an MCP server for an outside agent, then write and score its trajectory")
    .argument("<scenario>", "the scenario file")
    .requiredOption("-o, --out <dir>", "directory for <name>.run-<n>.trajectory.jsonl")
    .option("--stdio", "speak MCP on stdin/stdout (an editor or a client starts this command)")
    .addOption(new Option("--port <n>", "speak MCP over Streamable HTTP at http://127.0.0.1:<n>/mcp (0: a free port)").argParser(parsePort))
    .addOption(
      new Option("--user <id>", `who plays the user (supported: ${SUPPORTED_USERS.join(", ")})`).default("scripted").argParser(parseUserId),
    )
    .addOption(new Option("--seed <n>", "seed for everything random in the episode").default(0).argParser((v) => Number(v)))
    .option("--prompts <file>", "a prompt set applied to the scenario instead of its own prompts: what the agent is shown")
    .addOption(
      new Option("--augment <variant>", "serve one of upstream's tool-augmentation variants (as run --augment names them)").choices([
        ...VARIANTS,
      ]),
    )
    .addOption(new Option("--time-limit <seconds>", "end the episode as timed_out after this long").argParser(positiveSeconds))
    .addOption(
      new Option("--batch-window <ms>", "tool calls arriving within this long of each other form one parallel batch")
        .default(DEFAULT_BATCH_WINDOW_MS)
        .argParser(batchWindowMs),
    )
    .addHelpText(
      "after",
      "\nTools: the scenario's agent tools as a model agent is shown them, plus send_message_to_user (returns the\nuser's reply) and get_user_message; the prompt start_conversation is the user's first message. The episode\nends when the user ends the conversation, the message budget or --time-limit runs out, or the client goes\naway (agent_disconnected). See docs/agents.md.",
    )
    .action(async (file: string, opts: ServeOptions) => setExit(await serveCommand(file, opts, io)));
  addModelRoleOptions(serve);
}

// `toolsandbox mock-llm`: serves an OpenAI-compatible model API (chat completions and Responses)
// on 127.0.0.1 that plays the given scenarios' reference solutions (agent side, user side, or
// both), optionally with faults, until Ctrl-C or SIGTERM. The server itself is engine/mock-llm/server.ts.
import { type Command, InvalidArgumentError, Option } from "commander";
import { formatDiagnostic } from "../engine/base/diagnostics.js";
import { describeFault, FaultSpecError, parseFault, type Fault } from "../engine/mock-llm/faults.js";
import { SCENARIO_MODEL_PREFIX } from "../engine/mock-llm/identify.js";
import { parseRateLimit, RateLimitSpecError, type RateLimit } from "../engine/mock-llm/rate-limit.js";
import { startMockLlm, type MockLlm, type RecordedRequest } from "../engine/mock-llm/server.js";
import { readCodeAnswers } from "../engine/mock-llm/tool-creation.js";
import type { Scenario } from "../engine/scenario/model.js";
import { ExitError, EXIT } from "../engine/runner/errors.js";
import { errorMessage, plural } from "../engine/base/text.js";
import type { CliIO } from "./io.js";
import { untilStopSignal } from "./stop-signals.js";
import { numberIn } from "./number-options.js";
import { collectScenarioFiles, hasErrors, loadScenario } from "../engine/runner/scenario-files.js";

const DEFAULT_MOCK_PORT = 8765;

interface MockLlmCommandOptions {
  readonly scenarios?: readonly string[];
  /** A folder of <tool>.py files: the code each tool-creation request is answered with. */
  readonly codeAnswers?: string;
  readonly port: number;
  readonly fault: readonly Fault[];
  readonly rateLimit?: RateLimit;
  readonly quiet?: boolean;
}

const MOCK_LLM_HELP = `
Models: "${SCENARIO_MODEL_PREFIX.slice(0, -1)}" (the scenario is recognised from the messages: the agent's opening user
message, the simulated user's goal) or "${SCENARIO_MODEL_PREFIX}<scenario name>" to name it.

Faults (--fault KIND[:key=value,...], repeatable, considered in the order given; a request
answered by one fault is not seen by the faults after it):
  latency:ms=N                wait N milliseconds before answering
  rate-limit[:retry_after=S]  answer 429 with the header Retry-After: S (default 1)
  server-error[:status=C]     answer 500 (or C, from 500 to 599)
  drop                        close the connection without answering
  malformed-arguments         cut the first tool call's JSON arguments short (answers with calls only)
  unknown-tool[:name=X]       answer with a call to X, a tool not on offer (default unknown_tool)
  extra-call:tool=X           answer with a call to X (on offer) before the step due (a detour)

Which requests a fault hits (all the keys given must hold; none given: every request):
  every=N   every N-th        first=N   the first N       times=N   at most N in all
  rate=P    each with probability P, drawn from seed=S (default 0, reproducible)
  role=agent|user|judge       only requests for that side of the conversation, or the judge's

Tool creation (create-tools): with --code-answers DIR, a request to write the tool X is answered
with DIR/X.py in a python block; a tool without a file is a 404.

Examples:
  toolsandbox mock-llm --scenarios sample-scenarios
  toolsandbox mock-llm --code-answers my-tools/   (then: toolsandbox create-tools --base-url ...)
  toolsandbox mock-llm --port 9000 --scenarios a.scenario.yaml --fault latency:ms=200 \\
      --fault rate-limit:every=5,retry_after=1 --fault drop:first=1,role=user

Stops on Ctrl-C or SIGTERM. See docs/mock-llm.md.`;

const parsePort = numberIn("the port", 0, 65535, { integer: true });

function rateLimitOption(value: string): RateLimit {
  try {
    return parseRateLimit(value);
  } catch (e) {
    if (e instanceof RateLimitSpecError) throw new InvalidArgumentError(e.message);
    throw e;
  }
}

function collectFault(value: string, previous: readonly Fault[]): Fault[] {
  try {
    return [...previous, parseFault(value)];
  } catch (e) {
    if (e instanceof FaultSpecError) throw new InvalidArgumentError(e.message);
    throw e;
  }
}

export function registerMockLlm(program: Command, io: CliIO): void {
  program
    .command("mock-llm")
    .description(
      "serve an OpenAI-compatible model API (chat completions, Responses) on 127.0.0.1 that plays the scenarios' reference solutions, with optional faults",
    )
    .option("--scenarios <paths...>", "scenario files, or directories to search for *.scenario.yaml")
    .option("--code-answers <dir>", "answer tool-creation requests for the tool X with <dir>/X.py")
    .addOption(new Option("--port <n>", "port to listen on (0 picks a free one)").default(DEFAULT_MOCK_PORT).argParser(parsePort))
    .addOption(new Option("--fault <spec>", "inject a fault (repeatable; see below)").default([], "none").argParser(collectFault))
    .addOption(
      new Option("--rate-limit <n/s>", "refuse chat requests beyond N per second with 429 and Retry-After").argParser(rateLimitOption),
    )
    .option("--quiet", "print no line per request")
    .addHelpText("after", MOCK_LLM_HELP)
    .action((opts: MockLlmCommandOptions) => untilStopSignal((stop) => serveMockLlm(opts, io, stop)));
}

/** Loads the scenarios, serves until `stop` aborts, then closes. Failures are thrown as ExitError. */
export async function serveMockLlm(options: MockLlmCommandOptions, io: CliIO, stop: AbortSignal): Promise<void> {
  if (options.scenarios === undefined && options.codeAnswers === undefined)
    throw new ExitError("give --scenarios, --code-answers or both: there is nothing to answer with", EXIT.usage);
  const scenarios = options.scenarios === undefined ? [] : loadScenarios(options.scenarios, io);
  let codeAnswers: Map<string, string> | undefined;
  if (options.codeAnswers !== undefined) {
    try {
      codeAnswers = readCodeAnswers(options.codeAnswers);
    } catch (e) {
      throw new ExitError(`--code-answers: ${errorMessage(e)}`, EXIT.io);
    }
  }
  let server: MockLlm;
  try {
    server = await startMockLlm({
      scenarios,
      codeAnswers,
      faults: options.fault,
      ...(options.rateLimit ? { rateLimit: options.rateLimit } : {}),
      port: options.port,
      onRequest: options.quiet ? undefined : (r) => io.out(requestLine(r)),
    });
  } catch (e) {
    if (systemErrorCode(e) === undefined) throw e;
    throw new ExitError(`cannot listen on 127.0.0.1:${options.port}: ${listenReason(e)}`, EXIT.io);
  }
  io.out(`mock-llm: OpenAI base URL ${server.url}/v1`);
  const tools = codeAnswers === undefined ? "" : `; code for ${plural(codeAnswers.size, "tool")}`;
  io.out(
    `mock-llm: ${plural(scenarios.length, "scenario")}${tools}; faults: ${options.fault.length > 0 ? options.fault.map(describeFault).join(" ") : "none"}${options.rateLimit ? `; rate limit ${options.rateLimit.perSecond}/s` : ""}; Ctrl-C stops`,
  );
  if (!stop.aborted) await new Promise<void>((resolve) => stop.addEventListener("abort", () => resolve(), { once: true }));
  await server.close();
  io.out(`mock-llm: stopped after ${plural(server.requests.length, "request")}`);
}

function loadScenarios(paths: readonly string[], io: CliIO): Scenario[] {
  const loaded = collectScenarioFiles(paths).map((file) => loadScenario(file));
  for (const l of loaded) for (const d of l.diagnostics) io.err(formatDiagnostic(d));
  const broken = loaded.filter((l) => hasErrors(l.diagnostics) || !l.scenario);
  if (broken.length > 0) {
    const verb = broken.length === 1 ? "has" : "have";
    throw new ExitError(
      `${broken.length} of ${plural(loaded.length, "scenario file")} ${verb} errors; the server was not started`,
      EXIT.failed,
    );
  }
  const byName = new Map<string, string>();
  const scenarios: Scenario[] = [];
  for (const l of loaded) {
    if (!l.scenario) continue;
    const other = byName.get(l.scenario.name);
    // The model name mock/<name> must name one scenario.
    if (other !== undefined) throw new ExitError(`${l.file}: scenario name "${l.scenario.name}" is already used by ${other}`, EXIT.failed);
    byName.set(l.scenario.name, l.file);
    scenarios.push(l.scenario);
  }
  return scenarios;
}

/** One log line per request: "#3 agent find_temperature step 4 -> 200 [latency:ms=200]". */
export function requestLine(r: RecordedRequest): string {
  const outcome = r.status === null ? "dropped" : String(r.status);
  const faults = r.faults.length > 0 ? ` [${r.faults.join(" ")}]` : "";
  // Injected 429s and 5xx say nothing new; the message of a refused request is the point.
  const error = r.error !== null && r.faults.length === 0 ? `: ${r.error}` : "";
  return `#${r.number} ${requestSubject(r)} -> ${outcome}${faults}${error}`;
}

function requestSubject(r: RecordedRequest): string {
  if (r.side === null) return `${r.method} ${r.path}`;
  if (r.scenario === null) return r.side;
  // A reply was worked out unless the request was refused (an error with no fault behind it).
  const replied = r.error === null || r.faults.length > 0;
  if (!replied) return `${r.side} ${r.scenario}`;
  return `${r.side} ${r.scenario} ${r.step !== null ? `step ${r.step}` : "past the reference"}`;
}

export function systemErrorCode(e: unknown): string | undefined {
  const code = typeof e === "object" && e !== null && "code" in e ? (e as { code: unknown }).code : undefined;
  return typeof code === "string" ? code : undefined;
}

/** Why a port could not be listened on, in words (also `serve --port`'s). */
export function listenReason(e: unknown): string {
  const code = systemErrorCode(e);
  if (code === "EADDRINUSE") return "the port is in use (try another --port, or 0 for any free one)";
  if (code === "EACCES") return "permission denied (ports below 1024 need privileges)";
  return errorMessage(e);
}

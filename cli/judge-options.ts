// `run --judge openai:<model>`: the role-play judge and its options, built like the agent's and the
// user's (roles.ts): its own endpoint, sampling settings and key variable, and the shared
// --base-url, --timeout, --max-retries, --api-key-env and --no-record-io. The judge rates the
// agent's replies of every scenario that gives the agent a persona; other scenarios are not judged.
import { InvalidArgumentError, Option, type Command } from "commander";
import { RolePlayJudge } from "../engine/benchmarks/dialogtool/role-play/role-play-judge.js";
import { ExitError, EXIT } from "../engine/runner/errors.js";
import { baseUrl, envName, maxTokens, seed, temperature } from "./role-options.js";
import { roleSpec, sharedModel, type ModelRoleFlags, type RoleSpec } from "../engine/runner/role-specs.js";

type Env = Readonly<Record<string, string | undefined>>;

const OPENAI_PREFIX = "openai:";

/** The judge's own flags besides --judge; given without --judge they are a usage error. */
const JUDGE_FLAGS = ["judgeBaseUrl", "judgeTemperature", "judgeSeed", "judgeMaxTokens", "judgeApiKeyEnv"] as const;

function parseJudgeId(value: string): string {
  if (value.startsWith(OPENAI_PREFIX) && value.length > OPENAI_PREFIX.length) return value;
  throw new InvalidArgumentError(`unsupported judge "${value}" (supported: ${OPENAI_PREFIX}<model>)`);
}

/** Adds --judge and its options to `run` (after the model options). */
export function addJudgeOptions(command: Command): Command {
  const option = (flags: string, description: string, parse: (value: string) => string | number): Option =>
    new Option(flags, description).argParser(parse);
  return command
    .addOption(
      option(
        "--judge <role>",
        "rate the agent's role play in every scenario with an agent.persona: openai:<model>, a model behind an OpenAI-compatible endpoint (--mode milestone only)",
        parseJudgeId,
      ),
    )
    .addOption(option("--judge-base-url <url>", "endpoint for the judge's model (overrides --base-url)", baseUrl))
    .addOption(option("--judge-temperature <t>", "the judge's sampling temperature (default: the server's)", temperature))
    .addOption(option("--judge-seed <n>", "sampling seed sent with the judge's requests", seed))
    .addOption(option("--judge-max-tokens <n>", "token limit of each judge answer", maxTokens))
    .addOption(option("--judge-api-key-env <name>", "environment variable holding the judge's API key", envName));
}

/** The judge `run` was asked for (null: none); its options without --judge, or a missing key, are usage errors. */
export function judgeSpec(flags: ModelRoleFlags, env: Env): Extract<RoleSpec, { kind: "openai" }> | null {
  if (flags.judge === undefined) {
    const stray = JUDGE_FLAGS.find((k) => flags[k] !== undefined);
    if (stray)
      throw new ExitError(
        `--${stray.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)} applies with --judge openai:<model> only`,
        EXIT.usage,
      );
    return null;
  }
  const spec = roleSpec("judge", flags.judge, flags, env);
  if (spec.kind !== "openai") throw new ExitError(`unsupported judge "${flags.judge}"`, EXIT.usage);
  return spec;
}

/** The judge of a run: one per spec, so every episode's judging shares one client. */
export function createJudge(spec: Extract<RoleSpec, { kind: "openai" }>, env: Env = process.env): RolePlayJudge {
  return new RolePlayJudge(sharedModel(spec, "judge", env));
}

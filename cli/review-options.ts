// `run --review openai:<model>`: the failure reviewer and its options, built like the judge's
// (judge-options.ts): its own endpoint and key variable, and the shared --base-url, --timeout,
// --max-retries, --api-key-env and --no-record-io. The reviewer reads every run that failed or
// errored and writes its verdict beside the rules' cause (engine/runner/failure-review.ts).
import { InvalidArgumentError, Option, type Command } from "commander";
import { FailureReviewer } from "../engine/runner/failure-review.js";
import { ExitError, EXIT } from "../engine/runner/errors.js";
import { baseUrl, envName } from "./role-options.js";
import { roleSpec, sharedModel, type ModelRoleFlags, type RoleSpec } from "../engine/runner/role-specs.js";

type Env = Readonly<Record<string, string | undefined>>;

const OPENAI_PREFIX = "openai:";

/** The reviewer's own flags besides --review; given without --review they are a usage error. */
const REVIEW_FLAGS = ["reviewBaseUrl", "reviewApiKeyEnv"] as const;

function parseReviewerId(value: string): string {
  if (value.startsWith(OPENAI_PREFIX) && value.length > OPENAI_PREFIX.length) return value;
  throw new InvalidArgumentError(`unsupported reviewer "${value}" (supported: ${OPENAI_PREFIX}<model>)`);
}

/** Adds --review and its options to `run` (after the model options). */
export function addReviewOptions(command: Command): Command {
  const option = (flags: string, description: string, parse: (value: string) => string): Option =>
    new Option(flags, description).argParser(parse);
  return command
    .addOption(
      option(
        "--review <role>",
        "after each run that failed or errored, a model says which party it blames (agent, user, scenario, infrastructure), beside the rules' cause: openai:<model> (--mode milestone only)",
        parseReviewerId,
      ),
    )
    .addOption(option("--review-base-url <url>", "endpoint for the reviewer's model (overrides --base-url)", baseUrl))
    .addOption(option("--review-api-key-env <name>", "environment variable holding the reviewer's API key", envName));
}

/** The reviewer `run` was asked for (null: none); its options without --review, or a missing key, are usage errors. */
export function reviewerSpec(flags: ModelRoleFlags, env: Env): Extract<RoleSpec, { kind: "openai" }> | null {
  if (flags.review === undefined) {
    const stray = REVIEW_FLAGS.find((k) => flags[k] !== undefined);
    if (stray)
      throw new ExitError(
        `--${stray.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)} applies with --review openai:<model> only`,
        EXIT.usage,
      );
    return null;
  }
  const spec = roleSpec("reviewer", flags.review, flags, env);
  if (spec.kind !== "openai") throw new ExitError(`unsupported reviewer "${flags.review}"`, EXIT.usage);
  return spec;
}

/** The reviewer of a run: one per spec, so every episode's review shares one client. */
export function createReviewer(spec: Extract<RoleSpec, { kind: "openai" }>, env: Env = process.env): FailureReviewer {
  return new FailureReviewer(sharedModel(spec, "reviewer", env));
}

// The model services of `run`: a model that gives a verdict on a finished episode, next to the
// agent and the user: `--judge openai:<model>` (the role-play judge) and `--review openai:<model>`
// (the failure reviewer). Each has its own endpoint and key variable (and the judge its sampling
// settings), and shares --base-url, --timeout, --max-retries, --api-key-env and --no-record-io
// with the model roles (role-options.ts). Its own options without it are a usage error.
import { InvalidArgumentError } from "commander";
import { RolePlayJudge } from "../engine/benchmarks/dialogtool/role-play/role-play-judge.js";
import type { ChatModel } from "../engine/roles/openai/chat-model.js";
import { FailureReviewer } from "../engine/runner/failure-review.js";
import { ExitError, EXIT } from "../engine/runner/errors.js";
import { roleSpec, sharedModel, type ModelRole, type ModelRoleFlags, type RoleSpec } from "../engine/runner/role-specs.js";
import type { OptionTable } from "./option-table.js";
import { baseUrl, envName, maxTokens, seed, temperature } from "./role-options.js";

type Env = Readonly<Record<string, string | undefined>>;
type ModelSpec = Extract<RoleSpec, { kind: "openai" }>;

interface ModelService<S> {
  /** The flag: `--judge`, `--review`; also the prefix of its own flags. */
  readonly flag: "judge" | "review";
  /** The role its model plays (role-specs.ts), as messages and the trajectory name it. */
  readonly role: ModelRole;
  readonly description: string;
  /** Why it applies to `--mode milestone` only. */
  readonly whyMilestone: string;
  /** Whether it takes sampling settings (temperature, seed, token limit) of its own. */
  readonly sampling: boolean;
  readonly create: (model: ChatModel) => S;
}

export const JUDGE: ModelService<RolePlayJudge> = {
  flag: "judge",
  role: "judge",
  description:
    "rate the agent's role play in every scenario with an agent.persona: openai:<model>, a model behind an OpenAI-compatible endpoint (--mode milestone only)",
  whyMilestone: "the role play is judged on whole episodes",
  sampling: true,
  create: (model) => new RolePlayJudge(model),
};

export const REVIEWER: ModelService<FailureReviewer> = {
  flag: "review",
  role: "reviewer",
  description:
    "after each run that failed or errored, a model says which party it blames (agent, user, scenario, infrastructure), beside the rules' cause: openai:<model> (--mode milestone only)",
  whyMilestone: "a whole episode's failure is reviewed",
  sampling: false,
  create: (model) => new FailureReviewer(model),
};

const OPENAI_PREFIX = "openai:";
const kebab = (key: string): string => key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);

/** The service's own flags besides the service itself, as ModelRoleFlags names them. */
function ownFlags(service: ModelService<unknown>): (keyof ModelRoleFlags)[] {
  const keys = service.sampling ? ["BaseUrl", "Temperature", "Seed", "MaxTokens", "ApiKeyEnv"] : ["BaseUrl", "ApiKeyEnv"];
  return keys.map((k) => `${service.flag}${k}` as keyof ModelRoleFlags);
}

/** The service's flag and its own options, as a table (option-table.ts): the service applies to `--mode milestone` only. */
function modelServiceOptions(service: ModelService<unknown>): OptionTable {
  const { flag, role } = service;
  const parseId = (value: string): string => {
    if (value.startsWith(OPENAI_PREFIX) && value.length > OPENAI_PREFIX.length) return value;
    throw new InvalidArgumentError(`unsupported ${role} "${value}" (supported: ${OPENAI_PREFIX}<model>)`);
  };
  const own = (suffix: string, placeholder: string, description: string, parse: (value: string) => string | number) => [
    `${flag}${suffix}`,
    { flags: `--${flag}${kebab(suffix)} <${placeholder}>`, description, parse },
  ];
  return Object.fromEntries([
    [
      flag,
      { flags: `--${flag} <role>`, description: service.description, parse: parseId, modes: ["milestone"], why: service.whyMilestone },
    ],
    own("BaseUrl", "url", `endpoint for the ${role}'s model (overrides --base-url)`, baseUrl),
    ...(service.sampling
      ? [
          own("Temperature", "t", `the ${role}'s sampling temperature (default: the server's)`, temperature),
          own("Seed", "n", `sampling seed sent with the ${role}'s requests`, seed),
          own("MaxTokens", "n", `token limit of each ${role} answer`, maxTokens),
        ]
      : []),
    own("ApiKeyEnv", "name", `environment variable holding the ${role}'s API key`, envName),
  ]) as OptionTable;
}

/** `run`'s model services: the judge's options, then the reviewer's. */
export const MODEL_SERVICE_OPTIONS: OptionTable = { ...modelServiceOptions(JUDGE), ...modelServiceOptions(REVIEWER) };

/** The service's model `run` was asked for (null: none); its options without it, or a missing key, are usage errors. */
export function modelServiceSpec(service: ModelService<unknown>, flags: ModelRoleFlags, env: Env): ModelSpec | null {
  const id = flags[service.flag];
  if (id === undefined) {
    const stray = ownFlags(service).find((k) => flags[k] !== undefined);
    if (stray) throw new ExitError(`--${kebab(stray)} applies with --${service.flag} openai:<model> only`, EXIT.usage);
    return null;
  }
  const spec = roleSpec(service.role, id, flags, env);
  if (spec.kind !== "openai") throw new ExitError(`unsupported ${service.role} "${id}"`, EXIT.usage);
  return spec;
}

/** The service of a run: one per spec, so every episode's verdict shares one client. */
export function createModelService<S>(service: ModelService<S>, spec: ModelSpec, env: Env = process.env): S {
  return service.create(sharedModel(spec, service.role, env));
}

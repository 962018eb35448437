// `run`'s options, declared once (option-table.ts): the flags, their parsers, and the modes each
// applies to, with why not the others. The model options (role-options.ts) and the model services
// (model-service-options.ts) are added after them.
import { InvalidArgumentError } from "commander";
import type { FeedbackStyle } from "../engine/episode/call-feedback.js";
import {
  A2A_PREFIX,
  COMMAND_PREFIX,
  SUPPORTED_AGENTS,
  SUPPORTED_USERS,
  type RoleSpec,
  type RoleSpecs,
} from "../engine/runner/role-specs.js";
import { parseShard, ShardSpecError, type Shard } from "../engine/runner/shards.js";
import { MODES, type Mode, type OptionTable, type OptionValues } from "./option-table.js";
import { numberIn } from "./number-options.js";
import { parseAgentId, parseUserId } from "./role-options.js";
import { batchWindowMs, positiveSeconds } from "./serve.js";

/** Default most episodes (and requests per endpoint) of `--concurrency auto`. */
const DEFAULT_AUTO_CONCURRENCY = 32;

type Concurrency = number | { readonly auto: number };

/** `--concurrency`: N episodes at once, or `auto[:MAX]` (as many as the endpoints keep up with, at most MAX). */
function parseConcurrency(value: string): Concurrency {
  const auto = /^auto(?::(\d+))?$/.exec(value);
  if (!auto) return numberIn("the concurrency", 1, 1024, { integer: true })(value);
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

const isOutsideAgent = (id: string): boolean => id.startsWith(COMMAND_PREFIX) || id.startsWith(A2A_PREFIX);

const MILESTONE: readonly Mode[] = ["milestone"];

export const RUN_OPTIONS = {
  out: { flags: "-o, --out <dir>", description: "directory for <name>.trajectory.jsonl and summary.json", parse: String, required: true },
  agent: {
    flags: "--agent <id>",
    description: `who plays the agent (supported: ${SUPPORTED_AGENTS.join(", ")})`,
    parse: parseAgentId,
    default: "scripted",
    modes: MILESTONE,
    label: "--agent cmd: or a2a:",
    refused: isOutsideAgent,
    why: {
      tooltalk: "the mode plays teacher-forced turns, which an outside agent cannot",
      dialogtool: "the mode plays teacher-forced turns, which an outside agent cannot",
    },
  },
  user: {
    flags: "--user <id>",
    description: `who plays the user (supported: ${SUPPORTED_USERS.join(", ")})`,
    parse: parseUserId,
    default: "scripted",
    modes: MILESTONE,
    why: {
      tooltalk: "ToolTalk replays the user's turns and never simulates the user",
      dialogtool: "the conversation follows the reference; the user's lines are the reference's",
    },
  },
  seed: {
    flags: "--seed <n>",
    description: "seed for everything random in the episode (trial k uses seed + k - 1)",
    parse: numberIn("the seed", 0, Number.MAX_SAFE_INTEGER, { integer: true }),
    default: 0,
  },
  concurrency: {
    flags: "--concurrency <n>",
    description: `episodes played at once, or auto[:MAX]: as many as the model endpoints keep up with (backing off on 429, 503 and time-outs), at most MAX (default ${DEFAULT_AUTO_CONCURRENCY})`,
    parse: parseConcurrency,
    default: 1,
    modes: MILESTONE,
    label: "--concurrency auto",
    refused: (value: Concurrency) => typeof value === "object",
  },
  cache: {
    flags: "--cache <dir>",
    description: "keep model answers in <dir> and answer a request from there when the same job sent it before (trial and seed included)",
    parse: String,
    modes: MILESTONE,
  },
  shard: {
    flags: "--shard <i/n>",
    description: "play only part i of n of the jobs (a stable split by job name); `report --merge` joins the parts",
    parse: parseShardOption,
    modes: MILESTONE,
  },
  trials: {
    flags: "--trials <k>",
    description: "play each scenario k times: <name>.trial-<i>.trajectory.jsonl, and pass^k in the summary",
    parse: numberIn("the number of trials", 1, 10000, { integer: true }),
    default: 1,
    modes: MILESTONE,
    why: { tooltalk: "each conversation is simulated once", dialogtool: "each scenario is asked once per agent turn" },
  },
  resume: {
    flags: "--resume",
    description: "keep the complete trajectories already in --out and play only the rest (unfinished ones start over)",
    modes: MILESTONE,
    why: { tooltalk: "conversations are short; run them again", dialogtool: "run the scenarios again" },
  },
  progress: { flags: "--progress", description: "show the progress bar on stderr even when it is not a terminal" },
  prompts: {
    flags: "--prompts <file>",
    description:
      "a prompt set (as `import toolsandbox` writes one) applied to every scenario instead of its own prompts: what the models are shown",
    parse: String,
  },
  feedback: {
    flags: "--feedback <style>",
    description: "how invalid calls are answered, overriding each scenario's options.feedback: engine errors or ToolScan's texts",
    choices: ["engine", "toolscan"] as readonly FeedbackStyle[],
    modes: MILESTONE,
    why: {
      tooltalk: "ToolTalk's executor answers with its own texts",
      dialogtool: "the agent's calls are never run, so no call is answered",
    },
  },
  mode: {
    flags: "--mode <mode>",
    description:
      "milestone: play episodes and score milestones; tooltalk: ToolTalk's per-turn, teacher-forced simulation and metrics (ToolTalk scenarios); dialogtool: DialogTool's tool awareness, selection, execution and response scores per agent turn, teacher-forced (any scenario with a reference)",
    choices: MODES,
    default: "milestone",
  },
  awareness: {
    flags: "--awareness <how>",
    description:
      "--mode dialogtool: binary (call tools or reply) or actions (the agent first chooses its action from DialogTool's list; scored with a confusion matrix)",
    choices: ["binary", "actions"] as const,
    modes: ["dialogtool"],
  },
  selection: {
    flags: "--selection <how>",
    description:
      "--mode dialogtool: flat (all tools at once) or hierarchical (each turn also asked app first, then that app's tools; both settings reported)",
    choices: ["flat", "hierarchical"] as const,
    modes: ["dialogtool"],
  },
  maxCallsPerTurn: {
    flags: "--max-calls-per-turn <n>",
    description: "--mode tooltalk: calls one assistant turn may make before it is cut off (default 20)",
    parse: numberIn("the number of calls per turn", 1, 1000, { integer: true }),
    modes: ["tooltalk"],
  },
  timeLimit: {
    flags: "--time-limit <seconds>",
    description: "--agent cmd: or a2a: the time an episode may take before it ends as timed_out, a command killed (default 600)",
    parse: positiveSeconds,
  },
  batchWindow: {
    flags: "--batch-window <ms>",
    description: "--agent cmd: or a2a: tool calls arriving within this long of each other form one parallel batch (default 10)",
    parse: batchWindowMs,
  },
} as const satisfies OptionTable;

/** Added after the model options and the model services, so `--help` lists them last. */
export const RUN_OUTCOME_OPTIONS = {
  augment: {
    flags: "--augment",
    description:
      "play each scenario as upstream's 8 tool-augmentation variants: 0, 3, 10 or all distraction tools, and scrambled tool names, descriptions, argument descriptions or argument types",
    modes: MILESTONE,
    why: { tooltalk: "the tool augmentations are ToolSandbox's", dialogtool: "run the augmented variants in milestone mode" },
  },
  errorsAsFailures: {
    flags: "--errors-as-failures",
    description:
      "count errored scenarios (model, role or engine failures) as failures scoring 0 in the means and pass^k, instead of leaving them out",
  },
} as const satisfies OptionTable;

/** The parsed values of `run`'s own options. */
export type RunFlags = OptionValues<typeof RUN_OPTIONS> & OptionValues<typeof RUN_OUTCOME_OPTIONS>;

/** What `run` plays with: its flags (the defaulted ones optional, for callers other than commander) and the roles resolved from them. */
export type RunOptions = Partial<RunFlags> &
  Pick<RunFlags, "out" | "agent" | "user" | "seed"> & {
    /** The roles resolved from the model options (absent: `agent` and `user` alone, with default settings). */
    readonly roles?: RoleSpecs;
    /** `--judge`: the model that rates the role play of scenarios with a persona; null or absent: none. */
    readonly judge?: ModelSpec | null;
    /** `--review`: the model that says who is to blame for each failed or errored run; null or absent: none. */
    readonly reviewer?: ModelSpec | null;
  };

type ModelSpec = Extract<RoleSpec, { kind: "openai" }>;

/** `play`'s options: the side the person plays, who plays the other, and `run`'s options that apply to one episode. */
export const PLAY_OPTIONS = {
  as: { flags: "--as <side>", description: "the side you play: agent or user", choices: ["agent", "user"] as const, required: true },
  out: { ...RUN_OPTIONS.out, description: "directory for <name>.trajectory.jsonl and summary.json, as `run` writes them" },
  agent: {
    flags: "--agent <id>",
    description: `with --as user: who plays the agent (supported: ${SUPPORTED_AGENTS.join(", ")}; default scripted)`,
    parse: parseAgentId,
  },
  user: {
    flags: "--user <id>",
    description: `with --as agent: who plays the user (supported: ${SUPPORTED_USERS.join(", ")}; default scripted)`,
    parse: parseUserId,
  },
  seed: RUN_OPTIONS.seed,
  timeLimit: RUN_OPTIONS.timeLimit,
  batchWindow: RUN_OPTIONS.batchWindow,
} as const satisfies OptionTable;

export type PlayFlags = OptionValues<typeof PLAY_OPTIONS>;

// The launch configuration (launch.json's attributes, package.json's configurationAttributes):
// what a `launch` request carries, checked before the adapter reads any of it. A problem is one
// line naming the attribute; an API key is refused, so none is ever read from a launch file.
import { isAbsolute, resolve } from "node:path";

/** The launch configuration's attributes, as checked (package.json's configurationAttributes describe the same). */
export interface LaunchArguments {
  /** A *.scenario.yaml to play, or a *.trajectory.jsonl to replay. */
  readonly program: string;
  readonly agent: string;
  readonly user: string;
  readonly agentBaseUrl?: string;
  readonly userBaseUrl?: string;
  readonly seed: number;
  readonly stopOnEntry: boolean;
  /** Where a played scenario's trajectory goes (default: .toolsandbox/runs beside the scenario). */
  readonly out?: string;
  /** For a replay: the scenario file its lines bind to (default: <name>.scenario.yaml near the trajectory). */
  readonly scenario?: string;
  /** The folder relative paths are read from, and a `cmd:` agent starts in (default: the adapter's). */
  readonly cwd: string;
}

const USER_ROLE = /^(scripted|openai:.+)$/;
/** The agent kinds `run --agent` takes (engine/runner/role-specs.ts): also a program reached over MCP, or a remote agent over A2A. */
const AGENT_ROLE = /^(scripted|openai:.+|cmd:.*\S.*|a2a:\S+)$/s;
/** Attributes a launch file might carry a secret in: refused, so no key is ever read from (or left in) launch.json. */
const KEY_ATTRIBUTES = ["apiKey", "agentApiKey", "userApiKey", "key", "token"] as const;

/** Checks the launch request's arguments; a problem is one line naming the attribute. */
export function checkLaunchArguments(raw: unknown, cwd: string): LaunchArguments | string {
  if (typeof raw !== "object" || raw === null) return "the launch configuration is not an object";
  const args = raw as Record<string, unknown>;
  const program = args.program;
  if (typeof program !== "string" || program.trim() === "")
    return "program: give the scenario file (*.scenario.yaml) or trajectory (*.trajectory.jsonl)";
  const text = (name: string): string | undefined | null => {
    const v = args[name];
    return v === undefined ? undefined : typeof v === "string" ? v : null;
  };
  for (const name of ["agent", "user", "agentBaseUrl", "userBaseUrl", "out", "scenario", "cwd"]) {
    if (text(name) === null) return `${name}: must be a string`;
  }
  const secret = KEY_ATTRIBUTES.find((name) => args[name] !== undefined);
  if (secret !== undefined)
    return `${secret}: API keys are not read from launch configurations (VS Code: ToolSandbox: Set API Key; toolsandbox dap: the environment variable, as for run)`;
  const agent = text("agent") ?? "scripted";
  const user = text("user") ?? "scripted";
  if (!AGENT_ROLE.test(agent)) return `agent: "${agent}" is not scripted, openai:MODEL, cmd:COMMAND LINE or a2a:URL`;
  if (!USER_ROLE.test(user)) return `user: "${user}" is not scripted or openai:MODEL`;
  const seed = args.seed ?? 0;
  if (typeof seed !== "number" || !Number.isSafeInteger(seed) || seed < 0) return "seed: must be a non-negative whole number";
  if (args.stopOnEntry !== undefined && typeof args.stopOnEntry !== "boolean") return "stopOnEntry: must be true or false";
  const base = text("cwd");
  const folder = base ? (isAbsolute(base) ? base : resolve(cwd, base)) : cwd;
  const absolute = (p: string): string => (isAbsolute(p) ? p : resolve(folder, p));
  const out = text("out");
  const scenario = text("scenario");
  const agentBaseUrl = text("agentBaseUrl");
  const userBaseUrl = text("userBaseUrl");
  return {
    program: absolute(program),
    agent,
    user,
    seed,
    stopOnEntry: args.stopOnEntry === true,
    cwd: folder,
    ...(out ? { out: absolute(out) } : {}),
    ...(scenario ? { scenario: absolute(scenario) } : {}),
    ...(agentBaseUrl ? { agentBaseUrl } : {}),
    ...(userBaseUrl ? { userBaseUrl } : {}),
  };
}

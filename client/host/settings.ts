// The extension's settings, read and checked where they enter. VS Code checks values typed in the
// Settings UI against the manifest's schema, but settings.json can hold anything, so every value
// is checked here again and a bad one is named in a one-line message instead of reaching a role.
// Pure: `get` is a view of one configuration section (workspace.getConfiguration("toolsandbox")).
import { DEFAULT_BASE_URL, DEFAULT_MAX_RETRIES, DEFAULT_TIMEOUT_SECONDS, type ModelSettings } from "../../engine/roles/openai/settings.js";
import { endpointOrigin } from "./endpoint.js";

export type SettingsGetter = (key: string) => unknown;
/** The two roles of an episode, and the role-play judge that rates it afterwards (empty model: none). */
type RoleName = "agent" | "user" | "judge";

/** A role for "Run Scenario with Model": a model, or the scripted role when its model setting is empty. */
export type RoleChoice =
  | { readonly kind: "scripted" }
  /** The settings without the key's source, which is known only once the key is looked up. */
  | { readonly kind: "model"; readonly settings: Omit<ModelSettings, "api_key_env"> };

type Read<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly problem: string };

const DEFAULT_MODEL = "gpt-4o";

const ok = <T>(value: T): Read<T> => ({ ok: true, value });
const fail = (problem: string): { ok: false; problem: string } => ({ ok: false, problem });
const shown = (value: unknown): string => JSON.stringify(value) ?? String(value);

/** A number setting that may be null (unset); out of range or not a number is a problem. */
function optionalNumber(get: SettingsGetter, key: string, min: number, max: number, integer: boolean): Read<number | null> {
  const value = get(key);
  if (value === undefined || value === null) return ok(null);
  if (typeof value !== "number" || !Number.isFinite(value) || value < min || value > max || (integer && !Number.isSafeInteger(value))) {
    return fail(
      `toolsandbox.${key} must be ${integer ? "a whole number" : "a number"} from ${min} to ${max} (or null), not ${shown(value)}`,
    );
  }
  return ok(value);
}

function readString(get: SettingsGetter, key: string, fallback: string): Read<string> {
  const value = get(key);
  if (value === undefined || value === null) return ok(fallback);
  if (typeof value !== "string") return fail(`toolsandbox.${key} must be a string, not ${shown(value)}`);
  return ok(value.trim());
}

export function readRoleChoice(role: RoleName, get: SettingsGetter): Read<RoleChoice> {
  // The judge is opt-in: without a model setting there is none (its "scripted" choice means no judge).
  const model = readString(get, `${role}.model`, role === "judge" ? "" : DEFAULT_MODEL);
  if (!model.ok) return model;
  if (model.value === "") return ok({ kind: "scripted" });
  const baseUrl = readString(get, `${role}.baseUrl`, DEFAULT_BASE_URL);
  if (!baseUrl.ok) return baseUrl;
  const url = baseUrl.value === "" ? DEFAULT_BASE_URL : baseUrl.value.replace(/\/+$/, "");
  if (endpointOrigin(url) === null)
    return fail(`toolsandbox.${role}.baseUrl must be an http:// or https:// URL, not ${shown(baseUrl.value)}`);
  const temperature = optionalNumber(get, `${role}.temperature`, 0, 2, false);
  if (!temperature.ok) return temperature;
  const seed = optionalNumber(get, `${role}.seed`, 0, Number.MAX_SAFE_INTEGER, true);
  if (!seed.ok) return seed;
  const maxTokens = optionalNumber(get, `${role}.maxTokens`, 1, 10_000_000, true);
  if (!maxTokens.ok) return maxTokens;
  return ok({
    kind: "model",
    settings: {
      model: model.value,
      base_url: url,
      temperature: temperature.value,
      seed: seed.value,
      max_tokens: maxTokens.value,
      timeout_seconds: DEFAULT_TIMEOUT_SECONDS,
      max_retries: DEFAULT_MAX_RETRIES,
    },
  });
}

/** The episode seed of scripted runs (`toolsandbox.seed`, default 0). */
export function readEpisodeSeed(get: SettingsGetter): Read<number> {
  const seed = optionalNumber(get, "seed", 0, Number.MAX_SAFE_INTEGER, true);
  return seed.ok ? ok(seed.value ?? 0) : seed;
}

/** The score a scenario needs to pass in the Testing view (`toolsandbox.passThreshold`, default 1). */
export function readPassThreshold(get: SettingsGetter): Read<number> {
  const threshold = optionalNumber(get, "passThreshold", 0, 1, false);
  return threshold.ok ? ok(threshold.value ?? 1) : threshold;
}

/** The runs folder setting as written (resolved against the workspace by run-files.ts). */
export function readRunsFolder(get: SettingsGetter): Read<string> {
  return readString(get, "runsFolder", "");
}

/** How many scenarios a Testing-view run plays at once (toolsandbox.testConcurrency, 1 to 16). */
export function readTestConcurrency(get: SettingsGetter): Read<number> {
  const n = optionalNumber(get, "testConcurrency", 1, 16, true);
  return n.ok ? ok(n.value ?? 4) : n;
}

/** An agent that is a program (`toolsandbox.agents`): started per run with the episode's MCP endpoint, as `run --agent cmd:` does. */
export interface CommandAgentSetting {
  readonly name: string;
  /** The command line, split as `cmd:` splits it (no shell). */
  readonly command: string;
  /** Seconds the command may run before it is killed and the episode ends as timed_out (null: the runner's default). */
  readonly timeLimit: number | null;
  /** Who plays the user: the scenario's scripted user, or the model of toolsandbox.user.*. */
  readonly user: "scripted" | "model";
}

/** `toolsandbox.agents`, checked: each entry a name and a command line; names are unique. */
export function readCommandAgents(get: SettingsGetter): Read<readonly CommandAgentSetting[]> {
  const value = get("agents");
  if (value === undefined || value === null) return ok([]);
  if (!Array.isArray(value)) return fail(`toolsandbox.agents must be a list of {"name", "command"}, not ${shown(value)}`);
  const agents: CommandAgentSetting[] = [];
  for (const [i, entry] of value.entries()) {
    const where = `toolsandbox.agents[${i}]`;
    if (typeof entry !== "object" || entry === null || Array.isArray(entry))
      return fail(`${where} must be {"name", "command"}, not ${shown(entry)}`);
    const { name, command, timeLimit, user } = entry as Record<string, unknown>;
    if (typeof name !== "string" || name.trim() === "") return fail(`${where}.name must be a non-empty string, not ${shown(name)}`);
    if (typeof command !== "string" || command.trim() === "")
      return fail(`${where}.command must be a non-empty command line, not ${shown(command)}`);
    if (timeLimit !== undefined && timeLimit !== null && (typeof timeLimit !== "number" || !Number.isFinite(timeLimit) || timeLimit <= 0))
      return fail(`${where}.timeLimit must be a number of seconds above 0, not ${shown(timeLimit)}`);
    if (user !== undefined && user !== "scripted" && user !== "model")
      return fail(`${where}.user must be "scripted" or "model", not ${shown(user)}`);
    if (agents.some((a) => a.name === name.trim())) return fail(`${where}.name "${name.trim()}" is used twice`);
    agents.push({
      name: name.trim(),
      command: command.trim(),
      timeLimit: typeof timeLimit === "number" ? timeLimit : null,
      user: user ?? "scripted",
    });
  }
  return ok(agents);
}

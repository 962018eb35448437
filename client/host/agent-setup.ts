// What "Add Agent…" writes, checked before anything is written: a program agent appended to
// `toolsandbox.agents` (the list read back by readCommandAgents, so a bad entry never lands), or
// the model and endpoint of `toolsandbox.agent.*`. Pure, so the checks are tested without VS Code.
import { endpointOrigin } from "./endpoint.js";
import { readCommandAgents } from "./settings.js";

type Checked<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly problem: string };

/** One entry of `toolsandbox.agents` as written to settings.json (defaults left out). */
interface CommandAgentEntry {
  readonly name: string;
  readonly command: string;
  readonly user?: "model";
}

/** `current` (the setting as it stands) with the new program agent appended; a problem when either is unusable. */
export function withCommandAgent(current: unknown, name: string, command: string, user: "scripted" | "model"): Checked<unknown[]> {
  const list = current === undefined || current === null ? [] : current;
  const existing = readCommandAgents(() => list);
  if (!existing.ok) return { ok: false, problem: `fix toolsandbox.agents first: ${existing.problem}` };
  const entry: CommandAgentEntry = { name: name.trim(), command: command.trim(), ...(user === "model" ? { user } : {}) };
  const next = [...(list as unknown[]), entry];
  const checked = readCommandAgents(() => next);
  if (!checked.ok) return { ok: false, problem: checked.problem.replace(/^toolsandbox\.agents\[\d+\]\./, "the agent's ") };
  return { ok: true, value: next };
}

/** Why a name typed for a new program agent cannot be used, or null. */
export function agentNameProblem(current: unknown, name: string): string | null {
  const trimmed = name.trim();
  if (trimmed === "") return "Give the agent a name (what Run Scenario with Agent… lists).";
  const existing = readCommandAgents(() => current);
  if (existing.ok && existing.value.some((a) => a.name === trimmed)) return `An agent is already named "${trimmed}".`;
  return null;
}

/** Why an endpoint typed for the agent's model cannot be used, or null. */
export function baseUrlProblem(value: string): string | null {
  return endpointOrigin(value.trim()) === null ? "An http:// or https:// URL, such as http://127.0.0.1:8765/v1." : null;
}

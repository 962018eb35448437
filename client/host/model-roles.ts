// The roles of "Run Scenario with Model": each role's settings (toolsandbox.agent.*,
// toolsandbox.user.*), its key from secret storage, and the OpenAI-compatible role built from
// them. A role whose model setting is empty is played by the scripted role instead. The role-play
// judge (toolsandbox.judge.*) is made the same way, when its model is set and the scenario has a persona.
import * as vscode from "vscode";
import { RolePlayJudge } from "../../engine/benchmarks/dialogtool/role-play/role-play-judge.js";
import { OpenAiAgent } from "../../engine/roles/openai/agent.js";
import { OpenAiUser } from "../../engine/roles/openai/user.js";
import type { AgentRole, UserRole } from "../../engine/episode/role.js";
import { createScriptedAgent, createScriptedUser } from "../../engine/roles/scripted.js";
import type { Scenario } from "../../engine/scenario/model.js";
import type { ApiKeys } from "./api-keys.js";
import { readRoleChoice, type RoleChoice, type SettingsGetter } from "./settings.js";

export const settingsGetter = (): SettingsGetter => {
  const config = vscode.workspace.getConfiguration("toolsandbox");
  return (key) => config.get(key);
};

type ModelRoles =
  | { readonly ok: true; readonly agent: AgentRole; readonly user: UserRole; readonly judge?: RolePlayJudge }
  | { readonly ok: false; readonly problem: string | null };

/** The roles' settings (the judge's too), checked; the problem names the first bad setting. */
function readRoleChoices(): { agent: RoleChoice; user: RoleChoice; judge: RoleChoice } | string {
  const get = settingsGetter();
  const agent = readRoleChoice("agent", get);
  if (!agent.ok) return agent.problem;
  const user = readRoleChoice("user", get);
  if (!user.ok) return user.problem;
  const judge = readRoleChoice("judge", get);
  if (!judge.ok) return judge.problem;
  return { agent: agent.value, user: user.value, judge: judge.value };
}

/** The configured endpoints (for "Set API Key"), whatever the model settings say. */
export function configuredBaseUrls(): string[] {
  const choices = readRoleChoices();
  if (typeof choices === "string") return [];
  return [choices.agent, choices.user, choices.judge].flatMap((c) => (c.kind === "model" ? [c.settings.base_url] : []));
}

/**
 * Fresh roles for one episode. `problem` is null when the user cancelled the key prompt (nothing
 * to report), else a one-line reason.
 */
export async function createModelRoles(scenario: Scenario, keys: ApiKeys): Promise<ModelRoles> {
  const choices = readRoleChoices();
  if (typeof choices === "string") return { ok: false, problem: choices };
  const { agent, user } = choices;
  if (agent.kind === "scripted" && user.kind === "scripted") {
    return { ok: false, problem: "no model is configured: set toolsandbox.agent.model or toolsandbox.user.model" };
  }
  const recordIo = vscode.workspace.getConfiguration("toolsandbox").get("recordModelIo") !== false;
  let agentRole: AgentRole;
  if (agent.kind === "model") {
    const key = await keys.forRun(agent.settings.base_url);
    if (key === undefined) return { ok: false, problem: null };
    agentRole = new OpenAiAgent({ settings: { ...agent.settings, api_key_env: key.source }, apiKey: key.key, recordIo });
  } else {
    agentRole = createScriptedAgent(scenario);
  }
  let userRole: UserRole;
  if (user.kind === "model") {
    const key = await keys.forRun(user.settings.base_url);
    if (key === undefined) return { ok: false, problem: null };
    userRole = new OpenAiUser({ settings: { ...user.settings, api_key_env: key.source }, apiKey: key.key, recordIo });
  } else {
    userRole = createScriptedUser(scenario);
  }
  // Only scenarios with a persona are judged, so only they ask for the judge's key.
  const { judge } = choices;
  if (judge.kind === "model" && scenario.agent.persona) {
    const key = await keys.forRun(judge.settings.base_url);
    if (key === undefined) return { ok: false, problem: null };
    const judgeRole = new RolePlayJudge({ settings: { ...judge.settings, api_key_env: key.source }, apiKey: key.key, recordIo });
    return { ok: true, agent: agentRole, user: userRole, judge: judgeRole };
  }
  return { ok: true, agent: agentRole, user: userRole };
}

/**
 * The user simulator of a run whose agent is not ours ("Run Scenario with Agent…" with `user:
 * "model"`): the model of toolsandbox.user.*, its key from secret storage. `problem` is null when
 * the user cancelled the key prompt.
 */
export async function createModelUser(
  keys: ApiKeys,
): Promise<{ readonly ok: true; readonly user: UserRole } | { readonly ok: false; readonly problem: string | null }> {
  const get = settingsGetter();
  const user = readRoleChoice("user", get);
  if (!user.ok) return { ok: false, problem: user.problem };
  if (user.value.kind !== "model") return { ok: false, problem: "no user model is configured: set toolsandbox.user.model" };
  const key = await keys.forRun(user.value.settings.base_url);
  if (key === undefined) return { ok: false, problem: null };
  const recordIo = vscode.workspace.getConfiguration("toolsandbox").get("recordModelIo") !== false;
  return { ok: true, user: new OpenAiUser({ settings: { ...user.value.settings, api_key_env: key.source }, apiKey: key.key, recordIo }) };
}

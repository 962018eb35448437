// A scenario of the ToolTalk pack seen as a ToolTalk conversation, so ToolTalk's per-turn,
// teacher-forced simulation (engine/benchmarks/tooltalk/evaluation/simulation.ts) can run it: the opening and the
// reference's user texts are the user turns; each reference reply, with the calls before it, is an
// assistant turn whose ground truth is those calls.
//
// ToolTalk shows the predictor the ground truth's *recorded* outcomes. A scenario stores calls, not
// outcomes, so the outcomes are those the calls have when the reference is run from the scenario's
// starting world with fresh tools (what ToolTalk's replay before each turn does too). For the
// published data this gives the recorded outcomes except where the files were annotated by hand
// (peers A.8: a few ids), and those are in responses ToolTalk's match rules ignore.
//
// The backend starts every turn from the scenario's own starting world (not from ToolTalk's
// databases), so an edited scenario is simulated as written.
import { DateTime } from "luxon";
import type { JsonObject } from "../../../base/json.js";
import { packById } from "../../../packs/registry.js";
import { ToolTalkRuntime, runToolTalkCall } from "../../../packs/tooltalk/index.js";
import { toolTalkApi } from "../../../packs/tooltalk/tools/apis.js";
import type { Scenario } from "../../../scenario/model.js";
import type { ToolTalkBackend, ToolTalkExecution } from "../evaluation/simulation.js";
import type { ToolTalkCall, ToolTalkConversation, ToolTalkMetadata, ToolTalkTurn, ToolTalkUser } from "../evaluation/types.js";
import { WorldTransaction } from "../../../world/transaction.js";
import type { Row } from "../../../world/types.js";

/** The scenario's starting world and fresh tools, reset before every assistant turn. */
export class ScenarioBackend implements ToolTalkBackend {
  private world: WorldTransaction;
  private runtime = ToolTalkRuntime.fresh();

  constructor(private readonly scenario: Scenario) {
    this.world = this.freshWorld();
  }

  private freshWorld(): WorldTransaction {
    return new WorldTransaction(this.scenario.world.tables, packById("tooltalk").schemas);
  }

  reset(): void {
    this.world = this.freshWorld();
    this.runtime = ToolTalkRuntime.fresh();
  }

  execute(request: { readonly api_name: string; readonly parameters: JsonObject }): ToolTalkExecution {
    const clock = { now: this.scenario.clock.now, timezone: this.scenario.clock.timezone };
    const record = runToolTalkCall(this.world, this.runtime, clock, request.api_name, request.parameters);
    return {
      request: { api_name: request.api_name, parameters: record.request.parameters ?? request.parameters },
      response: record.response,
      exception: record.exception,
    };
  }

  isAction(apiName: string): boolean {
    return toolTalkApi(apiName)?.definition.action ?? false;
  }
}

/** ToolTalk's naive "now": the clock's wall time in the scenario's timezone. */
function naiveNow(scenario: Scenario): string {
  return DateTime.fromSeconds(scenario.clock.now, { zone: scenario.clock.timezone }).toFormat("yyyy-MM-dd HH:mm:ss");
}

function sessionRow(scenario: Scenario): Row | undefined {
  return scenario.world.tables["SESSION"]?.[0];
}

function userOf(scenario: Scenario): ToolTalkUser {
  const session = sessionRow(scenario);
  const account = scenario.world.tables["ACCOUNT"]?.find((row) => session !== undefined && row["username"] === session["username"]);
  const text = (value: unknown): string => (typeof value === "string" ? value : "");
  const user: ToolTalkUser = {
    username: text(account?.["username"]),
    email: text(account?.["email"]),
    phone: text(account?.["phone"]),
    name: text(account?.["name"]),
    password: text(account?.["password"]),
  };
  const token = session?.["session_token"];
  return typeof token === "string" ? { ...user, session_token: token } : user;
}

function metadataOf(scenario: Scenario): ToolTalkMetadata {
  const session = sessionRow(scenario);
  const username = session?.["username"];
  const token = session?.["session_token"];
  // The location is part of the agent's system prompt, which the predictors read instead.
  return {
    location: "",
    timestamp: naiveNow(scenario),
    ...(typeof token === "string" ? { session_token: token } : {}),
    ...(typeof username === "string" ? { username } : {}),
  };
}

/** The scenario as a ToolTalk conversation; the scenario must use the ToolTalk pack. */
export function scenarioConversation(scenario: Scenario, file: string): ToolTalkConversation {
  if (scenario.world.pack !== "tooltalk") throw new Error(`${scenario.name} is a ${scenario.world.pack} scenario, not a ToolTalk one`);
  const backend = new ScenarioBackend(scenario);
  const turns: ToolTalkTurn[] = [{ role: "user", text: scenario.user.opening, position: 0, source_index: null }];
  let apis: ToolTalkCall[] = [];
  const close = (text: string): void => {
    turns.push({ role: "assistant", text, apis, position: turns.length, source_index: null });
    apis = [];
  };
  for (const step of scenario.reference) {
    if (step.kind === "agent_calls") {
      for (const call of step.calls) {
        // Recorded as ToolTalk's files record it: the request with the session token injected.
        apis.push(backend.execute({ api_name: call.tool, parameters: { ...call.arguments } }));
      }
    } else if (step.kind === "agent_text") {
      close(step.text);
    } else if (step.kind === "user_text") {
      turns.push({ role: "user", text: step.text, position: turns.length, source_index: null });
    }
  }
  // A reference that stops after calls still has a turn to evaluate; its reply is unknown.
  if (apis.length > 0) close("");
  // As the reader does with a file, user turns nobody answers are set apart.
  let end = turns.length;
  while (end > 0 && turns[end - 1]?.role === "user") end--;
  const trailing = turns.slice(end).filter((t): t is Extract<ToolTalkTurn, { role: "user" }> => t.role === "user");
  return {
    file,
    name: scenario.name,
    conversation_id: scenario.name,
    suites_used: [],
    apis_used: [...new Set(turns.flatMap((t) => (t.role === "assistant" ? t.apis.map((a) => a.request.api_name) : [])))],
    scenario: scenario.user.goal,
    user: userOf(scenario),
    metadata: metadataOf(scenario),
    turns: turns.slice(0, end),
    trailing_user_turns: trailing,
    normalisations: [],
  };
}

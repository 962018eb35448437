// One ToolTalk conversation -> one scenario file (docs/tooltalk.md, "Importing"). The file is
// built twice: first without milestones, to let the scenario checker resolve the starting world;
// then the ground truth is replayed in that world, and the milestones and minefields made from
// what it did are added. The finished text is checked again: an import never writes a scenario
// with an error.
import { packById } from "../../../packs/registry.js";
import { requiresAuth } from "../../../packs/tooltalk/tools/apis.js";
import { checkScenarioText } from "../../../scenario/resolve.js";
import type { Scenario } from "../../../scenario/model.js";
import type { ToolTalkConversation } from "../evaluation/types.js";
import { categoriesFor } from "./categories.js";
import { clockFor } from "./clock.js";
import { turnDependencies } from "./dependencies.js";
import { scenarioYaml, type ScenarioParts } from "./document.js";
import { callEffects } from "./effects.js";
import { milestoneParts, type PlannedCall } from "./milestone-graph.js";
import { minefieldParts } from "./minefields.js";
import { scenarioNameFor } from "./names.js";
import { ImportProblem } from "./problem.js";
import { replayGroundTruth } from "./replay.js";
import { conversationScript, type ConversationScript } from "./script.js";
import { agentSystemPrompt, loggedInAtStart, userGoal, userKnowledge } from "./user-setup.js";
import { conversationWorld, worldEntries } from "./world-rows.js";
import type { Tables } from "../../../world/types.js";

interface ImportOptions {
  /** The `$schema` path written in the modeline, relative to where the file goes; null for none. */
  readonly schemaPath: string | null;
  /** ToolTalk's eight databases as rows (readToolTalkDatabases); the rows the conversation reaches are written into the scenario. */
  readonly databases: Tables;
}

export interface ImportedScenario {
  readonly name: string;
  readonly text: string;
}

const needsLogin = (tool: string): boolean => requiresAuth(tool) ?? false;

/** Messages the reference plays after the opening: two per call, one per text, two for the user's end_conversation. */
function referenceMessages(script: ConversationScript): number {
  return script.steps.reduce((n, step) => n + (step.kind === "call" ? 2 : 1), 0) + 2;
}

function description(conversation: ToolTalkConversation, script: ConversationScript): string {
  const suites = conversation.suites_used.join(", ");
  return (
    `ToolTalk conversation ${conversation.name} (suites: ${suites}): ${script.calls.length} ground-truth call(s) over ` +
    `${script.assistantTurns} assistant turn(s). The reference replays the user's turns and the ground-truth calls as the file has them.`
  );
}

function check(text: string, file: string, stage: string): Scenario {
  const { scenario, diagnostics } = checkScenarioText(text, `${file} (as a scenario)`);
  const errors = diagnostics.filter((d) => d.severity === "error");
  if (scenario === null || errors.length > 0) {
    const first = errors[0];
    const where = first ? ` (line ${first.range.start.line + 1} of the scenario): ${first.code}: ${first.message}` : "";
    throw new ImportProblem(file, "$", `the scenario made from it does not check after ${stage}${where}`);
  }
  return scenario;
}

export function importConversation(conversation: ToolTalkConversation, options: ImportOptions): ImportedScenario {
  const { file } = conversation;
  const name = scenarioNameFor(conversation.name);
  if (name === null) throw new ImportProblem(file, "$.name", `no scenario name can be made from ${JSON.stringify(conversation.name)}`);
  const script = conversationScript(conversation, needsLogin);
  for (const call of script.calls) {
    if (requiresAuth(call.tool) === undefined)
      throw new ImportProblem(file, `${call.path}.request.api_name`, `ToolTalk has no tool named ${JSON.stringify(call.tool)}`);
  }
  const base: ScenarioParts = {
    schemaPath: options.schemaPath,
    name,
    description: description(conversation, script),
    categories: [],
    clock: clockFor(conversation.metadata.timestamp, conversation.metadata.location),
    world: worldEntries(conversationWorld(conversation, options.databases)),
    systemPrompt: agentSystemPrompt(conversation),
    user: { goal: userGoal(conversation, script), knowledge: userKnowledge(conversation.user), opening: script.opening },
    maxMessages: Math.max(30, 2 * referenceMessages(script)),
    milestones: [],
    minefields: [],
    steps: script.steps,
  };
  const scenario = check(scenarioYaml(base), file, "the starting world");

  const replayed = replayGroundTruth(scenario, script.calls, file);
  const schemas = packById("tooltalk").schemas;
  const planned: PlannedCall[] = replayed
    .filter((r) => r.ok)
    .map((r) => ({ call: r.call, result: r.result, effects: callEffects(r.changes, r.before, r.after, schemas, r.call.arguments) }));
  const results = new Map(planned.map((p) => [p.call.order, p.result]));
  const startUser = loggedInAtStart(conversation.user);
  const promptFacts = [conversation.metadata.location, conversation.metadata.timestamp, ...(startUser === null ? [] : [startUser])];
  const known = (value: string, turn: number): boolean => {
    const needle = value.toLowerCase();
    const said = script.userTexts.slice(0, (script.userMessageBeforeTurn[turn] ?? 0) + 1);
    return [...said, ...promptFacts].some((text) => text.toLowerCase().includes(needle));
  };
  const dependsOn = turnDependencies(
    planned.map((p) => p.call),
    results,
    { needsLogin },
    known,
  );
  const changed = new Set(planned.flatMap((p) => p.effects.map((e) => e.table)));
  const changedTables = [...schemas.keys()].filter((t) => changed.has(t));
  const succeeded = new Set(planned.map((p) => p.call.order));
  const parts: ScenarioParts = {
    ...base,
    categories: categoriesFor(script, succeeded, needsLogin),
    milestones: milestoneParts(planned, dependsOn, changedTables),
    minefields: minefieldParts(script.calls, scenario.world.tables, conversation.user.username),
  };
  const text = scenarioYaml(parts);
  check(text, file, "the milestones");
  return { name, text };
}

// One exported ToolSandbox scenario (under both clocks) → the text of a `*.scenario.yaml`.
import type { JsonObject, JsonValue } from "../../../base/json.js";
import { toIso } from "../../../world/clock.js";
import { convertConversation } from "./conversation.js";
import { scenarioYaml } from "./document.js";
import { PROMPT_SET_FILE } from "../../../scenario/prompts/prompt-set.js";
import type { ExportedScenario, ExportedSuite, Paired } from "./export-data.js";
import { convertGraph } from "./milestones.js";
import { readReference, resolveReferenceSteps } from "./references.js";
import type { ImportWarning } from "./warnings.js";
import { convertWorld } from "./world.js";

export interface ConvertedScenario {
  readonly name: string;
  readonly text: string;
  readonly warnings: readonly ImportWarning[];
  /** A reference file was found and merged. */
  readonly hasReference: boolean;
}

interface ConvertOptions {
  readonly referencesFolder: string | null;
  readonly schemaPath: string | null;
}

/** The user's end_conversation is always available; upstream lists it for the user role. */
const USER_TOOLS = new Set(["end_conversation"]);

export function convertScenario(pair: Paired<ExportedScenario>, suites: Paired<ExportedSuite>, options: ConvertOptions): ConvertedScenario {
  const { a } = pair;
  const warnings: ImportWarning[] = [];
  const clocks = { a: suites.a.clock, b: suites.b.clock };
  const world = convertWorld(a.name, { a: a.tables, b: pair.b.tables }, clocks, warnings);
  const conversation = convertConversation(a.name, a.tables.SANDBOX ?? [], suites.a.userInstruction, suites.a.demonstrationNames, warnings);
  const milestones = convertGraph(a.name, "milestones", { a: a.milestones, b: pair.b.milestones }, clocks, warnings);
  const minefields = convertGraph(a.name, "minefields", { a: a.minefields, b: pair.b.minefields }, clocks, warnings);
  const tools: JsonObject = {};
  if (a.toolAllowList !== null) tools.allow = a.toolAllowList.filter((t) => !USER_TOOLS.has(t));
  if (a.toolDenyList !== null && a.toolDenyList.length > 0) tools.deny = [...a.toolDenyList];

  const reference = readReference(options.referencesFolder, a.name);
  let steps: JsonValue[];
  if (reference === null) {
    warnings.push({
      scenario: a.name,
      construct: "reference",
      message: "no reference solution is kept for this scenario; a placeholder that reaches no milestone is written",
    });
    steps = [{ agent: "No reference solution has been written for this scenario yet." }, { end_conversation: true }];
  } else {
    const resolved = resolveReferenceSteps(reference.steps, milestones);
    for (const problem of resolved.problems) warnings.push({ scenario: a.name, construct: "reference", message: problem });
    if (reference.finding !== null) warnings.push({ scenario: a.name, construct: "reference", message: `finding: ${reference.finding}` });
    steps = resolved.steps;
  }
  const content: Record<string, JsonValue> = {
    name: a.name,
    description: `ToolSandbox scenario ${a.name}, imported from the user's checkout.`,
    categories: [...a.categories],
    clock: { now: toIso(clocks.a.now, clocks.a.timezone).replace(/[+-]\d{2}:\d{2}$|Z$/, ""), timezone: clocks.a.timezone },
    ...(Object.keys(world).length > 0 ? { world } : {}),
    ...(Object.keys(tools).length > 0 ? { tools } : {}),
    ...(conversation.agent !== null ? { agent: conversation.agent } : {}),
    user: conversation.user,
    ...(a.maxMessages !== 30 ? { max_messages: a.maxMessages } : {}),
    // upstream ends a run that calls an unknown tool or passes bad arguments
    options: { invalid_tool_call: "end" },
    // Upstream's texts for the models, written beside the scenarios by the import.
    prompts: PROMPT_SET_FILE,
    milestones,
    ...(minefields.length > 0 ? { minefields } : {}),
    reference: steps,
  };
  const header = [
    ...(options.schemaPath === null ? [] : [`yaml-language-server: $schema=${options.schemaPath}`]),
    "Imported by `toolsandbox import toolsandbox` from a ToolSandbox checkout; regenerate rather than edit.",
    ...(reference?.finding ? [`Finding: ${reference.finding}`] : []),
    ...warnings.map((w) => `Warning (${w.construct}): ${w.message}`),
  ];
  return { name: a.name, text: scenarioYaml(content, header), warnings, hasReference: reference !== null };
}

// The variants: right agents told another way, which the scenario must pass. Each is one edit of
// the reference that keeps every value it states and every change it makes to the world.
import { toolsFor } from "../episode/tool-calls.js";
import type { ReferenceStep, Scenario } from "../scenario/model.js";
import type { VariantName } from "./catalogue.js";
import { type Candidate, shown } from "./candidate.js";
import { extraCall, playable } from "./edits.js";
import { adjacentSwaps } from "./mutants.js";
import type { ReferenceFacts } from "./reference-facts.js";

type VariantMaker = (scenario: Scenario, facts: ReferenceFacts) => Candidate[];

export const VARIANT_MAKERS: Readonly<Record<VariantName, VariantMaker>> = {
  "reorder-independent": (s, f) => adjacentSwaps(s, f, false),
  "extra-read": extraRead,
  "paraphrase-reply": paraphraseReply,
  "split-parallel": splitParallel,
};

/** The words put before the final message: the same values, worded otherwise. */
const PARAPHRASE_OPENING = "Here is where things stand: ";

/**
 * A read-only tool that needs no argument (so the agent invents nothing), called before the first
 * state-changing call, or before the agent's first step when it changes nothing.
 */
function extraRead(scenario: Scenario, facts: ReferenceFacts): Candidate[] {
  const tool = toolsFor(scenario, "agent").find((t) => !t.action && t.parameters.every((p) => !p.required));
  if (tool === undefined) return [];
  const steps = scenario.reference;
  const writing = steps.findIndex((s) => s.kind === "agent_calls" && s.calls.some((c) => (facts.writes.get(c.id) ?? []).length > 0));
  const at = writing >= 0 ? writing : steps.findIndex((s) => s.kind === "agent_calls" || s.kind === "agent_text");
  if (at < 0) return [];
  const added: ReferenceStep = { kind: "agent_calls", calls: [extraCall(tool.name, {}, 1)] };
  const reference = playable([...steps.slice(0, at), added, ...steps.slice(at)]);
  if (reference === null) return [];
  return [
    {
      operator: "extra-read",
      step: at,
      call: { tool: tool.name, argument: null },
      change: `${tool.name}() called before step ${at + 1}`,
      reference,
      changedCalls: [],
    },
  ];
}

function paraphraseReply(scenario: Scenario): Candidate[] {
  const steps = scenario.reference;
  let last = -1;
  steps.forEach((s, i) => {
    if (s.kind === "agent_text") last = i;
  });
  const step = steps[last];
  if (step?.kind !== "agent_text") return [];
  const text = `${PARAPHRASE_OPENING}${step.text}`;
  const reference = [...steps.slice(0, last), { ...step, text }, ...steps.slice(last + 1)];
  return [{ operator: "paraphrase-reply", step: last, call: null, change: `reworded as ${shown(text)}`, reference, changedCalls: [] }];
}

function splitParallel(scenario: Scenario): Candidate[] {
  const out: Candidate[] = [];
  scenario.reference.forEach((step, i) => {
    if (step.kind !== "agent_calls" || step.calls.length < 2) return;
    const split: ReferenceStep[] = step.calls.map((call) => ({ kind: "agent_calls", calls: [call] }));
    const reference = [...scenario.reference.slice(0, i), ...split, ...scenario.reference.slice(i + 1)];
    out.push({
      operator: "split-parallel",
      step: i,
      call: { tool: step.calls.map((c) => c.tool).join(", "), argument: null },
      change: `${step.calls.length} parallel calls made one per turn`,
      reference,
      changedCalls: [],
    });
  });
  return out;
}

// The mutators: each turns the reference into wrong agents the scenario must fail. Every mutant is
// one edit, made playable (edits.ts), in the order of the reference's steps.
import type { JsonValue } from "../base/json.js";
import { toolsFor } from "../episode/tool-calls.js";
import { packById } from "../packs/registry.js";
import type { ReferenceStep, Scenario } from "../scenario/model.js";
import type { MutatorName } from "./catalogue.js";
import { type Candidate, shown } from "./candidate.js";
import { stepsDepend } from "./dependencies.js";
import { extraCall, NEUTRAL_REPLY, playable, unnamedArguments, wrongValue } from "./edits.js";
import { leafStrings, type ReferenceFacts, worldTables } from "./reference-facts.js";

type Mutator = (scenario: Scenario, facts: ReferenceFacts) => Candidate[];

export const MUTANT_MAKERS: Readonly<Record<MutatorName, Mutator>> = {
  "drop-call": dropCall,
  "drop-reply": dropReply,
  "wrong-argument": wrongArgument,
  "extra-write": extraWrite,
  "swap-dependent": (s, f) => adjacentSwaps(s, f, true),
  "stop-early": stopEarly,
  "wrong-reply-value": wrongReplyValue,
  "act-without-asking": actWithoutAsking,
};

const replaced = (steps: readonly ReferenceStep[], index: number, by: readonly ReferenceStep[]): ReferenceStep[] => [
  ...steps.slice(0, index),
  ...by,
  ...steps.slice(index + 1),
];

function dropCall(scenario: Scenario): Candidate[] {
  const out: Candidate[] = [];
  scenario.reference.forEach((step, i) => {
    if (step.kind !== "agent_calls") return;
    step.calls.forEach((call, c) => {
      const rest = step.calls.filter((_, k) => k !== c);
      const reference = playable(replaced(scenario.reference, i, rest.length === 0 ? [] : [{ kind: "agent_calls", calls: rest }]));
      if (reference)
        out.push({
          operator: "drop-call",
          step: i,
          call: { tool: call.tool, argument: null },
          change: "left out",
          reference,
          changedCalls: [call.id],
        });
    });
  });
  return out;
}

/** Whether an agent message states a value: a digit, or a string a call sent or returned. */
function statesValue(text: string, facts: ReferenceFacts): boolean {
  if (text.trim().endsWith("?")) return false;
  if (/\d/.test(text)) return true;
  const values = [...facts.results.values()].flatMap((r) => leafStrings(r));
  return values.some((v) => v.length >= 3 && text.includes(v));
}

function dropReply(scenario: Scenario, facts: ReferenceFacts): Candidate[] {
  const out: Candidate[] = [];
  scenario.reference.forEach((step, i) => {
    if (step.kind !== "agent_text" || !statesValue(step.text, facts)) return;
    const reference = replaced(scenario.reference, i, [{ kind: "agent_text", text: NEUTRAL_REPLY }]);
    out.push({
      operator: "drop-reply",
      step: i,
      call: null,
      change: `${shown(step.text)} -> ${shown(NEUTRAL_REPLY)}`,
      reference,
      changedCalls: [],
    });
  });
  return out;
}

function wrongArgument(scenario: Scenario): Candidate[] {
  const out: Candidate[] = [];
  const tools = packById(scenario.world.pack).tools;
  scenario.reference.forEach((step, i) => {
    if (step.kind !== "agent_calls") return;
    step.calls.forEach((call, c) => {
      const tool = tools.find((t) => t.name === call.tool);
      for (const [argument, value] of Object.entries(call.arguments)) {
        const wrong = wrongValue(
          value,
          argument,
          tool?.parameters.find((p) => p.name === argument),
          scenario,
        );
        if (wrong === null) continue;
        const calls = step.calls.map((k, n) => (n === c ? { ...k, arguments: { ...k.arguments, [argument]: wrong.value } } : k));
        out.push({
          operator: "wrong-argument",
          step: i,
          call: { tool: call.tool, argument },
          change: `${argument} ${shown(value)} -> ${shown(wrong.value)} (${wrong.kind})`,
          reference: replaced(scenario.reference, i, [{ kind: "agent_calls", calls }]),
          changedCalls: [call.id],
        });
      }
    });
  });
  return out;
}

/** Where an added call goes: after the reference's first call step, or first of all when it has none. */
function insertionPoint(scenario: Scenario): number {
  const first = scenario.reference.findIndex((s) => s.kind === "agent_calls");
  return first < 0 ? 0 : first + 1;
}

function extraWrite(scenario: Scenario, facts: ReferenceFacts): Candidate[] {
  const out: Candidate[] = [];
  const at = insertionPoint(scenario);
  toolsFor(scenario, "agent")
    .filter((t) => t.action)
    .forEach((tool, n) => {
      const args = unnamedArguments(tool, scenario, facts);
      if (args === null) return;
      const step: ReferenceStep = { kind: "agent_calls", calls: [extraCall(tool.name, args, n + 1)] };
      const reference = playable([...scenario.reference.slice(0, at), step, ...scenario.reference.slice(at)]);
      if (reference)
        out.push({
          operator: "extra-write",
          step: Math.max(0, at - 1),
          call: { tool: tool.name, argument: null },
          change: `added ${tool.name}(${argumentsText(args)})`,
          reference,
          changedCalls: [],
        });
    });
  return out;
}

function argumentsText(args: Readonly<Record<string, JsonValue>>): string {
  return Object.entries(args)
    .map(([k, v]) => `${k}=${shown(v)}`)
    .join(", ");
}

/** Adjacent call steps swapped: dependent pairs make mutants, independent pairs variants. */
export function adjacentSwaps(scenario: Scenario, facts: ReferenceFacts, dependent: boolean): Candidate[] {
  const out: Candidate[] = [];
  const steps = scenario.reference;
  for (let i = 0; i + 1 < steps.length; i++) {
    const a = steps[i]!;
    const b = steps[i + 1]!;
    if (a.kind !== "agent_calls" || b.kind !== "agent_calls") continue;
    if (stepsDepend(a, b, scenario, facts) !== dependent) continue;
    out.push({
      operator: dependent ? "swap-dependent" : "reorder-independent",
      step: i,
      call: { tool: `${a.calls[0]!.tool}, ${b.calls[0]!.tool}`, argument: null },
      change: `steps ${i + 1} and ${i + 2} swapped`,
      reference: replaced(replaced(steps, i, [b]), i + 1, [a]),
      changedCalls: [...a.calls, ...b.calls].map((c) => c.id),
    });
  }
  return out;
}

/** The reference cut before its last agent step: the agent has nothing more to say, and the episode ends. */
function stopEarly(scenario: Scenario): Candidate[] {
  const steps = scenario.reference;
  let last = -1;
  steps.forEach((s, i) => {
    if (s.kind === "agent_text" || s.kind === "agent_calls") last = i;
  });
  if (last < 0) return [];
  const cut = steps.slice(0, last);
  const changed = steps.slice(last).flatMap((s) => (s.kind === "agent_calls" ? s.calls.map((c) => c.id) : []));
  return [
    { operator: "stop-early", step: last, call: null, change: `stops before step ${last + 1}`, reference: cut, changedCalls: changed },
  ];
}

function wrongReplyValue(scenario: Scenario): Candidate[] {
  const steps = scenario.reference;
  let last = -1;
  steps.forEach((s, i) => {
    if (s.kind === "agent_text") last = i;
  });
  const step = steps[last];
  if (step?.kind !== "agent_text") return [];
  const swapped = otherValueIn(step.text, scenario);
  if (swapped === null) return [];
  return [
    {
      operator: "wrong-reply-value",
      step: last,
      call: null,
      change: `${shown(swapped.from)} -> ${shown(swapped.to)}`,
      reference: replaced(steps, last, [{ kind: "agent_text", text: step.text.replace(swapped.from, swapped.to) }]),
      changedCalls: [],
    },
  ];
}

/** The longest world value the text states, swapped for another row's; else its first number, moved by one. */
function otherValueIn(text: string, scenario: Scenario): { from: string; to: string } | null {
  let best: { from: string; to: string } | null = null;
  for (const [, rows] of worldTables(scenario.world.tables))
    for (const row of rows)
      for (const [column, v] of Object.entries(row)) {
        if (typeof v !== "string" || v.length < 3 || !text.includes(v) || (best && best.from.length >= v.length)) continue;
        const other = rows
          .map((r) => r[column])
          .find((o): o is string => typeof o === "string" && o.length > 0 && o !== v && !text.includes(o));
        if (other !== undefined) best = { from: v, to: other };
      }
  if (best) return best;
  const number = /\d+(\.\d+)?/.exec(text);
  if (!number) return null;
  const n = Number(number[0]) + 1;
  const decimals = number[0].split(".")[1]?.length ?? 0;
  return { from: number[0], to: decimals === 0 ? String(n) : n.toFixed(decimals) };
}

/**
 * Insufficient information: instead of its first message, the agent calls a tool that would act
 * on the task (a state-changing tool it has or was denied; with none, any tool it has that the
 * reference never calls), says it is done, and the user ends the conversation.
 */
function actWithoutAsking(scenario: Scenario, facts: ReferenceFacts): Candidate[] {
  if (!scenario.categories.includes("INSUFFICIENT_INFORMATION")) return [];
  const first = scenario.reference.findIndex((s) => s.kind === "agent_text");
  if (first < 0) return [];
  const called = new Set(scenario.reference.flatMap((s) => (s.kind === "agent_calls" ? s.calls.map((c) => c.tool) : [])));
  const tools = packById(scenario.world.pack).tools;
  const allowed = toolsFor(scenario, "agent");
  const denied = tools.filter((t) => scenario.tools.deny.includes(t.name) && t.action);
  // The tool that would do the task: one it has that changes the world, else one it was denied, else any it has.
  const acting = allowed.filter((t) => t.action && t.domain !== "Setting");
  const candidates =
    acting.length > 0 ? acting : denied.length > 0 ? denied : allowed.filter((t) => !called.has(t.name) && t.domain !== "Setting");
  const out: Candidate[] = [];
  candidates.forEach((tool, n) => {
    const args = unnamedArguments(tool, scenario, facts);
    if (args === null) return;
    const reference: ReferenceStep[] = [
      ...scenario.reference.slice(0, first),
      { kind: "agent_calls", calls: [extraCall(tool.name, args, n + 1)] },
      { kind: "agent_text", text: NEUTRAL_REPLY },
      { kind: "end_conversation" },
    ];
    out.push({
      operator: "act-without-asking",
      step: first,
      call: { tool: tool.name, argument: null },
      change: `calls ${tool.name}(${argumentsText(args)}) instead of asking`,
      reference,
      changedCalls: [],
    });
  });
  return out;
}

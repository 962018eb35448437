// What the reference run tells the mutators and the judge: what each call returned, which world
// tables each call changed, and which values the task names (so an extra write can pick a row it
// never names). Everything is read from one played reference run.
import type { JsonValue } from "../base/json.js";
import type { ReferenceStep, Scenario } from "../scenario/model.js";
import type { Row, Tables } from "../world/types.js";
import type { PlayedRun } from "./play.js";

export interface ReferenceFacts {
  readonly run: PlayedRun;
  /** Call id -> what the tool returned (its trace's result, or the error text). */
  readonly results: ReadonlyMap<string, JsonValue>;
  /** Call id -> the world tables its execution changed (empty for a read). */
  readonly writes: ReadonlyMap<string, readonly string[]>;
  /** Every string the task itself states: the user's goal, opening and knowledge, the reference, the milestones. */
  readonly named: ReadonlySet<string>;
  /** The same, as one text to search substrings in. */
  readonly namedText: string;
  /** What the user tells the agent: the opening and the user's lines of the reference. */
  readonly userSaid: string;
}

export function referenceFacts(scenario: Scenario, run: PlayedRun): ReferenceFacts {
  const results = new Map<string, JsonValue>();
  const writes = new Map<string, string[]>();
  const requests = new Map<string, number>();
  for (const m of run.messages) {
    if (m.openai_tool_call_id === null) continue;
    if (m.recipient === "execution_environment") {
      requests.set(m.openai_tool_call_id, m.sandbox_message_index);
      continue;
    }
    if (m.sender !== "execution_environment") continue;
    const trace = m.tool_trace?.[0];
    results.set(m.openai_tool_call_id, trace ? trace.result : m.content);
    // Parallel calls' changes land together at the first answer: each of them is credited with all.
    const before = run.worldAt(requests.get(m.openai_tool_call_id) ?? m.sandbox_message_index);
    const after = run.worldAt(m.sandbox_message_index);
    writes.set(
      m.openai_tool_call_id,
      before === after ? [] : Object.keys(after).filter((t) => JSON.stringify(before[t]) !== JSON.stringify(after[t])),
    );
  }
  const texts: string[] = [scenario.user.goal, scenario.user.opening, ...scenario.user.knowledge.flatMap((k) => [k.fact, k.value ?? ""])];
  for (const step of scenario.reference) texts.push(...stepStrings(step));
  for (const node of [...scenario.milestones, ...scenario.minefields])
    for (const c of node.constraints) for (const row of c.target) texts.push(...leafStrings(row as unknown as JsonValue));
  const named = new Set(texts.filter((t) => t.length > 0));
  const userSaid = [scenario.user.opening, ...scenario.reference.flatMap((s) => (s.kind === "user_text" ? [s.text] : []))].join("\n");
  return { run, results, writes, named, namedText: [...named].join("\n"), userSaid };
}

/** The strings a step states: its text, or its calls' argument values. */
function stepStrings(step: ReferenceStep): string[] {
  switch (step.kind) {
    case "agent_text":
    case "user_text":
      return [step.text];
    case "agent_calls":
      return step.calls.flatMap((c) => leafStrings(c.arguments as JsonValue));
    default:
      return [];
  }
}

/** String and number leaves of a JSON value, numbers as Python would print an int or a float's repr. */
export function leafStrings(value: JsonValue | undefined): string[] {
  if (value === null || value === undefined || typeof value === "boolean") return [];
  if (typeof value === "string") return [value];
  if (typeof value === "number") return [String(value)];
  if (Array.isArray(value)) return value.flatMap(leafStrings);
  return Object.values(value).flatMap(leafStrings);
}

/** A row the task never names: neither its key nor any of its longer texts appears in what the task states. */
export function rowIsNamed(row: Row, key: string, facts: ReferenceFacts): boolean {
  const id = row[key];
  if (typeof id === "string" && facts.namedText.includes(id)) return true;
  return Object.values(row).some((v) => typeof v === "string" && v.length >= 4 && facts.namedText.includes(v));
}

/** The world tables (not SANDBOX) with their rows, in the world's order. */
export function worldTables(tables: Tables): [string, readonly Row[]][] {
  return Object.entries(tables).filter(([name]) => name !== "SANDBOX");
}

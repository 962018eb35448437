// Whether two adjacent call steps of the reference depend on each other: by data (the later one's
// arguments carry a value only the earlier one returned) or by state (one writes a table the other
// writes, reads in its domain, or needs as a precondition). Swapping dependent steps makes a wrong
// agent; swapping independent ones a right one.
import type { JsonValue } from "../base/json.js";
import { packById } from "../packs/registry.js";
import type { ReferenceStep, Scenario } from "../scenario/model.js";
import { leafStrings, type ReferenceFacts } from "./reference-facts.js";

type CallStep = Extract<ReferenceStep, { kind: "agent_calls" }>;

export function stepsDepend(first: CallStep, second: CallStep, scenario: Scenario, facts: ReferenceFacts): boolean {
  const returned = new Set(
    first.calls.flatMap((c) => leafStrings(facts.results.get(c.id))).filter((v) => v.length >= 2 && !facts.userSaid.includes(v)),
  );
  const usesReturned = second.calls.some((c) => leafStrings(c.arguments as JsonValue).some((v) => returned.has(v)));
  if (usesReturned) return true;
  const tools = packById(scenario.world.pack).tools;
  const touches = (step: CallStep): { writes: Set<string>; domains: Set<string>; needs: Set<string> } => {
    const writes = new Set(step.calls.flatMap((c) => facts.writes.get(c.id) ?? []));
    const defs = step.calls.map((c) => tools.find((t) => t.name === c.tool));
    return {
      writes,
      domains: new Set(defs.flatMap((d) => (d ? [d.domain] : []))),
      needs: new Set(defs.flatMap((d) => d?.stateDependencies.map((s) => s.table) ?? [])),
    };
  };
  const a = touches(first);
  const b = touches(second);
  const overlaps = (x: Set<string>, y: Set<string>): boolean => [...x].some((v) => y.has(v));
  if (overlaps(a.writes, b.writes) || overlaps(a.writes, b.needs) || overlaps(b.writes, a.needs)) return true;
  // A write and a read of the same domain (a search of the contacts just changed) depend on each other.
  return (a.writes.size > 0 || b.writes.size > 0) && overlaps(a.domains, b.domains);
}

// Who should have decided a surviving mutant, who refused a variant, and the fix when it is
// mechanical: a column to add to a target, a measure to tighten or loosen, an `after` edge to drop.
import { evaluate, type EvaluationResult } from "../evaluation/evaluate.js";
import { effectiveMeasures } from "../evaluation/measures/default-measures.js";
import { packTables } from "../packs/tables.js";
import type { Constraint, GoldenTrace, Milestone, Scenario } from "../scenario/model.js";
import { succeeds } from "./catalogue.js";
import type { Candidate } from "./candidate.js";
import { rowDifferences } from "./observe.js";
import type { PlayedRun } from "./play.js";

/**
 * A fix an editor can make in the file, given only where it is correct by construction:
 * - `drop-after`: the refused variant was evaluated without this edge and passed, and dropping an
 *   edge only loosens the order, so the reference still passes (where no milestone writes `after`,
 *   the edit writes the implicit chain out without it);
 * - `call-minefield`: a minefield on an agent's call whose text contains the tool's name, added
 *   only when no call of the reference run has that text (so the reference never steps on it)
 *   and the mutant made such a call (so it is caught).
 */
export type StrengthEdit =
  | { readonly kind: "drop-after"; readonly milestone: string; readonly edge: string }
  | { readonly kind: "call-minefield"; readonly tool: string };

interface Verdict {
  /** The milestone, minefield or `after` edge ("a -> b") that should have decided it or refused it; null when none does. */
  readonly node: string | null;
  /** The fix, when one is mechanical; otherwise what to add. */
  readonly fix: string | null;
  /** The fix as an edit of the file, when one is correct by construction. */
  readonly edit?: StrengthEdit;
}

const isReply = (c: Constraint): boolean =>
  c.table === "SANDBOX" && c.target.some((row) => row.sender === "agent" && row.recipient === "user");

/** The milestone that should have told the mutant from the reference, and how it could. */
export function survivorVerdict(scenario: Scenario, candidate: Candidate, reference: PlayedRun, mutant: PlayedRun): Verdict {
  const { schemas } = packTables(scenario.world.pack);
  const last = (run: PlayedRun) => run.worldAt(run.messages.length);
  const differences = rowDifferences(last(reference), last(mutant));
  // An agent that acts instead of asking is caught by a minefield on that call, whatever the call
  // changed; the fix is an edit when the reference never makes a call that names the tool.
  if (candidate.operator === "act-without-asking" && candidate.call) {
    const tool = candidate.call.tool;
    const verdict = { node: null, fix: `add a minefield on a call to ${tool} (SANDBOX, sender agent, content contains ${tool})` };
    const callsNaming = (run: PlayedRun): boolean =>
      run.messages.some((m) => m.sender === "agent" && m.recipient === "execution_environment" && m.content.includes(tool));
    if (callsNaming(mutant) && !callsNaming(reference)) return { ...verdict, edit: { kind: "call-minefield", tool } };
    if (differences.length === 0) return verdict;
  }
  for (const diff of differences) {
    const watching = scenario.milestones.filter((m) => m.constraints.some((c) => c.table === diff.table));
    const node = watching[0];
    if (node === undefined) {
      const what = candidate.operator === "extra-write" || candidate.operator === "act-without-asking" ? "a minefield" : "a milestone";
      return { node: null, fix: `add ${what} on ${diff.table} (nothing checks that table)` };
    }
    for (const column of diff.columns) {
      for (const m of watching)
        for (const c of m.constraints) {
          if (c.table !== diff.table) continue;
          if (!c.target.some((row) => column in row))
            return { node: m.id, fix: `add column ${column} to milestone ${m.id}'s ${diff.table} target` };
          const measure = effectiveMeasures(c.table, c.measures, schemas.get(c.table))[column];
          if (measure !== undefined && measure.kind !== "exact")
            return { node: m.id, fix: `tighten the measure of ${column} in milestone ${m.id} (now ${measure.kind}) to exact` };
        }
    }
    return { node: node.id, fix: diff.columns.length === 0 ? `add a minefield on rows of ${diff.table} the task never names` : null };
  }
  // Nothing changed in the world: a read's arguments, or what the agent told the user.
  const tool = candidate.call?.tool;
  const argument = candidate.call?.argument ?? null;
  if (tool !== undefined && argument !== null) {
    for (const m of scenario.milestones)
      for (const c of m.constraints) {
        const traces =
          c.table === "SANDBOX" ? c.target.flatMap((row) => (Array.isArray(row.tool_trace) ? (row.tool_trace as GoldenTrace[]) : [])) : [];
        const trace = traces.find((t) => t.tool_name === tool);
        if (trace && !(argument in trace.arguments))
          return { node: m.id, fix: `add argument ${argument} to the ${tool} tool_trace of milestone ${m.id}` };
      }
  }
  const reply = scenario.milestones.find((m) => m.constraints.some(isReply));
  if (reply === undefined)
    return { node: null, fix: "add a milestone on the agent's reply to the user (SANDBOX, sender agent, recipient user, content)" };
  return { node: reply.id, fix: null };
}

/** The node that refused a right agent: an `after` edge when dropping it lets the variant pass, else the node that lost most. */
export function refusalVerdict(scenario: Scenario, reference: EvaluationResult, variant: PlayedRun, result: EvaluationResult): Verdict {
  const { schemas } = packTables(scenario.world.pack);
  const hitMinefield = result.minefields.find((m, i) => m.matched_at !== null && reference.minefields[i]?.matched_at === null);
  if (hitMinefield) return { node: hitMinefield.id, fix: null };
  const lost = result.milestones
    .map((node, i) => ({ node, drop: (reference.milestones[i]?.similarity ?? 0) - node.similarity, milestone: scenario.milestones[i]! }))
    .filter((l) => l.drop > 0)
    .sort((a, b) => b.drop - a.drop);
  for (const milestone of scenario.milestones) {
    for (const edge of milestone.after) {
      const loosened: Scenario = { ...scenario, milestones: scenario.milestones.map((m) => (m === milestone ? withoutEdge(m, edge) : m)) };
      let again: EvaluationResult;
      try {
        again = evaluate(loosened, variant.messages, variant.worldAt, variant.firstUserIndex, { endReason: variant.end?.reason ?? null });
      } catch {
        // Without the edge a constraint would reference a node that is no longer an ancestor: the edge is needed.
        continue;
      }
      if (succeeds(again.score)) {
        const chain = isImplicitChain(scenario);
        return {
          node: `${edge} -> ${milestone.id}`,
          fix: chain
            ? `the milestones form an implicit chain: write after lists, leaving ${edge} out of milestone ${milestone.id}'s`
            : `drop ${edge} from the after list of milestone ${milestone.id}`,
          edit: { kind: "drop-after", milestone: milestone.id, edge },
        };
      }
    }
  }
  const worst = lost[0];
  if (worst === undefined) return { node: null, fix: null };
  const weakest = worst.node.constraints.map((c) => c.explanation.weakest).find((w) => w !== null) ?? null;
  const constraint = worst.milestone.constraints.find((c) => weakest !== null && c.target.some((row) => weakest.column in row));
  if (weakest && constraint) {
    const measure = effectiveMeasures(constraint.table, constraint.measures, schemas.get(constraint.table))[weakest.column];
    if (measure?.kind === "exact" || measure?.kind === "rouge_l")
      return {
        node: worst.node.id,
        fix: `loosen the measure of ${weakest.column} in milestone ${worst.node.id} (now ${measure.kind}): contains, on the value it must state`,
      };
  }
  return { node: worst.node.id, fix: null };
}

/** Without any `after` written the milestones are a chain in order: then the edge is implicit, and the fix writes the lists out. */
function isImplicitChain(scenario: Scenario): boolean {
  return scenario.milestones.every((m, i) =>
    i === 0 ? m.after.length === 0 : m.after.length === 1 && m.after[0] === scenario.milestones[i - 1]!.id,
  );
}

function withoutEdge(m: Milestone, edge: string): Milestone {
  return { ...m, after: m.after.filter((a) => a !== edge) };
}

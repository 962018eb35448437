// "What had matched by message i": the evaluation of every prefix of one run, as the debugger and
// the panel ask for it at each stop. A prefix is scored exactly as evaluate() scores the messages
// 0..i on their own (the tests compare the two at every prefix), but the preparation is made once
// for the whole run: the state keys of each table, the guardrail classes and the memo of every
// constraint's similarity (node-scorer.ts) are kept from one prefix to the next, so a later prefix
// only scores what the earlier ones never asked about. Results are kept per prefix, so a stop
// that comes back to a message (Step Back, Reverse Continue, a second look at the Milestones
// scope) answers at once.
import type { EndReason, Message } from "../episode/types.js";
import type { Scenario } from "../scenario/model.js";
import type { Tables } from "../world/types.js";
import { type PreparedScoring, prefixAssignment, prepareScoring, scorePrefix } from "./evaluate.js";
import type { EvaluationResult } from "./result.js";
import type { ScoringProgressSink } from "./scoring-progress.js";

/** The ids matched exactly at a prefix's last message: what a milestone breakpoint or the minefield filter asks. */
export interface MatchedHere {
  readonly milestones: readonly string[];
  readonly minefields: readonly string[];
}

/** Whole results kept (the Milestones scope of the last few stops); the small MatchedHere is kept for every prefix. */
const RESULTS_KEPT = 64;

export class PrefixEvaluation {
  private readonly prepared: PreparedScoring;
  private readonly results = new Map<number, EvaluationResult>();
  private readonly here = new Map<number, MatchedHere>();

  /**
   * `messages` is the whole run as far as it is known; `endReason` how it ended (null while it
   * runs), which only the last message's prefix reads.
   */
  constructor(
    scenario: Scenario,
    messages: readonly Message[],
    worldAt: (index: number) => Tables,
    firstUserIndex: number,
    private readonly endReason: EndReason | null,
  ) {
    this.prepared = prepareScoring(scenario, messages, worldAt, firstUserIndex);
    this.messageCount = messages.length;
  }

  /**
   * The messages known when this was made. A live episode's list grows in place, so its length
   * is read here once: the caller compares it with the list's length to know when to prepare again.
   */
  readonly messageCount: number;

  /**
   * The evaluation of messages 0..last. Throws EvaluationError for milestones that cannot be
   * scored. `onProgress` hears the matcher's placements when the prefix is scored now.
   */
  at(last: number, onProgress?: ScoringProgressSink): EvaluationResult {
    const known = this.results.get(last);
    if (known) {
      // Most recently used last, so the oldest is the one let go.
      this.results.delete(last);
      this.results.set(last, known);
      return known;
    }
    const endReason = last === this.messageCount - 1 ? this.endReason : null;
    const result = scorePrefix(this.prepared, last, { endReason, ...(onProgress ? { onProgress } : {}) });
    this.results.set(last, result);
    if (this.results.size > RESULTS_KEPT) this.results.delete(this.results.keys().next().value!);
    this.here.set(last, matchedHere(result, last));
    return result;
  }

  /**
   * Which nodes the prefix 0..last matches at `last` itself. Only the matching is run, not the
   * explanations: a step with a milestone breakpoint asks this at every message it passes.
   * `onProgress` hears the matcher's placements when the prefix is matched now.
   */
  matchedHere(last: number, onProgress?: ScoringProgressSink): MatchedHere {
    const known = this.here.get(last);
    if (known) return known;
    const { milestones, minefields } = prefixAssignment(this.prepared, last, onProgress);
    const ids = (nodes: readonly { id: string }[], at: readonly (number | null)[]): string[] =>
      nodes.filter((_, v) => at[v] === last).map((n) => n.id);
    const here = {
      milestones: ids(this.prepared.milestones.nodes, milestones),
      minefields: ids(this.prepared.minefields.nodes, minefields),
    };
    this.here.set(last, here);
    return here;
  }
}

export function matchedHere(result: EvaluationResult, last: number): MatchedHere {
  const ids = (nodes: EvaluationResult["milestones"]): string[] => nodes.filter((n) => n.matched_at === last).map((n) => n.id);
  return { milestones: ids(result.milestones), minefields: ids(result.minefields) };
}

// The evaluation of one episode (reference 5): the automatic guardrails are added, every
// milestone and minefield is matched to a message by the exact matcher (guardrails against a
// milestone as its gates, node-scorer.ts), and the result says where each matched and why. It reads only the messages and the world at each message, so a
// saved trajectory is scored exactly like a live episode, against its own scenario or a newer one.
import type { EndReason, Message } from "../episode/types.js";
import type { Milestone, Scenario } from "../scenario/model.js";
import { effectiveTurnCount } from "./turn-count.js";
import type { Tables } from "../world/types.js";
import { packTables } from "../packs/tables.js";
import { automaticGuardrails } from "./guardrails.js";
import { bestMatch, type MatchProblem, type MatchResult } from "./matching/index.js";
import { NodeScorer, StateCache } from "./node-scorer.js";
import type { EvaluationResult, NodeResult } from "./result.js";
import type { ScoringProgressSink } from "./scoring-progress.js";

export type { EvaluationResult } from "./result.js";

/** The scenario's milestones or minefields cannot be scored (a trajectory not checked by the scenario checker). */
export class EvaluationError extends Error {
  override readonly name = "EvaluationError";
}

interface EvaluateOptions {
  /** How the episode ended; an invalid tool call in `invalid_tool_call: end` mode scores 0 (upstream crashes). */
  readonly endReason?: EndReason | null;
  /** Told each time the matcher places a node, and the matcher's lines for a long match (instead of standard error). */
  readonly onProgress?: ScoringProgressSink;
}

/**
 * Scores an episode. Candidate messages run from `firstUserIndex` (the opening user message,
 * which is also the "initial" state) to the last message; `worldAt(i)` is the world at message i.
 */
export function evaluate(
  scenario: Scenario,
  messages: readonly Message[],
  worldAt: (index: number) => Tables,
  firstUserIndex: number,
  options: EvaluateOptions = {},
): EvaluationResult {
  return scorePrefix(prepareScoring(scenario, messages, worldAt, firstUserIndex), messages.length - 1, options);
}

/**
 * What scoring an episode builds before any matching: the state cache and each list's scorer. It
 * reads the message at an index and the world there, never a later message, so one preparation
 * over a whole run scores every prefix of it (prefix-evaluation.ts): the similarities computed
 * for one prefix are kept for the next.
 */
export interface PreparedScoring {
  readonly scenario: Scenario;
  readonly messages: readonly Message[];
  readonly firstUserIndex: number;
  readonly milestones: PreparedList;
  readonly minefields: PreparedList;
}

interface PreparedList {
  readonly nodes: readonly Milestone[];
  readonly edges: [number, number][];
  /** Built on first use: a run that stops before the opening message needs none. */
  scorer(): NodeScorer;
  /**
   * The best matches of the last few prefixes, by the prefix's last index (the window's first is
   * the same for every prefix of one run). A debugger stop asks the matches alone, then the
   * whole evaluation of the same prefix; the second reuses the first's matching, most of its cost.
   */
  readonly matches: Map<number, MatchResult>;
}

/** Best matches kept per list: a stop's two questions, and a step back and forth. */
const MATCHES_KEPT = 8;

export function prepareScoring(
  scenario: Scenario,
  messages: readonly Message[],
  worldAt: (index: number) => Tables,
  firstUserIndex: number,
): PreparedScoring {
  const { schemas } = packTables(scenario.world.pack);
  const states = new StateCache({ messages, worldAt, initialIndex: firstUserIndex, schemas });
  // Guardrails watching "every world table" watch the pack's tables, in the pack's order.
  const worldTables = [...schemas.keys()];
  const prepare = (nodes: readonly Milestone[], noun: string): PreparedList => {
    const edges = nodes.length === 0 ? [] : checkedEdges(nodes, noun);
    let scorer: NodeScorer | null = null;
    return {
      nodes,
      edges,
      scorer: () => (scorer ??= new NodeScorer(nodes, automaticGuardrails(nodes, worldTables), states)),
      matches: new Map(),
    };
  };
  return {
    scenario,
    messages,
    firstUserIndex,
    milestones: prepare(scenario.milestones, "milestone"),
    minefields: prepare(scenario.minefields, "minefield"),
  };
}

/** The evaluation of the prepared run's messages 0..last, equal to evaluate() of that prefix. */
export function scorePrefix(prepared: PreparedScoring, last: number, options: EvaluateOptions = {}): EvaluationResult {
  const { scenario, firstUserIndex } = prepared;
  const messages = last === prepared.messages.length - 1 ? prepared.messages : prepared.messages.slice(0, last + 1);
  const window = firstUserIndex < messages.length ? { first: firstUserIndex, last: messages.length - 1 } : null;
  const progress = listProgress(prepared, options.onProgress);
  const milestones = scoreList(prepared.milestones, window, progress(0));
  const minefields = scoreList(prepared.minefields, window, progress(prepared.milestones.nodes.length));

  const milestoneScore = milestones.nodes.length === 0 ? 1 : milestones.total / milestones.nodes.length;
  const minefieldScore = minefields.nodes.length === 0 ? 0 : minefields.total / minefields.nodes.length;
  const crashed = options.endReason === "invalid_tool_call" && scenario.options.invalid_tool_call === "end";
  const hit = minefields.nodes.find((m) => m.matched_at !== null);
  const zeroReason = crashed
    ? "the episode ended on an invalid tool call (options.invalid_tool_call: end), where upstream's run crashes and scores 0"
    : hit
      ? `minefield "${hit.id}" matched at message ${hit.matched_at}`
      : null;
  return {
    score: zeroReason === null ? milestoneScore : 0,
    milestone_score: milestoneScore,
    minefield_score: minefieldScore,
    turn_count: crashed ? scenario.max_messages : effectiveTurnCount(messages),
    zero_reason: zeroReason,
    window,
    milestones: milestones.nodes,
    minefields: minefields.nodes,
  };
}

/** Where each node of the two lists is matched in the prefix 0..last (null: not matched). */
interface PrefixAssignment {
  readonly milestones: readonly (number | null)[];
  readonly minefields: readonly (number | null)[];
}

/**
 * The matches scorePrefix reports for the prefix 0..last, without what explains them (the
 * constraint results and the closest miss of each unmatched node, most of a prefix's cost): all
 * a milestone breakpoint asks at each step.
 */
export function prefixAssignment(prepared: PreparedScoring, last: number, onProgress?: ScoringProgressSink): PrefixAssignment {
  const window = prepared.firstUserIndex <= last ? { first: prepared.firstUserIndex, last } : null;
  const progress = listProgress(prepared, onProgress);
  const placed = (list: PreparedList, report: ListProgress | null): (number | null)[] => {
    if (list.nodes.length === 0) return [];
    if (window === null) return list.nodes.map(() => null);
    const match = matchList(list, window, report);
    return list.nodes.map((_, v) => {
      const { index, similarity } = match.assignment[v]!;
      return similarity > 0 ? index : null;
    });
  };
  return {
    milestones: placed(prepared.milestones, progress(0)),
    minefields: placed(prepared.minefields, progress(prepared.milestones.nodes.length)),
  };
}

/** Each list's share of the progress of scoring both, for the sink (none without one). */
function listProgress(prepared: PreparedScoring, sink: ScoringProgressSink | undefined): (before: number) => ListProgress | null {
  const of = prepared.milestones.nodes.length + prepared.minefields.nodes.length;
  return (before) =>
    sink === undefined ? null : (placed, line) => sink({ placed: before + placed, of, milestones: prepared.milestones.nodes.length, line });
}

/**
 * What scoring needs of a saved run. The trajectory layer sits above this one (a trajectory file
 * carries its evaluation line), so a `Trajectory` is taken by its shape, not by its class.
 */
interface ScorableRun {
  readonly header: { readonly scenario: Scenario };
  readonly messages: readonly Message[];
  readonly endReason: EndReason | null;
  worldAt(index: number): Tables;
}

/** Scores a saved trajectory against its own scenario, or against `scenario` (a newer version). */
export function evaluateTrajectory(
  trajectory: ScorableRun,
  scenario: Scenario = trajectory.header.scenario,
  onProgress?: ScoringProgressSink,
): EvaluationResult {
  return evaluate(scenario, trajectory.messages, (i) => trajectory.worldAt(i), firstUserMessageIndex(trajectory.messages), {
    endReason: trajectory.endReason,
    ...(onProgress ? { onProgress } : {}),
  });
}

/**
 * The index of the opening user message: the last of the scripted messages the episode starts
 * with (system prompt, demonstrations, the user's instructions, the opening). 0 without any.
 */
export function firstUserMessageIndex(messages: readonly Message[]): number {
  let index = 0;
  while (index + 1 < messages.length && messages[index + 1]!.scripted === true) index++;
  return index;
}

interface ScoredList {
  /** Sum of the best similarities, as the matcher added them. */
  readonly total: number;
  readonly nodes: NodeResult[];
}

/** One list's share of the progress: nodes placed in it, and the matcher's line (null on a placement). */
type ListProgress = (placed: number, line: string | null) => void;

/** The list's exact best match over the window, telling `progress` of each node placed. */
function matchList(list: PreparedList, window: NonNullable<EvaluationResult["window"]>, progress: ListProgress | null): MatchResult {
  const known = list.matches.get(window.last);
  if (known) return known;
  let placed = 0;
  const reporting: Pick<MatchProblem, "onPlaced" | "onProgress"> = progress
    ? {
        onPlaced: (count) => {
          placed = count;
          progress(count, null);
        },
        onProgress: (line) => progress(placed, line),
      }
    : {};
  // Exact whatever the size: the matcher never refuses (matching-strategy.ts).
  const match = bestMatch({ ...matchProblem(list.scorer(), list.edges, window), ...reporting });
  list.matches.set(window.last, match);
  if (list.matches.size > MATCHES_KEPT) list.matches.delete(list.matches.keys().next().value!);
  return match;
}

function scoreList(list: PreparedList, window: EvaluationResult["window"], progress: ListProgress | null): ScoredList {
  const { nodes } = list;
  if (nodes.length === 0) return { total: 0, nodes: [] };
  if (window === null) {
    // The episode stopped before the opening message: nothing can match.
    const unmatched = nodes.map(
      (n): NodeResult => ({ id: n.id, matched_at: null, explained_at: null, similarity: 0, constraints: [], guardrails: [] }),
    );
    return { total: 0, nodes: unmatched };
  }
  const scorer = list.scorer();
  const match = matchList(list, window, progress);
  const matchedIndex = (u: number): number => match.assignment[u]!.index;
  const results = nodes.map((node, v): NodeResult => {
    const { index, similarity } = match.assignment[v]!;
    const matched = similarity > 0;
    const at = matched ? index : scorer.closestMiss(v, window.first, window.last, matchedIndex);
    return { id: node.id, matched_at: matched ? index : null, explained_at: at, similarity, ...scorer.results(v, at, matchedIndex) };
  });
  return { total: match.total, nodes: results };
}

/**
 * The matching problem of one node list: its DAG, each node's similarity (written constraints
 * and guardrails against the initial state) and references, and its guardrails against
 * milestones as gates. Exported for the evaluation bench, which reports the method used.
 */
export function listMatchProblem(
  nodes: readonly Milestone[],
  noun: string,
  worldTables: readonly string[],
  states: StateCache,
  window: { readonly first: number; readonly last: number },
): { problem: MatchProblem; scorer: NodeScorer } {
  const edges = checkedEdges(nodes, noun);
  const scorer = new NodeScorer(nodes, automaticGuardrails(nodes, worldTables), states);
  return { problem: matchProblem(scorer, edges, window), scorer };
}

function matchProblem(
  scorer: NodeScorer,
  edges: readonly (readonly [number, number])[],
  window: { readonly first: number; readonly last: number },
): MatchProblem {
  return {
    nodeCount: scorer.references.length,
    edges,
    references: scorer.references,
    gates: scorer.gates,
    lo: window.first,
    hi: window.last,
    similarity: (node, index, refIndex) => scorer.similarity(node, index, refIndex),
    similarityRow: (node, refIndex, first, count, out, offset) => scorer.similarityRow(node, refIndex, first, count, out, offset),
    sameAsPrevious: (index) => scorer.sameAsPrevious(index),
    classes: scorer.classes(),
  };
}

/**
 * The DAG edges [parent, child] by list position, after the checks the scenario checker makes
 * on authored files (a saved trajectory's scenario has only passed the schema): known ids, no
 * cycle, and every referenced node an ancestor, so it is matched before it is read.
 */
function checkedEdges(nodes: readonly Milestone[], noun: string): [number, number][] {
  const position = new Map<string, number>();
  nodes.forEach((n, i) => {
    if (position.has(n.id)) throw new EvaluationError(`two ${noun}s have the id "${n.id}"`);
    position.set(n.id, i);
  });
  const find = (id: string, from: Milestone): number => {
    const at = position.get(id);
    if (at === undefined) throw new EvaluationError(`${noun} "${from.id}" refers to "${id}", which is not a ${noun}`);
    return at;
  };
  const edges = nodes.flatMap((n, v) => n.after.map((id): [number, number] => [find(id, n), v]));
  const ancestors = ancestorSets(nodes.length, edges, noun, nodes);
  nodes.forEach((n, v) => {
    for (const c of n.constraints) {
      if (c.reference?.kind !== "milestone") continue;
      const u = find(c.reference.id, n);
      if (!ancestors[v]!.has(u)) {
        throw new EvaluationError(`${noun} "${n.id}" references "${c.reference.id}", which is not one of its ancestors`);
      }
    }
  });
  return edges;
}

/** Each node's strict ancestors; throws on a cycle. */
function ancestorSets(count: number, edges: readonly [number, number][], noun: string, nodes: readonly Milestone[]): Set<number>[] {
  const parents = Array.from({ length: count }, () => [] as number[]);
  for (const [u, v] of edges) parents[v]!.push(u);
  const state = new Array<"new" | "open" | "done">(count).fill("new");
  const ancestors = Array.from({ length: count }, () => new Set<number>());
  const visit = (v: number): void => {
    if (state[v] === "done") return;
    if (state[v] === "open") throw new EvaluationError(`the ${noun}s' \`after\` edges form a cycle through "${nodes[v]!.id}"`);
    state[v] = "open";
    for (const u of parents[v]!) {
      visit(u);
      ancestors[v]!.add(u);
      for (const a of ancestors[u]!) ancestors[v]!.add(a);
    }
    state[v] = "done";
  };
  for (let v = 0; v < count; v++) visit(v);
  return ancestors;
}

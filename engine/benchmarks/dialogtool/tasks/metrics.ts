// Turn scores summed into DialogTool's Table 3 columns, per scenario and over many (sums of counts,
// so an aggregate weighs every turn alike: a long conversation counts for its turns).
import type { DialogToolMetrics, ScoredDialogToolTurn, Tally, TurnScores } from "./types.js";

function tally(correct: number, total: number): Tally {
  return { correct, total, accuracy: total === 0 ? null : correct / total };
}

const mean = (values: readonly number[]): number | null => (values.length === 0 ? null : values.reduce((a, b) => a + b, 0) / values.length);

export function metricsOfScores(scores: readonly TurnScores[]): DialogToolMetrics {
  const toolTurns = scores.filter((s) => s.selection !== undefined);
  const replyTurns = scores.filter((s) => s.bleu !== undefined);
  const count = (pick: (s: TurnScores) => boolean | undefined): number => scores.filter((s) => pick(s) === true).length;
  const sum = (pick: (s: TurnScores) => { correct: number; total: number } | undefined): [number, number] =>
    scores.reduce<[number, number]>(([c, t], s) => [c + (pick(s)?.correct ?? 0), t + (pick(s)?.total ?? 0)], [0, 0]);
  return {
    turns: scores.length,
    awareness: tally(
      count((s) => s.awareness),
      scores.length,
    ),
    selection: tally(
      count((s) => s.selection),
      toolTurns.length,
    ),
    execution: tally(
      count((s) => s.execution),
      toolTurns.length,
    ),
    calls: tally(...sum((s) => s.calls)),
    arguments: tally(...sum((s) => s.arguments)),
    response: {
      turns: replyTurns.length,
      bleu: mean(replyTurns.map((s) => s.bleu ?? 0)),
      rouge_l: mean(replyTurns.map((s) => s.rouge_l ?? 0)),
    },
  };
}

export function metricsOfTurns(turns: readonly ScoredDialogToolTurn[]): DialogToolMetrics {
  return metricsOfScores(turns.map((t) => t.scores));
}

/** By dialogue turn depth: DialogTool reports that accuracy decays with it. */
export function metricsByDepth(
  turns: readonly ScoredDialogToolTurn[],
): { readonly dialogue_turn: number; readonly metrics: DialogToolMetrics }[] {
  const depths = [...new Set(turns.map((t) => t.dialogue_turn))].sort((a, b) => a - b);
  return depths.map((d) => ({ dialogue_turn: d, metrics: metricsOfTurns(turns.filter((t) => t.dialogue_turn === d)) }));
}

/** By app (packs/<pack>/apps.ts): the tool turns that called a tool of the app, as DialogTool breaks its figures down by app. */
export function metricsByApp(turns: readonly ScoredDialogToolTurn[]): { readonly app: string; readonly metrics: DialogToolMetrics }[] {
  const apps = [...new Set(turns.flatMap((t) => t.apps))].sort();
  return apps.map((app) => ({ app, metrics: metricsOfTurns(turns.filter((t) => t.apps.includes(app))) }));
}

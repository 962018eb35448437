// Turn scores summed into DialogTool's Table 3 columns, per scenario and over many (sums of counts,
// so an aggregate weighs every turn alike: a long conversation counts for its turns), with the
// action confusion matrix, confirmation, App/API/Argument accuracy by selection setting, and the
// error analyses.
import { NO_MISMATCHES } from "./argument-errors.js";
import type {
  ArgumentKind,
  DialogToolErrorAnalysis,
  DialogToolMetrics,
  Rate,
  ScoredDialogToolTurn,
  SelectionSetting,
  Tally,
  TurnScores,
} from "./types.js";

function tally(correct: number, total: number): Tally {
  return { correct, total, accuracy: total === 0 ? null : correct / total };
}

function rate(count: number, total: number): Rate {
  return { count, total, rate: total === 0 ? null : count / total };
}

const mean = (values: readonly number[]): number | null => (values.length === 0 ? null : values.reduce((a, b) => a + b, 0) / values.length);

interface Scored {
  readonly scores: TurnScores;
  readonly truth_action?: string;
  readonly action_choice?: { readonly chosen: string | null };
}

function metricsOf(turns: readonly Scored[]): DialogToolMetrics {
  const scores = turns.map((t) => t.scores);
  const toolTurns = scores.filter((s) => s.selection !== undefined);
  const replyTurns = scores.filter((s) => s.bleu !== undefined);
  const count = (pick: (s: TurnScores) => boolean | undefined, over: readonly TurnScores[] = scores): number =>
    over.filter((s) => pick(s) === true).length;
  const sum = (pick: (s: TurnScores) => { correct: number; total: number } | undefined): [number, number] =>
    scores.reduce<[number, number]>(([c, t], s) => [c + (pick(s)?.correct ?? 0), t + (pick(s)?.total ?? 0)], [0, 0]);
  const hierarchical = toolTurns.filter((s) => s.hierarchical !== undefined);
  const flat: SelectionSetting = {
    app: tally(
      count((s) => s.app, toolTurns),
      toolTurns.length,
    ),
    api: tally(
      count((s) => s.selection, toolTurns),
      toolTurns.length,
    ),
    argument: tally(
      count((s) => s.execution, toolTurns),
      toolTurns.length,
    ),
  };
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
    ...actionMetrics(turns),
    confirmation: tally(...sum((s) => s.confirmation)),
    selection_settings: {
      flat,
      ...(hierarchical.length > 0
        ? {
            hierarchical: {
              app: tally(
                count((s) => s.hierarchical?.app, hierarchical),
                hierarchical.length,
              ),
              api: tally(
                count((s) => s.hierarchical?.api, hierarchical),
                hierarchical.length,
              ),
              argument: tally(
                count((s) => s.hierarchical?.argument, hierarchical),
                hierarchical.length,
              ),
            },
          }
        : {}),
    },
    errors: errorAnalysis(scores),
  };
}

/** The action chosen against the reference's, with the confusion matrix; absent when no turn was asked. */
function actionMetrics(turns: readonly Scored[]): Pick<DialogToolMetrics, "actions"> {
  const asked = turns.filter((t) => t.action_choice !== undefined && t.truth_action !== undefined);
  if (asked.length === 0) return {};
  const confusion: Record<string, Record<string, number>> = {};
  for (const t of asked) {
    const truth = t.truth_action ?? "";
    const chosen = t.action_choice?.chosen ?? "unparsed";
    const row = confusion[truth] ?? {};
    row[chosen] = (row[chosen] ?? 0) + 1;
    confusion[truth] = row;
  }
  // Keys sorted, so the same turns give the same bytes whatever order they came in.
  const sorted = Object.fromEntries(
    Object.keys(confusion)
      .sort()
      .map((k) => [k, Object.fromEntries(Object.entries(confusion[k] ?? {}).sort(([a], [b]) => a.localeCompare(b)))]),
  );
  return { actions: { tally: tally(asked.filter((t) => t.scores.action === true).length, asked.length), confusion: sorted } };
}

function errorAnalysis(scores: readonly TurnScores[]): DialogToolErrorAnalysis {
  const toolTurns = scores.filter((s) => s.selection !== undefined);
  const replyTurns = scores.filter((s) => s.bleu !== undefined);
  const total = (pick: (s: TurnScores) => number | undefined): number => scores.reduce((n, s) => n + (pick(s) ?? 0), 0);
  const mismatched: Record<ArgumentKind, number> = { ...NO_MISMATCHES };
  for (const s of scores) {
    for (const kind of Object.keys(mismatched) as ArgumentKind[]) mismatched[kind] += s.errors.mismatched_arguments?.[kind] ?? 0;
  }
  return {
    awareness: {
      false_negatives: rate(toolTurns.filter((s) => !s.awareness).length, toolTurns.length),
      false_positives: rate(replyTurns.filter((s) => !s.awareness).length, replyTurns.length),
    },
    selection: {
      recall: tally(
        total((s) => s.errors.recalled),
        total((s) => s.calls?.total),
      ),
      parse_errors: total((s) => s.errors.parse_errors),
      unnecessary_calls: total((s) => s.errors.unnecessary_calls),
    },
    execution: {
      arguments: total((s) => s.arguments?.total),
      missing: total((s) => s.errors.missing_arguments),
      extra: total((s) => s.errors.extra_arguments),
      mismatched,
    },
  };
}

export function metricsOfTurns(turns: readonly ScoredDialogToolTurn[]): DialogToolMetrics {
  return metricsOf(turns);
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

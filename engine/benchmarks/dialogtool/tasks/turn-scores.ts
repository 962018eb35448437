// One agent turn scored on DialogTool's utilization tasks (awareness, selection, execution), on
// response generation (BLEU, ROUGE-L), on the action chosen (`--awareness actions`), on
// confirmation before transactional calls, on App/API/Argument accuracy in either selection
// setting, and counted for the error analyses. Comparison is exact: the same tool name, and each
// argument the same JSON value (DialogTool asks for every required argument right, in the right format).
import { isDeepStrictEqual } from "node:util";
import { rougeLF } from "../../../evaluation/rouge.js";
import { appOfTool, argumentErrors, pairCalls, toolDefinition } from "./argument-errors.js";
import { sentenceBleu } from "./bleu.js";
import type { ActionCall, AgentAction, DialogToolTurn, TurnErrors, TurnScores } from "./types.js";

export function scoreTurn(turn: DialogToolTurn): TurnScores {
  const { truth, prediction } = turn;
  const awareness = prediction.kind === truth.kind;
  const predicted = prediction.kind === "calls" ? prediction.calls : [];
  const common = {
    awareness,
    ...(turn.action_choice ? { action: turn.action_choice.chosen !== null && turn.action_choice.chosen === turn.truth_action } : {}),
    ...confirmation(turn, predicted),
  };
  if (truth.kind === "text") {
    const reply = prediction.kind === "text" ? prediction.text : "";
    // A turn that called a tool where a reply was due has no reply to score: 0 on both.
    return {
      ...common,
      bleu: prediction.kind === "text" ? sentenceBleu(reply, [truth.text]).score : 0,
      rouge_l: prediction.kind === "text" ? rougeLF(truth.text, reply) : 0,
      errors: callErrors([], predicted),
    };
  }
  const { selection, execution } = toolTasks(truth.calls, prediction);
  const args = argumentErrors(truth.calls, predicted);
  return {
    ...common,
    selection,
    execution,
    calls: { correct: exactCalls(truth.calls, predicted), total: truth.calls.length },
    arguments: argumentCounts(truth.calls, predicted),
    app: sameApps(truth.calls, predicted),
    ...(turn.hierarchical ? { hierarchical: hierarchicalScores(truth.calls, turn.hierarchical.apps, turn.hierarchical.prediction) } : {}),
    errors: {
      ...callErrors(truth.calls, predicted),
      recalled: pairCalls(truth.calls, predicted).filter((p) => p.agent !== null).length,
      missing_arguments: args.missing,
      extra_arguments: args.extra,
      mismatched_arguments: args.mismatched,
    },
  };
}

function toolTasks(truth: readonly ActionCall[], prediction: AgentAction): { selection: boolean; execution: boolean } {
  const predicted = prediction.kind === "calls" ? prediction.calls : [];
  return {
    selection: sameToolCounts(truth, predicted),
    execution: exactCalls(truth, predicted) === truth.length && predicted.length === truth.length,
  };
}

const appsOf = (calls: readonly ActionCall[]): string[] => [...new Set(calls.map((c) => appOfTool(c.tool) ?? `?${c.tool}`))].sort();

function sameApps(truth: readonly ActionCall[], predicted: readonly ActionCall[]): boolean {
  return isDeepStrictEqual(appsOf(truth), appsOf(predicted));
}

/** The hierarchical setting: the apps chosen first, then API and Argument accuracy of what the agent did with their tools. */
function hierarchicalScores(
  truth: readonly ActionCall[],
  apps: readonly string[] | null,
  prediction: AgentAction,
): { app: boolean; api: boolean; argument: boolean } {
  const { selection, execution } = toolTasks(truth, prediction);
  return { app: apps !== null && isDeepStrictEqual([...apps].sort(), appsOf(truth)), api: selection, argument: execution };
}

/**
 * The agent's transactional calls, each right when the user's go-ahead covers its tool at this
 * turn. Absent when the turn carries no transactional facts or the agent made no such call.
 */
function confirmation(turn: DialogToolTurn, predicted: readonly ActionCall[]): Pick<TurnScores, "confirmation"> {
  const transactional = new Set(turn.transactional ?? []);
  const made = predicted.filter((c) => transactional.has(c.tool));
  if (made.length === 0) return {};
  const goAhead = new Set(turn.go_ahead ?? []);
  return { confirmation: { correct: made.filter((c) => goAhead.has(c.tool)).length, total: made.length } };
}

/** Parse errors, and calls beyond the reference's (a tool not among the reference's calls still unmatched). */
function callErrors(truth: readonly ActionCall[], predicted: readonly ActionCall[]): TurnErrors {
  const left = truth.map((c) => c.tool);
  let unnecessary = 0;
  for (const call of predicted) {
    const at = left.indexOf(call.tool);
    if (at >= 0) left.splice(at, 1);
    else unnecessary++;
  }
  const parse = predicted.filter((c) => c.arguments === null || toolDefinition(c.tool) === undefined).length;
  return { parse_errors: parse, unnecessary_calls: unnecessary };
}

function sameToolCounts(truth: readonly ActionCall[], predicted: readonly ActionCall[]): boolean {
  const names = (calls: readonly ActionCall[]): string[] => calls.map((c) => c.tool).sort();
  return isDeepStrictEqual(names(truth), names(predicted));
}

/** Reference calls the agent made exactly (each predicted call matches one reference call at most). */
function exactCalls(truth: readonly ActionCall[], predicted: readonly ActionCall[]): number {
  const used = new Set<number>();
  let correct = 0;
  for (const call of truth) {
    const match = predicted.findIndex(
      (p, i) => !used.has(i) && p.tool === call.tool && p.arguments !== null && isDeepStrictEqual(p.arguments, call.arguments),
    );
    if (match >= 0) {
      used.add(match);
      correct++;
    }
  }
  return correct;
}

/**
 * The reference's arguments the agent gave right. Each reference call is put next to the agent's
 * call of the same tool that gets most of its arguments right (each agent call used once), so a
 * call with one wrong argument still counts its other arguments.
 */
function argumentCounts(truth: readonly ActionCall[], predicted: readonly ActionCall[]): { correct: number; total: number } {
  const pairs = pairCalls(truth, predicted);
  return {
    correct: pairs.reduce((n, p) => n + p.right, 0),
    total: truth.reduce((n, c) => n + Object.keys(c.arguments ?? {}).length, 0),
  };
}

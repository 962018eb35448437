// One agent turn scored on DialogTool's utilization tasks (awareness, selection, execution) and on
// response generation (BLEU, ROUGE-L). Comparison is exact: the same tool name, and each argument
// the same JSON value (DialogTool asks for every required argument right, in the right format).
import { isDeepStrictEqual } from "node:util";
import type { JsonValue } from "../../../base/json.js";
import { rougeLF } from "../../../evaluation/rouge.js";
import { sentenceBleu } from "./bleu.js";
import type { ActionCall, DialogToolTurn, TurnScores } from "./types.js";

export function scoreTurn(turn: DialogToolTurn): TurnScores {
  const { truth, prediction } = turn;
  const awareness = prediction.kind === truth.kind;
  if (truth.kind === "text") {
    const reply = prediction.kind === "text" ? prediction.text : "";
    // A turn that called a tool where a reply was due has no reply to score: 0 on both.
    return {
      awareness,
      bleu: prediction.kind === "text" ? sentenceBleu(reply, [truth.text]).score : 0,
      rouge_l: prediction.kind === "text" ? rougeLF(truth.text, reply) : 0,
    };
  }
  const predicted = prediction.kind === "calls" ? prediction.calls : [];
  const calls = exactCalls(truth.calls, predicted);
  return {
    awareness,
    selection: sameToolCounts(truth.calls, predicted),
    execution: calls === truth.calls.length && predicted.length === truth.calls.length,
    calls: { correct: calls, total: truth.calls.length },
    arguments: argumentCounts(truth.calls, predicted),
  };
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

function rightArguments(truth: Readonly<Record<string, JsonValue>>, predicted: ActionCall["arguments"]): number {
  if (predicted === null) return 0;
  return Object.entries(truth).filter(([name, value]) => Object.hasOwn(predicted, name) && isDeepStrictEqual(predicted[name], value))
    .length;
}

/**
 * The reference's arguments the agent gave right. Each reference call is put next to the agent's
 * call of the same tool that gets most of its arguments right (each agent call used once), so a
 * call with one wrong argument still counts its other arguments.
 */
function argumentCounts(truth: readonly ActionCall[], predicted: readonly ActionCall[]): { correct: number; total: number } {
  const used = new Set<number>();
  let correct = 0;
  let total = 0;
  for (const call of truth) {
    const args = call.arguments ?? {};
    total += Object.keys(args).length;
    let best = -1;
    let bestRight = -1;
    predicted.forEach((p, i) => {
      if (used.has(i) || p.tool !== call.tool) return;
      const right = rightArguments(args, p.arguments);
      if (right > bestRight) {
        best = i;
        bestRight = right;
      }
    });
    if (best >= 0) {
      used.add(best);
      correct += bestRight;
    }
  }
  return { correct, total };
}

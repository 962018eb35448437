// DialogTool's per-turn scores of the shown run, as the host sends them (computed by the engine
// from the trajectory and its scenario). Checked field by field: the actions carry the model's
// own arguments and replies.
import type { DialogToolReport } from "../../../engine/benchmarks/dialogtool/tasks/trajectory-turns.js";
import type {
  ActionCall,
  AgentAction,
  DialogToolMetrics,
  ScoredDialogToolTurn,
  Tally,
  TurnScores,
} from "../../../engine/benchmarks/dialogtool/tasks/types.js";
import { bool, finite, index, jsonObject, list, nullable, prop, record, str, WireError, type Reader } from "./check.js";

const call: Reader<ActionCall> = (value, path) => {
  const o = record(value, path);
  return { tool: str(prop(o, "tool"), `${path}/tool`), arguments: nullable(jsonObject)(prop(o, "arguments"), `${path}/arguments`) };
};

function action(value: unknown, path: string): AgentAction {
  const o = record(value, path);
  const kind = prop(o, "kind");
  if (kind === "text") return { kind, text: str(prop(o, "text"), `${path}/text`) };
  if (kind === "calls") return { kind, calls: list(call)(prop(o, "calls"), `${path}/calls`) };
  if (kind === "none") return { kind, reason: str(prop(o, "reason"), `${path}/reason`) };
  throw new WireError(`${path}/kind`, 'must be "calls", "text" or "none"');
}

const counts: Reader<{ correct: number; total: number }> = (value, path) => {
  const o = record(value, path);
  return { correct: index(prop(o, "correct"), `${path}/correct`), total: index(prop(o, "total"), `${path}/total`) };
};

function scores(value: unknown, path: string): TurnScores {
  const o = record(value, path);
  const optional = <T>(key: string, read: Reader<T>): Record<string, T> =>
    prop(o, key) === undefined ? {} : { [key]: read(prop(o, key), `${path}/${key}`) };
  return {
    awareness: bool(prop(o, "awareness"), `${path}/awareness`),
    ...optional("selection", bool),
    ...optional("execution", bool),
    ...optional("calls", counts),
    ...optional("arguments", counts),
    ...optional("bleu", finite),
    ...optional("rouge_l", finite),
  };
}

const turn: Reader<ScoredDialogToolTurn> = (value, path) => {
  const o = record(value, path);
  const truth = action(prop(o, "truth"), `${path}/truth`);
  if (truth.kind === "none") throw new WireError(`${path}/truth/kind`, 'must be "calls" or "text"');
  return {
    index: index(prop(o, "index"), `${path}/index`),
    dialogue_turn: index(prop(o, "dialogue_turn"), `${path}/dialogue_turn`),
    truth,
    prediction: action(prop(o, "prediction"), `${path}/prediction`),
    apps: list(str)(prop(o, "apps"), `${path}/apps`),
    scores: scores(prop(o, "scores"), `${path}/scores`),
  };
};

const tally: Reader<Tally> = (value, path) => {
  const { correct, total } = counts(value, path);
  return { correct, total, accuracy: nullable(finite)(prop(record(value, path), "accuracy"), `${path}/accuracy`) };
};

function metrics(value: unknown, path: string): DialogToolMetrics {
  const o = record(value, path);
  const response = record(prop(o, "response"), `${path}/response`);
  return {
    turns: index(prop(o, "turns"), `${path}/turns`),
    awareness: tally(prop(o, "awareness"), `${path}/awareness`),
    selection: tally(prop(o, "selection"), `${path}/selection`),
    execution: tally(prop(o, "execution"), `${path}/execution`),
    calls: tally(prop(o, "calls"), `${path}/calls`),
    arguments: tally(prop(o, "arguments"), `${path}/arguments`),
    response: {
      turns: index(prop(response, "turns"), `${path}/response/turns`),
      bleu: nullable(finite)(prop(response, "bleu"), `${path}/response/bleu`),
      rouge_l: nullable(finite)(prop(response, "rouge_l"), `${path}/response/rouge_l`),
    },
  };
}

export function dialogToolReport(value: unknown, path: string): DialogToolReport {
  const o = record(value, path);
  return {
    turns: list(turn)(prop(o, "turns"), `${path}/turns`),
    metrics: metrics(prop(o, "metrics"), `${path}/metrics`),
    extra_turns: index(prop(o, "extra_turns"), `${path}/extra_turns`),
  };
}

// DialogTool's per-turn scores of the shown run, as the host sends them (computed by the engine
// from the trajectory and its scenario). Checked field by field: the actions carry the model's
// own arguments and replies.
import type {
  ActionCall,
  AgentAction,
  DialogToolErrorAnalysis,
  DialogToolReport,
  DialogToolMetrics,
  MismatchCounts,
  Rate,
  ScoredDialogToolTurn,
  SelectionSetting,
  Tally,
  TurnErrors,
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
    ...optional("action", bool),
    ...optional("confirmation", counts),
    ...optional("app", bool),
    ...optional("hierarchical", hierarchical),
    errors: turnErrors(prop(o, "errors"), `${path}/errors`),
  };
}

const hierarchical: Reader<{ app: boolean; api: boolean; argument: boolean }> = (value, path) => {
  const o = record(value, path);
  return {
    app: bool(prop(o, "app"), `${path}/app`),
    api: bool(prop(o, "api"), `${path}/api`),
    argument: bool(prop(o, "argument"), `${path}/argument`),
  };
};

const mismatches: Reader<MismatchCounts> = (value, path) => {
  const o = record(value, path);
  return {
    date_time: index(prop(o, "date_time"), `${path}/date_time`),
    location: index(prop(o, "location"), `${path}/location`),
    number: index(prop(o, "number"), `${path}/number`),
    other: index(prop(o, "other"), `${path}/other`),
  };
};

function turnErrors(value: unknown, path: string): TurnErrors {
  const o = record(value, path);
  const optional = <T>(key: string, read: Reader<T>): Record<string, T> =>
    prop(o, key) === undefined ? {} : { [key]: read(prop(o, key), `${path}/${key}`) };
  return {
    parse_errors: index(prop(o, "parse_errors"), `${path}/parse_errors`),
    unnecessary_calls: index(prop(o, "unnecessary_calls"), `${path}/unnecessary_calls`),
    ...optional("recalled", index),
    ...optional("missing_arguments", index),
    ...optional("extra_arguments", index),
    ...optional("mismatched_arguments", mismatches),
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
    ...(prop(o, "transactional") === undefined ? {} : { transactional: list(str)(prop(o, "transactional"), `${path}/transactional`) }),
    ...(prop(o, "go_ahead") === undefined ? {} : { go_ahead: list(str)(prop(o, "go_ahead"), `${path}/go_ahead`) }),
    scores: scores(prop(o, "scores"), `${path}/scores`),
  };
};

const tally: Reader<Tally> = (value, path) => {
  const { correct, total } = counts(value, path);
  return { correct, total, accuracy: nullable(finite)(prop(record(value, path), "accuracy"), `${path}/accuracy`) };
};

const rate: Reader<Rate> = (value, path) => {
  const o = record(value, path);
  return {
    count: index(prop(o, "count"), `${path}/count`),
    total: index(prop(o, "total"), `${path}/total`),
    rate: nullable(finite)(prop(o, "rate"), `${path}/rate`),
  };
};

const setting: Reader<SelectionSetting> = (value, path) => {
  const o = record(value, path);
  return {
    app: tally(prop(o, "app"), `${path}/app`),
    api: tally(prop(o, "api"), `${path}/api`),
    argument: tally(prop(o, "argument"), `${path}/argument`),
  };
};

function errorAnalysis(value: unknown, path: string): DialogToolErrorAnalysis {
  const o = record(value, path);
  const awareness = record(prop(o, "awareness"), `${path}/awareness`);
  const selection = record(prop(o, "selection"), `${path}/selection`);
  const execution = record(prop(o, "execution"), `${path}/execution`);
  return {
    awareness: {
      false_negatives: rate(prop(awareness, "false_negatives"), `${path}/awareness/false_negatives`),
      false_positives: rate(prop(awareness, "false_positives"), `${path}/awareness/false_positives`),
    },
    selection: {
      recall: tally(prop(selection, "recall"), `${path}/selection/recall`),
      parse_errors: index(prop(selection, "parse_errors"), `${path}/selection/parse_errors`),
      unnecessary_calls: index(prop(selection, "unnecessary_calls"), `${path}/selection/unnecessary_calls`),
    },
    execution: {
      arguments: index(prop(execution, "arguments"), `${path}/execution/arguments`),
      missing: index(prop(execution, "missing"), `${path}/execution/missing`),
      extra: index(prop(execution, "extra"), `${path}/execution/extra`),
      mismatched: mismatches(prop(execution, "mismatched"), `${path}/execution/mismatched`),
    },
  };
}

function metrics(value: unknown, path: string): DialogToolMetrics {
  const o = record(value, path);
  const response = record(prop(o, "response"), `${path}/response`);
  const settings = record(prop(o, "selection_settings"), `${path}/selection_settings`);
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
    // The action confusion matrix exists in teacher-forced runs only; the panel scores free runs.
    confirmation: tally(prop(o, "confirmation"), `${path}/confirmation`),
    selection_settings: {
      flat: setting(prop(settings, "flat"), `${path}/selection_settings/flat`),
      ...(prop(settings, "hierarchical") === undefined
        ? {}
        : { hierarchical: setting(prop(settings, "hierarchical"), `${path}/selection_settings/hierarchical`) }),
    },
    errors: errorAnalysis(prop(o, "errors"), `${path}/errors`),
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

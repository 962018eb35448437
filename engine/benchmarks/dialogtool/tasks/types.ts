// DialogTool's per-turn tool-utilization tasks on our scenarios (docs/dialogtool.md): at each agent
// turn the reference's action is the truth and the agent's action the prediction. An agent turn is
// one decision: call tools (one call, or several in parallel) or reply in text.
import type { JsonValue } from "../../../base/json.js";
import type { ModelCall } from "../../../episode/types.js";
import type { TurnAction } from "./actions.js";

/** A call as the evaluation compares it: the catalog's tool name (never a scrambled one) and the arguments. */
export interface ActionCall {
  readonly tool: string;
  /** Null when the arguments were not a JSON object (a model's malformed call). */
  readonly arguments: Readonly<Record<string, JsonValue>> | null;
}

export type AgentAction =
  | { readonly kind: "calls"; readonly calls: readonly ActionCall[] }
  | { readonly kind: "text"; readonly text: string }
  /** No action where the reference has one: a free run that did less, or a predictor that failed. */
  | { readonly kind: "none"; readonly reason: string };

/** One agent turn: where it is, what the reference did, what the agent did. */
export interface DialogToolTurn {
  /** Where the reference's action starts in the played conversation (sandbox_message_index). */
  readonly index: number;
  /** The dialogue turn: 0 after the opening, k after the user's k-th further message. */
  readonly dialogue_turn: number;
  readonly truth: Exclude<AgentAction, { kind: "none" }>;
  readonly prediction: AgentAction;
  /** The apps of the reference's calls in this turn (none for a reply): what the per-app figures are keyed by. */
  readonly apps: readonly string[];
  /** The model request behind a teacher-forced prediction (telemetry), when one was made. */
  readonly model_call?: ModelCall;
  /** DialogTool's action of the reference at this turn (actions.ts); teacher-forced turns only. */
  readonly truth_action?: TurnAction;
  /** `--awareness actions`: the action the agent chose before it acted. */
  readonly action_choice?: ActionChoice;
  /** `--selection hierarchical`: the app the agent chose, then what it did with that app's tools. */
  readonly hierarchical?: HierarchicalTurn;
  /** Transactional tools among this turn's calls, the reference's and the agent's (the pack's apps.ts). */
  readonly transactional?: readonly string[];
  /** The transactional tools the user's go-ahead covers at this turn (docs/dialogtool.md#confirmation). */
  readonly go_ahead?: readonly string[];
}

export interface ActionChoice {
  /** Null when the answer named no action (a parse error). */
  readonly chosen: TurnAction | null;
  readonly answer: string;
  readonly model_call?: ModelCall;
}

export interface HierarchicalTurn {
  /** The apps chosen ([] = no tool needed); null when the answer named none of the apps. */
  readonly apps: readonly string[] | null;
  readonly answer: string;
  /** What the agent did shown only the chosen apps' tools. */
  readonly prediction: AgentAction;
  /** The app choice's request, then the turn's (telemetry). */
  readonly model_calls: readonly ModelCall[];
}

/** The scores of one turn; a task that does not apply to the turn is absent. */
export interface TurnScores {
  /** Did the agent act as the turn needed: tools when the reference called some, a reply when it did not. */
  readonly awareness: boolean;
  /** Tool turns: the same tools, as many times each. */
  readonly selection?: boolean;
  /** Tool turns: every call right, tool and all its arguments, and no call more. */
  readonly execution?: boolean;
  /** Tool turns: the reference's calls the agent made exactly. */
  readonly calls?: { readonly correct: number; readonly total: number };
  /** Tool turns: the reference's arguments given with the reference's value (in the call of that tool that gets most right). */
  readonly arguments?: { readonly correct: number; readonly total: number };
  /** Reply turns: sentence BLEU (0-100, sacrebleu's scale) of the reply against the reference's. */
  readonly bleu?: number;
  /** Reply turns: ROUGE-L F-measure (0-1) of the reply against the reference's. */
  readonly rouge_l?: number;
  /** `--awareness actions`: the agent chose the reference's action. */
  readonly action?: boolean;
  /** The agent's transactional calls made with the user's go-ahead; absent when it made none. */
  readonly confirmation?: { readonly correct: number; readonly total: number };
  /** Tool turns: the apps of the agent's calls are the reference's (flat selection's App accuracy). */
  readonly app?: boolean;
  /** Tool turns of a `--selection hierarchical` run: App, API and Argument accuracy of the hierarchical setting. */
  readonly hierarchical?: { readonly app: boolean; readonly api: boolean; readonly argument: boolean };
  /** What went wrong, counted for the error analyses. */
  readonly errors: TurnErrors;
}

/** One turn's counts for DialogTool's error analyses (its Tables 4 and 8, Figure 3). */
export interface TurnErrors {
  /** Calls whose arguments were not a JSON object, or that named no tool of the pack. */
  readonly parse_errors: number;
  /** Calls beyond those the reference makes (their tool not among the reference's calls still unmatched). */
  readonly unnecessary_calls: number;
  /** Tool turns: the reference's calls whose tool the agent called. */
  readonly recalled?: number;
  /** Tool turns: arguments of the reference the agent's call of that tool left out. */
  readonly missing_arguments?: number;
  /** Tool turns: arguments the agent gave that the reference does not. */
  readonly extra_arguments?: number;
  /** Tool turns: arguments given with another value, by the parameter's kind. */
  readonly mismatched_arguments?: MismatchCounts;
}

export type ArgumentKind = "date_time" | "location" | "number" | "other";
export type MismatchCounts = Readonly<Record<ArgumentKind, number>>;

/** A count over what could have gone wrong, with its rate. */
export interface Rate {
  readonly count: number;
  readonly total: number;
  readonly rate: number | null;
}

/** App, API and Argument accuracy of one selection setting (DialogTool's Figure 4). */
export interface SelectionSetting {
  readonly app: Tally;
  readonly api: Tally;
  readonly argument: Tally;
}

export interface DialogToolErrorAnalysis {
  readonly awareness: {
    /** Tool turns where the agent called nothing. */
    readonly false_negatives: Rate;
    /** Reply turns where the agent called a tool. */
    readonly false_positives: Rate;
  };
  readonly selection: {
    /** The reference's calls whose tool the agent called. */
    readonly recall: Tally;
    readonly parse_errors: number;
    readonly unnecessary_calls: number;
  };
  readonly execution: {
    /** Over the reference's arguments. */
    readonly arguments: number;
    readonly missing: number;
    readonly extra: number;
    readonly mismatched: MismatchCounts;
  };
}

export interface ScoredDialogToolTurn extends DialogToolTurn {
  readonly scores: TurnScores;
}

/** An accuracy with its counts, so aggregates can be summed exactly. */
export interface Tally {
  readonly correct: number;
  readonly total: number;
  /** correct / total; null when nothing was counted. */
  readonly accuracy: number | null;
}

/** DialogTool's Table 3 columns for one scenario or a whole set of them. */
export interface DialogToolMetrics {
  readonly turns: number;
  readonly awareness: Tally;
  readonly selection: Tally;
  readonly execution: Tally;
  readonly calls: Tally;
  readonly arguments: Tally;
  /** Reply turns scored, with the mean BLEU and ROUGE-L over them (null when there are none). */
  readonly response: { readonly turns: number; readonly bleu: number | null; readonly rouge_l: number | null };
  /** `--awareness actions`: the action chosen, and the confusion matrix (reference's action -> chosen -> turns; "unparsed" for no action). */
  readonly actions?: { readonly tally: Tally; readonly confusion: Readonly<Record<string, Readonly<Record<string, number>>>> };
  /** The agent's transactional calls made with the user's go-ahead. */
  readonly confirmation: Tally;
  /** App, API and Argument accuracy by selection setting; `hierarchical` in `--selection hierarchical` runs. */
  readonly selection_settings: { readonly flat: SelectionSetting; readonly hierarchical?: SelectionSetting };
  readonly errors: DialogToolErrorAnalysis;
}

/** A free run scored: what `eval --mode dialogtool` reports for a trajectory, and the panel shows. */
export interface DialogToolReport {
  readonly turns: readonly ScoredDialogToolTurn[];
  readonly metrics: DialogToolMetrics;
  readonly extra_turns: number;
}

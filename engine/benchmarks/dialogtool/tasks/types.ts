// DialogTool's per-turn tool-utilization tasks on our scenarios (docs/dialogtool.md): at each agent
// turn the reference's action is the truth and the agent's action the prediction. An agent turn is
// one decision: call tools (one call, or several in parallel) or reply in text.
import type { JsonValue } from "../../../base/json.js";
import type { ModelCall } from "../../../episode/types.js";

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
}

// ToolTalk's per-turn, teacher-forced simulation (`ToolExecutor.run_conversation`, peers.md A.6).
// The user is never simulated: before each assistant turn the world goes back to the
// conversation's start, the ground-truth calls of the earlier turns are run again, and the
// predictor sees the ground-truth history (texts, and those calls with their *recorded* outcomes),
// never its own earlier turns. It then calls tools until it replies. Unlike ToolTalk, at most
// `maxCallsPerTurn` calls run in one turn: after the last of them the predictor may still reply,
// but a further call ends the turn there, unrun and unrecorded, and the turn records the cut.
//
// Which executor rule lives where:
// - here: a call whose arguments the predictor could not parse (`parameters: null`) is recorded
//   with the exception "Failed to parse API call" and never reaches the backend; the step cap;
//   the reset and the replay before every assistant turn.
// - in the backend (the ToolTalk pack): "API {name} not found", "User is not logged in", the
//   session token written into the request of a tool that needs it, "Only one user can be logged
//   in at a time. Current user is {username}.", and the session taken by a successful UserLogin or
//   RegisterUser and dropped by a successful LogoutUser or DeleteAccount. They depend on the login
//   state, which is the backend's.
import type { MatchOptions } from "./match-rules.js";
import { scoreConversation, type ScoredTurn, type ToolTalkMetrics } from "./metrics.js";
import { conversationErrorTypes, type ToolTalkErrorTypes } from "./error-types.js";
import type {
  ToolTalkCall,
  ToolTalkCallRecord,
  ToolTalkConversation,
  ToolTalkHistoryEntry,
  ToolTalkMetadata,
  ToolTalkOutcome,
  ToolTalkPrediction,
  ToolTalkRequest,
  ToolTalkTurnPrediction,
  ToolTalkTurnRun,
} from "./types.js";

export const PARSE_FAILURE = "Failed to parse API call";
export const DEFAULT_MAX_CALLS_PER_TURN = 20;

/** A call as the backend ran it: the request as executed (session token injected) and the outcome. */
export interface ToolTalkExecution extends ToolTalkOutcome {
  readonly request: ToolTalkRequest;
}

/** The tools and their world, as ToolTalk's executor holds them. */
export interface ToolTalkBackend {
  /**
   * Back to the conversation's start: the databases as published, the user's session token and
   * verification code written into the account (and the session opened when there is a token),
   * the clock at `metadata.timestamp`, every tool's id generator fresh.
   */
  reset(conversation: ToolTalkConversation): void;
  /** Runs one call under the executor's rules (see the header of this file). */
  execute(request: ToolTalkRequest): ToolTalkExecution;
  /** ToolTalk's `is_action` of a tool; false for a name that is no tool. */
  isAction(apiName: string): boolean;
}

export interface ToolTalkPredictor {
  predict(metadata: ToolTalkMetadata, history: readonly ToolTalkHistoryEntry[]): ToolTalkPrediction | Promise<ToolTalkPrediction>;
}

interface SimulationOptions {
  /** Calls that may run in one assistant turn before it is cut off; ToolTalk has no limit. */
  readonly maxCallsPerTurn?: number;
  readonly match?: MatchOptions;
  /** Checked before every prediction; an aborted run rejects with the signal's reason. */
  readonly signal?: AbortSignal;
}

export interface ToolTalkConversationResult {
  readonly file: string;
  readonly name: string;
  readonly conversation_id: string;
  readonly turns: readonly ScoredTurn[];
  readonly metrics: ToolTalkMetrics;
  readonly error_types: ToolTalkErrorTypes;
}

/** A history entry that shows a ground-truth call: filled in after each replay (see below). */
type HistorySlot = ToolTalkHistoryEntry | { readonly truth: number };

/** An assistant turn as played; its ground truth is read from the replayed list at the end. */
interface PlayedTurn {
  readonly position: number;
  readonly text: string;
  readonly firstTruth: number;
  readonly truthCount: number;
  readonly predictions: readonly ToolTalkTurnPrediction[];
  readonly capped: boolean;
}

/** Runs the predictor through every assistant turn; the turns come back unscored. */
export async function simulateConversation(
  conversation: ToolTalkConversation,
  backend: ToolTalkBackend,
  predictor: ToolTalkPredictor,
  options: SimulationOptions = {},
): Promise<ToolTalkTurnRun[]> {
  const maxCalls = options.maxCallsPerTurn ?? DEFAULT_MAX_CALLS_PER_TURN;
  if (!Number.isInteger(maxCalls) || maxCalls < 1) throw new RangeError(`maxCallsPerTurn must be a positive integer, got ${maxCalls}`);
  // Ground-truth calls of the turns done so far. ToolTalk's executor writes the session token into
  // the very request it replays, so the history and the evaluation see the request as replayed.
  const truths: ToolTalkCall[] = [];
  const history: HistorySlot[] = [];
  const played: PlayedTurn[] = [];

  for (const turn of conversation.turns) {
    if (turn.role === "user") {
      history.push({ role: "user", text: turn.text });
      continue;
    }
    backend.reset(conversation);
    truths.forEach((truth, i) => {
      truths[i] = { ...truth, request: backend.execute(truth.request).request };
    });
    const current: ToolTalkHistoryEntry[] = history.map((slot) => ("truth" in slot ? { role: "api", ...truths[slot.truth]! } : slot));

    const predictions: ToolTalkTurnPrediction[] = [];
    let capped = false;
    for (let calls = 0; ; calls++) {
      options.signal?.throwIfAborted();
      const prediction = await predictor.predict(conversation.metadata, current);
      if (prediction.role === "assistant") {
        predictions.push(prediction);
        break;
      }
      if (calls === maxCalls) {
        capped = true;
        break;
      }
      const record = runPredictedCall(prediction, backend);
      predictions.push(record);
      current.push(record);
    }
    played.push({ position: turn.position, text: turn.text, firstTruth: truths.length, truthCount: turn.apis.length, predictions, capped });

    for (const call of turn.apis) history.push({ truth: truths.push(call) - 1 });
    history.push({ role: "assistant", text: turn.text });
  }

  // Built at the end, so every turn shows its ground-truth requests as last replayed.
  return played.map(
    (run): ToolTalkTurnRun => ({
      position: run.position,
      text: run.text,
      apis: truths.slice(run.firstTruth, run.firstTruth + run.truthCount),
      predictions: run.predictions,
      step_cap_reached: run.capped,
    }),
  );
}

function runPredictedCall(prediction: Extract<ToolTalkPrediction, { role: "api" }>, backend: ToolTalkBackend): ToolTalkCallRecord {
  const metadata = prediction.metadata ?? null;
  const { api_name, parameters } = prediction.request;
  if (parameters === null) return { role: "api", request: prediction.request, response: null, exception: PARSE_FAILURE, metadata };
  const executed = backend.execute({ api_name, parameters });
  return { role: "api", request: executed.request, response: executed.response, exception: executed.exception, metadata };
}

/** Simulates one conversation and scores it as ToolTalk does. */
export async function runConversation(
  conversation: ToolTalkConversation,
  backend: ToolTalkBackend,
  predictor: ToolTalkPredictor,
  options: SimulationOptions = {},
): Promise<ToolTalkConversationResult> {
  const runs = await simulateConversation(conversation, backend, predictor, options);
  const score = scoreConversation(runs, (name) => backend.isAction(name), options.match);
  return {
    file: conversation.file,
    name: conversation.name,
    conversation_id: conversation.conversation_id,
    turns: score.turns,
    metrics: score.metrics,
    error_types: conversationErrorTypes(score),
  };
}

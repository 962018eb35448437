// The failure reviewer (`run --review openai:MODEL`): after a run fails or errors, one model (any
// OpenAI-compatible endpoint, through ChatModel, so with the same timeouts, retries, limiter and
// telemetry as the other roles) reads what the run recorded and says which party it blames, in one
// line. Its verdict is written beside the cause the rules give (evaluation/failure-causes.ts),
// never instead of it: the rules are reproducible, the reviewer reads what rules cannot (a user
// asking for the opposite of its goal in other words). The reviewer is not told the rules' cause,
// so the two are independent opinions and a disagreement is worth a look.
//
// The call itself is a model verdict (roles/openai/model-verdict.ts, as the role-play judge's is):
// whatever goes wrong becomes a review with a one-line `failure`, so the run goes on and the
// trajectory says why.
import type { Message } from "../episode/types.js";
import type { EvaluationResult } from "../evaluation/result.js";
import { failureCause } from "../evaluation/failure-causes.js";
import type { ChatModel, ChatModelOptions } from "../roles/openai/chat-model.js";
import type { CacheScope } from "../roles/openai/call-cache.js";
import { answerObject, quotedAnswer, unlessStopped, VerdictModel, type VerdictReading } from "../roles/openai/model-verdict.js";
import type { ModelSettings } from "../roles/openai/settings.js";
import type { Scenario } from "../scenario/model.js";
import type { ReviewEvent, ReviewKind } from "../trajectory/events.js";

const KINDS: readonly ReviewKind[] = ["infrastructure", "scenario", "user", "agent"];

/** The first line of the instructions; mock-llm recognises a review request by it. */
export const REVIEW_MARKER = "You review one failed run of a tool-use conversation benchmark.";

export const REVIEW_INSTRUCTIONS = [
  REVIEW_MARKER,
  "",
  "Three parties took part: an AI assistant (the agent) that may call tools, a simulated user who was given a goal and some",
  "knowledge, and the scenario that set both up and defined the milestones a successful run reaches. The run below did not",
  "succeed. Decide which one party is most to blame:",
  '- "infrastructure": a model endpoint, a role or the engine failed, so the conversation could not go on;',
  '- "scenario": the goal, the knowledge or the milestones are wrong or impossible to meet, whatever the others did;',
  '- "user": the simulated user left too early, asked for something other than its goal, or gave values it was never given;',
  '- "agent": the agent called the wrong tools or arguments, ignored a tool error, did something forbidden, or gave up.',
  "",
  'Answer with one JSON object and nothing else: {"party": "<one of the four>", "reason": "<one sentence naming the message',
  'or milestone that shows it>"}.',
].join("\n");

/** Longest text of one message the reviewer sees; the rest is cut with a mark. */
const MESSAGE_CHARS = 600;
/** Messages shown at most (the first ones, then the last ones). */
const MESSAGES_SHOWN = 60;

interface ReviewInput {
  readonly scenario: Scenario;
  readonly messages: readonly Message[];
  readonly endReason: string | null;
  readonly endDetail: string | null;
  readonly evaluation: EvaluationResult | null;
}

/** The request's user message: what the run recorded, in lines a reader (and mock-llm) can follow. */
function reviewUserMessage(run: ReviewInput): string {
  const { user } = run.scenario;
  const lines = [`Scenario: ${run.scenario.name}`, `User goal: ${user.goal}`];
  for (const k of user.knowledge) lines.push(`User knowledge: ${k.fact}`);
  lines.push(`End: ${run.endReason ?? "none (the engine failed)"}${run.endDetail ? ` (${oneLine(run.endDetail)})` : ""}`);
  const evaluation = run.evaluation;
  lines.push(`Score: ${evaluation === null ? "none" : evaluation.score.toFixed(2)}`);
  for (const m of evaluation?.milestones ?? []) {
    const state = m.matched_at === null ? "not reached" : m.similarity < 1 ? `partly reached (${m.similarity.toFixed(2)})` : "reached";
    lines.push(`Milestone ${m.id}: ${state}${m.matched_at === null ? "" : ` at message ${m.matched_at}`}`);
  }
  for (const m of evaluation?.minefields ?? []) if (m.matched_at !== null) lines.push(`Minefield ${m.id}: hit at message ${m.matched_at}`);
  lines.push("", "Conversation (system messages left out):");
  const shown = run.messages.filter((m) => m.sender !== "system");
  const kept = shown.length <= MESSAGES_SHOWN ? shown : [...shown.slice(0, MESSAGES_SHOWN / 2), ...shown.slice(-MESSAGES_SHOWN / 2)];
  for (const [i, m] of kept.entries()) {
    if (kept.length < shown.length && i === MESSAGES_SHOWN / 2) lines.push(`... ${shown.length - kept.length} messages left out ...`);
    const error = m.tool_call_exception === null ? "" : ` [tool error: ${oneLine(m.tool_call_exception)}]`;
    lines.push(`[${m.sandbox_message_index}] ${m.sender} -> ${m.recipient}: ${clipped(m.content)}${error}`);
  }
  return lines.join("\n");
}

/** The end reason and the milestones not reached, as a review request states them (mock-llm answers from these). */
export function readReviewRequest(text: string): { endReason: string; missed: string[]; minefields: string[] } | null {
  const end = /^End: (\S+)/m.exec(text);
  if (end === null) return null;
  const missed = [...text.matchAll(/^Milestone (\S+): (?:not|partly) reached/gm)].map((m) => m[1]!);
  const minefields = [...text.matchAll(/^Minefield (\S+): hit/gm)].map((m) => m[1]!);
  return { endReason: end[1]!, missed, minefields };
}

/** The reviewer's answer read as asked: a JSON object with a party and a reason. */
function readReviewVerdict(content: string | null): VerdictReading<{ kind: ReviewKind; reason: string }> {
  const answer = answerObject(content, "reviewer");
  if (!answer.ok) return answer;
  const { party, reason } = answer.verdict;
  const kind = KINDS.find((k) => k === party);
  if (kind === undefined)
    return { ok: false, problem: `the reviewer's party is ${quotedAnswer(JSON.stringify(party ?? null))}, not one of ${KINDS.join(", ")}` };
  if (typeof reason !== "string" || reason.trim() === "") return { ok: false, problem: "the reviewer gave no reason" };
  return { ok: true, verdict: { kind, reason: oneLine(reason) } };
}

export class FailureReviewer {
  readonly id: string;
  readonly settings: ModelSettings;
  private readonly model: VerdictModel;

  constructor(options: ChatModelOptions | ChatModel | VerdictModel) {
    this.model = options instanceof VerdictModel ? options : new VerdictModel(options);
    this.settings = this.model.settings;
    this.id = this.model.id;
  }

  /** The same reviewer for one job: with a run's cache (`--cache`), its verdicts are found under the job's trial and seed, like the judge's. */
  withScope(scope: CacheScope): FailureReviewer {
    return new FailureReviewer(this.model.withScope(scope));
  }

  /** The verdict on a finished run. A cancelled run's abort is rethrown. */
  async review(run: ReviewInput, signal?: AbortSignal): Promise<ReviewEvent> {
    const base = { type: "review" as const, reviewer: this.id, settings: this.settings, instructions: REVIEW_INSTRUCTIONS };
    const outcome = await this.model.ask("reviewer", REVIEW_INSTRUCTIONS, reviewUserMessage(run), readReviewVerdict, signal);
    const call = outcome.call ? { call: outcome.call } : {};
    return outcome.ok ? { ...base, verdict: outcome.verdict, ...call } : { ...base, verdict: null, failure: outcome.failure, ...call };
  }
}

/**
 * The review of a finished episode, as `run --review` appends it: null when there is no reviewer,
 * the run succeeded (no cause by the rules), it was cancelled, or the run is being stopped.
 */
export async function reviewEpisode(
  reviewer: FailureReviewer | undefined,
  run: ReviewInput,
  signal: AbortSignal,
): Promise<ReviewEvent | null> {
  if (!reviewer || run.endReason === "cancelled") return null;
  if (failureCause(run) === null) return null;
  return unlessStopped(signal, () => reviewer.review(run, signal));
}

const oneLine = (text: string): string => text.replace(/\s+/g, " ").trim();

function clipped(text: string): string {
  const flat = oneLine(text);
  return flat.length > MESSAGE_CHARS ? `${flat.slice(0, MESSAGE_CHARS)}... [cut]` : flat;
}

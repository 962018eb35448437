// The execution environment role (reference 4.5, 4.6): answers the trailing run of requests
// addressed to it by running the tools against a working copy of the world. It does not touch the
// bus or the history itself; the episode commits the outcome, so the order of events stays in
// one place.
import type { PackRuntime, WorldPack } from "../packs/types.js";
import { pyRepr } from "../python/repr.js";
import type { Scenario } from "../scenario/model.js";
import type { ToolContext } from "../tools/types.js";
import { WorldTransaction } from "../world/transaction.js";
import type { Tables } from "../world/types.js";
import type { MessageDraft } from "./bus.js";
import { toolScanFeedback } from "./call-feedback.js";
import { checkAllOrderings, DEFAULT_MAX_ORDERINGS } from "./parallel-orderings.js";
import type { SeededRandom } from "./random.js";
import { callableTools, checkToolCall } from "./tool-calls.js";
import type { Message } from "./types.js";

export interface ExecutionOutcome {
  /** Responses in the order of the winning ordering, each addressed to its caller. */
  readonly responses: readonly MessageDraft[];
  /** The winning ordering's working copy; its changes are relative to the base world. */
  readonly world: WorldTransaction;
  /** The generator state the winning ordering left behind. */
  readonly random: SeededRandom;
  /** The pack runtime's state the winning ordering left behind. */
  readonly runtime: PackRuntime;
  /** A successful end_conversation was among the calls. */
  readonly endsConversation: boolean;
  /** Positions of the requests in the order they ran. */
  readonly order: readonly number[];
  readonly checkedOrderings: number;
}

interface CallResult {
  readonly response: MessageDraft | null;
  readonly failed: boolean;
  readonly endsConversation: boolean;
}

/** The per-episode state tools draw on: the seeded id generator and the pack's runtime. */
interface ToolState {
  readonly random: SeededRandom;
  readonly runtime: PackRuntime;
}

export class ExecutionEnvironment {
  constructor(
    private readonly scenario: Scenario,
    private readonly pack: WorldPack,
  ) {}

  /**
   * Runs the requests against `base`. Two or more requests are parallel calls: every ordering
   * starts from a fresh copy of `base` and clones of the random generator and the pack runtime,
   * and the first failing ordering wins (else the original one). Neither `base` nor `state` is changed.
   */
  respond(requests: readonly Message[], base: Tables, state: ToolState, maxOrderings: number = DEFAULT_MAX_ORDERINGS): ExecutionOutcome {
    const result = checkAllOrderings(
      requests.length,
      (order) => {
        const world = new WorldTransaction(base, this.pack.schemas);
        const rng = state.random.clone();
        const runtime = state.runtime.clone();
        const results = order.map((i) => this.answer(requests[i]!, world, rng, runtime));
        return { outcome: { results, world, rng, runtime }, failed: results.some((r) => r.failed) };
      },
      maxOrderings,
    );
    const { results, world, rng, runtime } = result.outcome;
    return {
      responses: results.flatMap((r) => (r.response ? [r.response] : [])),
      world,
      random: rng,
      runtime,
      endsConversation: results.some((r) => r.endsConversation),
      order: result.order,
      checkedOrderings: result.checked,
    };
  }

  /** Runs one request; requests from SYSTEM get no answer, as upstream. */
  private answer(request: Message, world: WorldTransaction, random: SeededRandom, runtime: PackRuntime): CallResult {
    if (request.sender === "system") return { response: null, failed: false, endsConversation: false };
    const reply = (content: string, extra: Partial<MessageDraft>): MessageDraft => ({
      sender: "execution_environment",
      recipient: request.sender,
      content,
      openai_tool_call_id: request.openai_tool_call_id,
      openai_function_name: request.openai_function_name,
      ...extra,
    });
    const failure = (text: string): CallResult => ({
      response: reply(text, { tool_call_exception: text }),
      failed: true,
      endsConversation: false,
    });

    const call = request.tool_call;
    if (!call) return failure(`ValueError: The request is not a tool call: ${pyRepr(request.content)}`);
    const caller = request.sender === "user" ? "user" : "agent";
    const callable = callableTools(this.scenario, caller);
    const feedback = caller === "agent" && this.scenario.options.feedback === "toolscan" ? toolScanFeedback(call, callable) : null;
    if (feedback !== null) return failure(feedback);
    const checked = checkToolCall(call, callable);
    if (!checked.ok) return failure(checked.text);

    const context: ToolContext = {
      world,
      clock: { now: this.scenario.clock.now, timezone: this.scenario.clock.timezone },
      web: this.scenario.web,
      uuid4: () => random.uuid4(),
    };
    const executed = runtime.execute(checked.tool, checked.args, context);
    if (!executed.ok) return failure(executed.text);
    const ends = checked.tool.name === "end_conversation";
    return {
      response: reply(executed.text, { tool_trace: [executed.trace], ...(ends ? { conversation_active: false } : {}) }),
      failed: false,
      endsConversation: ends,
    };
  }
}

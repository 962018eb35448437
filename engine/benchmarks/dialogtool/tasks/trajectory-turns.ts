// DialogTool's per-turn tasks on a free run (an ordinary trajectory): the agent went its own way,
// so its turns are put next to the reference's by dialogue turn. Within the k-th dialogue turn
// (the agent's turns between the user's k-th and next message), its i-th turn is compared with the
// reference's i-th agent step there. A turn the agent never took counts as wrong on every task
// that applies; a turn it took beyond the reference's is counted apart (`extra_turns`), not scored.
import type { Message } from "../../../episode/types.js";
import type { Scenario } from "../../../scenario/model.js";
import { packById } from "../../../packs/registry.js";
import { agentTurnStarts, appsOfAction, catalogNames, dialogueTurnAt } from "./teacher-forced.js";
import { metricsOfTurns } from "./metrics.js";
import { goAhead, referenceTurns, transactionalTools } from "./confirmation.js";
import { scoreTurn } from "./turn-scores.js";
import type { ActionCall, AgentAction, DialogToolReport, DialogToolTurn } from "./types.js";

type Truth = Exclude<AgentAction, { kind: "none" }>;

function actionAt(messages: readonly Message[], start: number, realName: (name: string) => string): Truth {
  const position = messages.findIndex((m) => m.sandbox_message_index === start);
  const first = messages[position];
  if (first?.recipient !== "execution_environment") return { kind: "text", text: first?.content ?? "" };
  const calls: ActionCall[] = [];
  for (let i = position; i < messages.length; i++) {
    const m = messages[i];
    if (m?.sender !== "agent" || m.scripted === true) break;
    calls.push({ tool: realName(m.tool_call?.name ?? m.openai_function_name ?? ""), arguments: m.tool_call?.arguments ?? null });
  }
  return { kind: "calls", calls };
}

interface FreeRunTurns {
  readonly turns: readonly DialogToolTurn[];
  /** Agent turns beyond the reference's in their dialogue turn: not scored, counted. */
  readonly extra_turns: number;
}

function freeRunTurns(messages: readonly Message[], scenario: Scenario): FreeRunTurns {
  const realName = catalogNames(scenario);
  const pack = packById(scenario.world.pack);
  const played = new Map<number, { index: number; action: Truth }[]>();
  for (const start of agentTurnStarts(messages)) {
    const d = dialogueTurnAt(messages, start);
    played.set(d, [...(played.get(d) ?? []), { index: start, action: actionAt(messages, start, realName) }]);
  }
  // Where a dialogue turn ends: the user's next message, or the end of the run.
  const userMessages = messages
    .filter((m) => m.sender === "user" && m.recipient === "agent" && m.scripted !== true)
    .map((m) => m.sandbox_message_index);
  const endOf = (d: number): number => userMessages[d] ?? messages.length;
  const turns: DialogToolTurn[] = [];
  let extra = 0;
  const reference = referenceTurns(scenario);
  reference.forEach((truths, d) => {
    const agent = played.get(d) ?? [];
    extra += Math.max(0, agent.length - truths.length);
    truths.forEach((truth, i) => {
      const mine = agent[i];
      const prediction: AgentAction = mine
        ? mine.action
        : {
            kind: "none",
            reason:
              agent.length === 0
                ? "the agent took no turn here"
                : `the agent took ${agent.length} turn${agent.length === 1 ? "" : "s"} here`,
          };
      const transactional = transactionalTools(pack, [truth, prediction]);
      turns.push({
        index: mine?.index ?? endOf(d),
        dialogue_turn: d,
        truth,
        prediction,
        apps: appsOfAction(truth, pack),
        transactional,
        go_ahead: goAhead(scenario, messages, d, transactional),
      });
    });
  });
  for (const [d, agent] of played) if (d >= reference.length) extra += agent.length;
  return { turns, extra_turns: extra };
}

export function scoredFreeRun(messages: readonly Message[], scenario: Scenario): DialogToolReport {
  const free = freeRunTurns(messages, scenario);
  const turns = free.turns.map((t) => ({ ...t, scores: scoreTurn(t) }));
  return { turns, metrics: metricsOfTurns(turns), extra_turns: free.extra_turns };
}

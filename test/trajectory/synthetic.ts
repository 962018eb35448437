// A small resolved scenario and a hand-made event stream for reader tests that must not depend on
// the episode engine: the stream has a scripted start, a tool call that changes two tables, a
// parallel step, and the end. World changes come from a real WorldTransaction.
import type { EpisodeEvent, Message, RoleName, TrajectoryHeader } from "../../engine/episode/types.js";
import type { Scenario } from "../../engine/scenario/model.js";
import { defaultWorld } from "../../engine/packs/toolsandbox/default-world.js";
import { WorldHistory } from "../../engine/world/world-history.js";
import { TOOLSANDBOX_SCHEMAS } from "../../engine/packs/toolsandbox/table-schemas.js";
import { WorldTransaction } from "../../engine/world/transaction.js";
import type { Tables } from "../../engine/world/types.js";
import { busMessage } from "../episode/fixtures.js";

const NOW = 1_768_496_400; // 2026-01-15T09:00:00-08:00

function cellularOff(tables: Tables): Tables {
  return { ...tables, SETTING: tables.SETTING!.map((row) => ({ ...row, cellular: false })) };
}

export function syntheticScenario(): Scenario {
  return {
    name: "synthetic_turn_cellular_on_and_text",
    description: "Hand-made scenario for trajectory tests.",
    categories: ["STATE_DEPENDENCY", "SINGLE_USER_TURN"],
    clock: { now: NOW, now_iso: "2026-01-15T09:00:00-08:00", timezone: "America/Los_Angeles" },
    world: { pack: "toolsandbox", tables: cellularOff(defaultWorld(NOW)) },
    web: { places: [], weather: [], stocks: [], exchange_rates: { base: "USD", rates: { EUR: 0.92 } } },
    tools: { allow: null, deny: [] },
    agent: { system_prompt: "Ask when unsure." },
    user: {
      goal: "Text Fredrik.",
      knowledge: [{ fact: "Fredrik is a friend.", value: null, reveal: "when_asked" }],
      demonstrations: [],
      opening: "Text Fredrik hi",
    },
    max_messages: 30,
    milestones: [
      {
        id: "cellular_on",
        description: null,
        after: [],
        guardrails: { tables: null, exclude: [] },
        constraints: [
          { kind: "snapshot", table: "SETTING", target: [{ cellular: true }], measures: { cellular: { kind: "exact" } }, reference: null },
        ],
      },
    ],
    minefields: [],
    reference: [
      { kind: "agent_calls", calls: [{ id: "call_1", tool: "set_cellular_service_status", arguments: { on: true } }] },
      { kind: "end_conversation" },
    ],
    options: { invalid_tool_call: "recover" },
  };
}

export function syntheticHeader(scenario = syntheticScenario()): TrajectoryHeader {
  return {
    type: "header",
    format: "toolsandbox-trajectory",
    version: 1,
    scenario,
    run: { agent: "scripted", user: "scripted", seed: 7, options: {} },
  };
}

/** The events plus the world history an episode would have kept while producing them. */
export function syntheticRun(scenario = syntheticScenario()): { events: EpisodeEvent[]; messages: Message[]; world: WorldHistory } {
  const events: EpisodeEvent[] = [];
  const messages: Message[] = [];
  const world = new WorldHistory(TOOLSANDBOX_SCHEMAS, scenario.world.tables);
  const say = (sender: RoleName, recipient: RoleName, content: string, extra: Partial<Message> = {}): void => {
    const message = busMessage(messages.length, sender, recipient, content, extra);
    messages.push(message);
    events.push({ type: "message", message });
  };
  const change = (edit: (tx: WorldTransaction) => void): void => {
    const tx = new WorldTransaction(world.latest().tables, TOOLSANDBOX_SCHEMAS);
    edit(tx);
    world.commit(messages.length, tx.tables(), tx.changes());
    events.push({ type: "world", index: messages.length, changes: tx.changes() });
  };

  say("system", "agent", scenario.agent.system_prompt, { scripted: true });
  say("system", "user", "You are User A.", { scripted: true });
  say("user", "agent", scenario.user.opening, { scripted: true });
  const call = { id: "call_1", name: "set_cellular_service_status", arguments: { on: true } };
  say("agent", "execution_environment", "call_1_parameters = {'on': True}", {
    tool_call: call,
    openai_tool_call_id: "call_1",
    openai_function_name: call.name,
  });
  change((tx) => tx.updateAt("SETTING", 0, { cellular: true }));
  say("execution_environment", "agent", "None", {
    openai_tool_call_id: "call_1",
    openai_function_name: call.name,
    tool_trace: [{ tool_name: call.name, arguments: { on: true }, result: null }],
  });
  // A parallel step: a contact is modified (re-appended) and a message is sent.
  say("agent", "execution_environment", "…", { tool_call: { id: "call_2", name: "modify_contact", arguments: { person_id: "x" } } });
  say("agent", "execution_environment", "…", {
    tool_call: { id: "call_3", name: "send_message_with_phone_number", raw_arguments: "{bad json" },
  });
  change((tx) => {
    tx.updateAt("CONTACT", 1, { relationship: "bandmate" }, true);
    tx.insert("MESSAGING", {
      message_id: "m-new",
      sender_phone_number: "+11233344455",
      recipient_phone_number: "+12453344098",
      content: "hi",
      creation_timestamp: NOW,
    });
    tx.deleteAt("REMINDER", 0);
  });
  say("execution_environment", "agent", "None");
  say("execution_environment", "agent", "TypeError: bad arguments", { tool_call_exception: "TypeError: bad arguments" });
  say("agent", "user", "Done.");
  say("user", "execution_environment", "end_conversation()", { conversation_active: false });
  say("execution_environment", "user", "None", { conversation_active: false });
  events.push({ type: "end", reason: "end_conversation", message_count: messages.length });
  return { events, messages, world };
}

// Long runs of a real sample: the sample's own scenario and recorded episode, stretched to a
// given number of messages with traffic its milestones do not care about, written as a
// trajectory file (JSONL) that `eval`, `replay`, the debugger and the panel read like any other.
// bench:eval's long-run rows and the matcher's oracle tests (test/evaluation/long-run-oracle)
// generate their inputs here.
//
// The traffic is a model stuck in a loop, rounds of four messages: the user asks again, the agent
// toggles a setting (one no milestone or minefield of the scenario names), the tool answers (the
// world records the change at the answer, as the engine does), the agent replies. The call ids
// count up, as a real agent's do, so no two rounds are byte-identical.
//
// Two placements of the sample's own messages after the opening (its reference play, split into
// blocks, each starting at an agent message after a message of another sender):
// - "late": all the traffic first, then the sample's messages: the milestones match at the end;
// - "spread": the blocks spread evenly through the traffic (the last block, which ends the
//   conversation, last), so milestones match late, and referenced calls sit far from the
//   messages that read them, between many partially similar candidates.
// A world change the sample recorded on SETTING is rewritten onto the toggled state, so the file
// stays consistent (the reader checks every change's old row).
import type { Message } from "../engine/episode/types.js";
import { parseTrajectory } from "../engine/trajectory/reader.js";

export type TrafficPlacement = "late" | "spread";

/** Settings the traffic may toggle, in order of preference: the first the scenario never names. */
const TOGGLES = [
  { column: "location_service", tool: "set_location_service_status" },
  { column: "cellular", tool: "set_cellular_service_status" },
  { column: "wifi", tool: "set_wifi_status" },
] as const;

type Json = Record<string, unknown>;

/**
 * The sample trajectory's text stretched to about `messages` messages (at least the sample's own:
 * whole rounds are added). Deterministic: the same input gives the same bytes.
 */
export function longRunTrajectoryText(sampleText: string, messages: number, placement: TrafficPlacement): string {
  const sample = parseTrajectory(sampleText, "sample.trajectory.jsonl");
  const lines = sampleText.split("\n").filter((l) => l.trim() !== "");
  const header = JSON.parse(lines[0]!) as Json;
  const events = lines.slice(1).map((l) => JSON.parse(l) as Json);
  const worldEvents = new Map<number, Json>();
  for (const e of events) if (e.type === "world") worldEvents.set(e.index as number, e);
  const end = events.find((e) => e.type === "end");
  if (!end) throw new Error("the sample has no end event");

  const scenarioText = JSON.stringify({ milestones: sample.header.scenario.milestones, minefields: sample.header.scenario.minefields });
  const toggle = TOGGLES.find((t) => !scenarioText.includes(t.column)) ?? TOGGLES[0];

  const opening = firstUserIndex(sample.messages);
  const head = sample.messages.slice(0, opening + 1);
  const tail = sample.messages.slice(opening + 1);
  const blocks: Message[][] = [];
  tail.forEach((m, i) => {
    const startsBlock = i === 0 || (m.sender === "agent" && tail[i - 1]!.sender !== "agent");
    if (startsBlock) blocks.push([m]);
    else blocks[blocks.length - 1]!.push(m);
  });
  const rounds = Math.max(0, Math.ceil((messages - sample.messages.length) / 4));

  const out: string[] = [JSON.stringify(header)];
  let setting = structuredClone((sample.worldAt(opening).SETTING ?? [])[0] ?? null) as Json | null;
  let index = 0;
  const emit = (message: Message, world: Json | null): void => {
    if (world) out.push(JSON.stringify({ ...world, index }));
    out.push(JSON.stringify({ type: "message", message: { ...message, sandbox_message_index: index } }));
    index++;
  };
  // The sample's own message, its world change rewritten onto the current SETTING row.
  const emitSample = (message: Message): void => {
    const world = worldEvents.get(message.sandbox_message_index) ?? null;
    if (!world) {
      emit(message, null);
      return;
    }
    const changes = (world.changes as Json[]).map((change) => {
      if (change.table !== "SETTING" || change.op !== "update" || setting === null) return change;
      const old = change.old as Json;
      const next = change.new as Json;
      const updated: Json = { ...setting };
      for (const key of Object.keys(next)) if (JSON.stringify(next[key]) !== JSON.stringify(old[key])) updated[key] = next[key];
      const rewritten = { ...change, old: setting, new: updated };
      setting = updated;
      return rewritten;
    });
    emit(message, { ...world, changes });
  };
  const emitRound = (round: number): void => {
    const on = setting === null ? true : setting[toggle.column] !== true;
    const id = `call_loop_${round}`;
    const base = {
      conversation_active: true,
      tool_call_exception: null,
      openai_tool_call_id: null,
      openai_function_name: null,
      tool_trace: null,
    };
    emit(
      {
        ...base,
        sandbox_message_index: 0,
        sender: "user",
        recipient: "agent",
        content: "Could you try that once more?",
        visible_to: ["user", "agent"],
      } as Message,
      null,
    );
    emit(
      {
        ...base,
        sandbox_message_index: 0,
        sender: "agent",
        recipient: "execution_environment",
        content: `${id}_parameters = {'on': ${on ? "True" : "False"}}\n${id}_response = ${toggle.tool}(**${id}_parameters)\nprint(repr(${id}_response))`,
        visible_to: ["agent", "execution_environment"],
        openai_tool_call_id: id,
        openai_function_name: toggle.tool,
        tool_call: { id, name: toggle.tool, arguments: { on } },
      } as Message,
      null,
    );
    let world: Json | null = null;
    if (setting !== null) {
      const updated = { ...setting, [toggle.column]: on };
      world = { type: "world", changes: [{ op: "update", table: "SETTING", position: 0, new_position: 0, old: setting, new: updated }] };
      setting = updated;
    }
    emit(
      {
        ...base,
        sandbox_message_index: 0,
        sender: "execution_environment",
        recipient: "agent",
        content: "None",
        visible_to: ["execution_environment", "agent"],
        openai_tool_call_id: id,
        openai_function_name: toggle.tool,
        tool_trace: [{ tool_name: toggle.tool, arguments: { on }, result: null }],
      } as Message,
      world,
    );
    emit(
      {
        ...base,
        sandbox_message_index: 0,
        sender: "agent",
        recipient: "user",
        content: "I changed that setting for you. Anything else?",
        visible_to: ["agent", "user"],
      } as Message,
      null,
    );
  };

  for (const m of head) emitSample(m);
  if (placement === "late") {
    for (let r = 0; r < rounds; r++) emitRound(r);
    for (const block of blocks) for (const m of block) emitSample(m);
  } else {
    // Block b goes after round floor((b + 1) * rounds / blocks); the last one after all rounds.
    let round = 0;
    blocks.forEach((block, b) => {
      const until = Math.floor(((b + 1) * rounds) / blocks.length);
      for (; round < until; round++) emitRound(round);
      for (const m of block) emitSample(m);
    });
  }
  out.push(JSON.stringify({ ...end, message_count: index }));
  return `${out.join("\n")}\n`;
}

function firstUserIndex(messages: readonly Message[]): number {
  let index = 0;
  while (index + 1 < messages.length && messages[index + 1]!.scripted === true) index++;
  return index;
}

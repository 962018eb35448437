// The generated scenario behind bench:eval's case (b): cellular turned on (the root milestone),
// ten errands of twelve look-ups and one world change each (ten parallel milestones reading the
// root), and a closing sentence after all of them (the sink). Split out of eval.bench.ts, which
// times it; the scenario is plain YAML text so it goes through the real checker. The shape is a
// parameter for the scale rows (case d): any number of errands (at least 3: the last three change
// the world, the others look an old friend up) and of look-ups per errand, which sets the length.
import { stringify } from "yaml";
import type { JsonValue } from "../engine/base/json.js";

const NOW = Date.UTC(2026, 4, 4, 9, 0, 0) / 1000;
const DAY = 86_400;
const FRIENDS = [
  { name: "Fredrik Thordendal", phone: "+12453344098" },
  { name: "John Petrucci", phone: "+1234560987" },
  { name: "Homer S", phone: "+10000000000" },
];

/** Case (b)'s shape: 12 milestones over about 300 messages. */
const DEFAULT_WIDE_DAG: WideDagShape = { errands: 10, lookupsPerErrand: 12 };

interface WideDagShape {
  /** Parallel milestones between the root and the sink (the DAG has errands + 2 milestones). */
  readonly errands: number;
  readonly lookupsPerErrand: number;
}

/** The shape with `milestones` milestones whose episode has about `messages` messages. */
export function wideDagShape(milestones: number, messages: number): WideDagShape {
  const errands = milestones - 2;
  // Per errand: the user's request, look-ups and the action (a call and its result each), the reply.
  return { errands, lookupsPerErrand: Math.max(1, Math.round(((messages - 6) / errands - 4) / 2)) };
}

type Call = { readonly tool: string; readonly arguments: Readonly<Record<string, JsonValue>> };

/** The look-ups an agent might make before acting (none changes the world). */
export function lookups(errand: number, count: number): Call[] {
  const friend = FRIENDS[errand % FRIENDS.length]!;
  const cycle: Call[] = [
    { tool: "get_current_timestamp", arguments: {} },
    { tool: "search_contacts", arguments: { name: friend.name } },
    { tool: "get_cellular_service_status", arguments: {} },
    { tool: "search_reminder", arguments: { content: `errand ${errand}` } },
    { tool: "timestamp_to_datetime_info", arguments: { timestamp: NOW + errand * DAY } },
    { tool: "search_messages", arguments: { recipient_phone_number: friend.phone } },
    { tool: "get_wifi_status", arguments: {} },
  ];
  return Array.from({ length: count }, (_, i) => cycle[i % cycle.length]!);
}

interface Errand {
  readonly action: Call;
  readonly milestone: Record<string, JsonValue>;
}

/**
 * Errand i (1..10): its action and the milestone that checks it. Errands 1-7 look an old friend
 * up (a SANDBOX tool-trace milestone whose automatic guardrails hold the contact, message and
 * reminder tables to their state at the root); 8-10 add a reminder, a contact and a message
 * (additions against the root or the initial state, each excluding the tables the others change).
 */
function errand(i: number, count: number): Errand {
  const id = `errand_${i}`;
  // The last three errands change the world; the others look an old friend up.
  const change = i - (count - 3);
  const after = ["cellular_on"];
  const guard = (table: string): JsonValue => ({ exclude: ["CONTACT", "MESSAGING", "REMINDER"].filter((t) => t !== table) });
  if (change <= 0) {
    const name = `Old friend ${i}`;
    const trace = { tool_name: "search_contacts", arguments: { name } };
    return {
      action: { tool: "search_contacts", arguments: { name } },
      milestone: {
        id,
        after,
        constraints: [
          { kind: "snapshot", table: "SANDBOX", target: [{ sender: "execution_environment", recipient: "agent", tool_trace: trace }] },
        ],
      },
    };
  }
  if (change === 1) {
    const reminder = { content: "Pick up the parcel", reminder_timestamp: NOW + 2 * DAY };
    return {
      action: { tool: "add_reminder", arguments: reminder },
      milestone: {
        id,
        after,
        guardrails: guard("REMINDER"),
        constraints: [{ kind: "addition", table: "REMINDER", reference: "cellular_on", target: [reminder] }],
      },
    };
  }
  if (change === 2) {
    const contact = { name: "New Neighbour", phone_number: "+15550001234" };
    return {
      action: { tool: "add_contact", arguments: contact },
      milestone: { id, after, guardrails: guard("CONTACT"), constraints: [{ kind: "addition", table: "CONTACT", target: [contact] }] },
    };
  }
  const friend = FRIENDS[0]!;
  const content = "All my errands are done, see you soon";
  return {
    action: { tool: "send_message_with_phone_number", arguments: { phone_number: friend.phone, content } },
    milestone: {
      id,
      after,
      guardrails: guard("MESSAGING"),
      constraints: [
        { kind: "addition", table: "MESSAGING", reference: "cellular_on", target: [{ recipient_phone_number: friend.phone, content }] },
      ],
    },
  };
}

const CLOSING = "That was the last errand on your list; everything is done.";

/**
 * The generated scenario's YAML text. With `sinkGuardrails` the closing milestone keeps its
 * automatic guardrails: SETTING at its message must equal SETTING at each errand's, so its
 * similarity reads the indices of all ten errands; without, it reads none.
 */
export function wideDagScenarioText(sinkGuardrails: boolean, shape: WideDagShape = DEFAULT_WIDE_DAG): string {
  if (shape.errands < 3) throw new Error(`a wide DAG needs at least 3 errands, got ${shape.errands}`);
  const errands = Array.from({ length: shape.errands }, (_, i) => errand(i + 1, shape.errands));
  const isDefault = shape.errands === DEFAULT_WIDE_DAG.errands && shape.lookupsPerErrand === DEFAULT_WIDE_DAG.lookupsPerErrand;
  const reference: JsonValue[] = [
    { calls: [{ tool: "set_cellular_service_status", arguments: { on: true } }] },
    { agent: "Cellular is on. What is first?" },
  ];
  errands.forEach((e, i) => {
    reference.push({ user: `Errand ${i + 1}, please.` });
    for (const call of [...lookups(i + 1, shape.lookupsPerErrand), e.action]) reference.push({ calls: [call] });
    reference.push({ agent: i === errands.length - 1 ? CLOSING : `Errand ${i + 1} is done.` });
  });
  reference.push({ end_conversation: true });
  return stringify(
    {
      name: isDefault ? "bench_wide_dag_300_messages" : `bench_wide_dag_${shape.errands + 2}_milestones`,
      description: isDefault
        ? "Generated by bench/eval.bench.ts: ten errands after turning cellular on."
        : `Generated by bench/eval.bench.ts: ${shape.errands} errands of ${shape.lookupsPerErrand} look-ups after turning cellular on.`,
      categories: ["STATE_DEPENDENCY", "MULTIPLE_TOOL_CALL", "MULTIPLE_USER_TURN"],
      clock: { now: new Date(NOW * 1000).toISOString().replace(/\.000Z$/, "Z"), timezone: "Europe/Berlin" },
      world: { SETTING: { cellular: false } },
      user: { goal: "Have User B run ten errands.", opening: "I have a list of errands; turn cellular on first." },
      max_messages: isDefault ? 400 : shape.errands * (2 * shape.lookupsPerErrand + 6) + 100,
      milestones: [
        { id: "cellular_on", constraints: [{ kind: "snapshot", table: "SETTING", target: [{ cellular: true }] }] },
        ...errands.map((e) => e.milestone),
        {
          id: "wrapped_up",
          after: errands.map((e) => e.milestone.id as string),
          ...(sinkGuardrails ? {} : { guardrails: { exclude: ["SETTING"] } }),
          constraints: [
            {
              kind: "snapshot",
              table: "SANDBOX",
              target: [{ sender: "agent", recipient: "user", content: CLOSING }],
              measures: { content: { kind: "rouge_l" } },
            },
          ],
        },
      ],
      reference,
      // Long episodes repeat the same look-up objects thousands of times: no YAML aliases for them.
    },
    isDefault ? {} : { aliasDuplicateObjects: false },
  );
}

// A finished run turned into a draft scenario (docs/drafting.md): the pure function behind
// `toolsandbox draft` and the editor's "Save Run as Scenario…". It reads only the run (its
// embedded scenario gives the pack, clock, tools and defaults; its messages and world changes the
// rest) and returns the YAML text with the notes an author should read. Same run, same bytes.
import type { JsonObject, JsonValue } from "../base/json.js";
import { packById } from "../packs/registry.js";
import { DEFAULT_PACK_ID } from "../packs/types.js";
import type { Scenario } from "../scenario/model.js";
import { BUILTIN_DEMONSTRATIONS } from "../scenario/prompts/demonstrations.js";
import { checkScenarioText } from "../scenario/resolve.js";
import { resolveWeb } from "../scenario/web-resolution.js";
import type { Trajectory } from "../trajectory/trajectory.js";
import { inferMilestones, type DraftMilestone } from "./milestones.js";
import { draftReference } from "./reference.js";
import { type RunFacts, runFacts } from "./run-facts.js";
import { draftUser } from "./user.js";
import { webDiff } from "./web-diff.js";
import { worldDiff } from "./world-diff.js";
import { draftYaml } from "./yaml-text.js";

interface DraftOptions {
  /** The new scenario's name ([a-z0-9_]+). */
  readonly name: string;
  /** What the draft was made from, for its description and header comment (a file name, say). */
  readonly source: string;
}

interface Draft {
  readonly text: string;
  /** What the author should know: calls left out, tables written whole, settings the draft could not carry. */
  readonly notes: readonly string[];
  readonly milestones: number;
  readonly steps: number;
}

export function draftScenario(trajectory: Trajectory, options: DraftOptions): Draft {
  const played = trajectory.header.scenario;
  const pack = packById(played.world.pack);
  const facts = runFacts(trajectory);
  creditWriters(facts, (tool) => pack.toolByName(tool)?.action === true);
  const notes: string[] = [];
  const allowed = (tool: string): boolean =>
    (played.tools.allow === null || played.tools.allow.includes(tool)) && !played.tools.deny.includes(tool);
  const reference = draftReference(facts, { toolByName: (n) => pack.toolByName(n), allowed }, played.clock.now);
  notes.push(...reference.notes);
  const milestones = inferMilestones({
    facts,
    schemas: pack.schemas,
    toolByName: (n) => pack.toolByName(n),
    now: played.clock.now,
    stepOfCall: reference.stepOfCall,
    stepOfText: reference.stepOfText,
  });
  const world = worldDiff(
    played.world.pack,
    pack.schemas,
    pack.defaultWorld(played.clock.now),
    played.world.tables,
    played.clock.now,
    played.world.pack === DEFAULT_PACK_ID,
  );
  notes.push(...world.notes);
  const defaults = defaultsAt(played);

  const doc: Record<string, JsonValue> = {
    name: options.name,
    description: `Drafted from ${options.source}, a run of ${played.name} (agent ${trajectory.header.run.agent}, user ${trajectory.header.run.user}, seed ${trajectory.header.run.seed}).`,
  };
  if (played.categories.length > 0) doc.categories = [...played.categories];
  doc.clock = clockText(played.clock);
  if (world.section !== null) doc.world = world.section;
  else if (played.world.pack !== DEFAULT_PACK_ID) doc.world = { pack: played.world.pack };
  const web = webDiff(played.web, resolveWeb(undefined));
  if (web !== null) doc.web = web;
  const tools: Record<string, JsonValue> = {};
  if (played.tools.allow !== null) tools.allow = [...played.tools.allow];
  if (played.tools.deny.length > 0) tools.deny = [...played.tools.deny];
  if (Object.keys(tools).length > 0) doc.tools = tools;
  if (played.tools.descriptions !== undefined) notes.push("the run used a prompt set's tool texts; the draft names none (add `prompts:`)");
  const agent = agentText(played, defaults);
  if (agent !== null) doc.agent = agent;
  doc.user = { ...userExtras(played, defaults), ...draftUser(facts, new Set(reference.stepOfCall.keys()), notes) };
  if (played.max_messages !== defaults.max_messages) doc.max_messages = played.max_messages;
  if (JSON.stringify(played.options) !== JSON.stringify(defaults.options)) doc.options = played.options as unknown as JsonObject;
  doc.milestones = milestones.map(milestoneJson);
  doc.reference = [...reference.steps];

  const header = `Drafted by toolsandbox draft from ${options.source}. The comment above each milestone says what it was inferred from: check each against what a right answer needs, then run toolsandbox strength on this file again.`;
  return {
    text: draftYaml(
      doc,
      header,
      milestones.map((m) => m.comment),
    ),
    notes,
    milestones: milestones.length,
    steps: reference.steps.length,
  };
}

/**
 * Parallel calls' changes land together on the first answer; they belong to the calls that write
 * (the first of them when several do), not to a search that happened to answer first, or the
 * search's results would seem to lead to them.
 */
function creditWriters(facts: RunFacts, writes: (tool: string) => boolean): void {
  for (const turn of facts.turns) {
    if (turn.kind !== "calls" || turn.calls.length < 2) continue;
    const holder = turn.calls.find((c) => c.changes.length > 0);
    const writer = turn.calls.find((c) => writes(c.tool));
    if (!holder || !writer || holder === writer) continue;
    writer.changes = holder.changes;
    holder.changes = [];
  }
}

function milestoneJson(m: DraftMilestone): JsonObject {
  const out: Record<string, JsonValue> = { id: m.id, after: [...m.after] };
  // A node with no predecessor and no reference has no guardrail to narrow.
  if (m.exclude.length > 0 && (m.after.length > 0 || m.tables.length > 0)) out.guardrails = { exclude: [...m.exclude] };
  out.constraints = [...m.constraints];
  return out;
}

/** The clock as the samples write it: local time and its zone (POSIX seconds when now has a fraction). */
function clockText(clock: Scenario["clock"]): JsonObject {
  const local = /^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)(?:[+-]\d\d:\d\d|Z)$/.exec(clock.now_iso);
  return { now: Number.isInteger(clock.now) && local ? local[1]! : clock.now, timezone: clock.timezone };
}

/** What a scenario that says nothing gets, at this clock and pack: the draft leaves out what equals it. */
function defaultsAt(played: Scenario): Scenario {
  const text = JSON.stringify({
    name: "defaults",
    clock: { now: played.clock.now, timezone: played.clock.timezone },
    world: { pack: played.world.pack },
    user: { goal: "g", opening: "o" },
    reference: [{ agent: "a" }, { end_conversation: true }],
  });
  const checked = checkScenarioText(text, "defaults.scenario.yaml");
  if (checked.scenario === null) throw new Error(`the default scenario does not check: ${checked.diagnostics[0]?.message ?? "unknown"}`);
  return checked.scenario;
}

function agentText(played: Scenario, defaults: Scenario): JsonObject | null {
  const out: Record<string, JsonValue> = {};
  if (played.agent.system_prompt !== defaults.agent.system_prompt) out.system_prompt = played.agent.system_prompt;
  if (played.agent.persona !== undefined) out.persona = played.agent.persona as unknown as JsonObject;
  return Object.keys(out).length > 0 ? out : null;
}

/** The user simulator's instruction and demonstrations, when the run's differ from the defaults. */
function userExtras(played: Scenario, defaults: Scenario): JsonObject {
  const out: Record<string, JsonValue> = {};
  if (played.user.preamble !== undefined) out.preamble = played.user.preamble;
  if (JSON.stringify(played.user.demonstrations) !== JSON.stringify(defaults.user.demonstrations)) {
    out.demonstrations = played.user.demonstrations.map((d) =>
      JSON.stringify(BUILTIN_DEMONSTRATIONS[d.name]) === JSON.stringify(d) ? d.name : (d as unknown as JsonObject),
    );
  }
  return out;
}

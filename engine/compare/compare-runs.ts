// Two runs of one scenario side by side: their messages aligned by index (both start with the same
// scripted setup, so index k is the same point of the conversation until they part), each row
// labelled with its turn, the first point where they diverge, the world changes each recorded at
// each row, the milestone and minefield results of each, and what their model calls cost. Pure:
// the CLI prints it, `--html` and the extension draw it.
import type { Message } from "../episode/types.js";
import { evaluateTrajectory, firstUserMessageIndex } from "../evaluation/evaluate.js";
import { countsAsTurn } from "../evaluation/turn-count.js";
import type { EvaluationResult, NodeResult } from "../evaluation/result.js";
import { packTables } from "../packs/tables.js";
import { scenarioDigest } from "../trajectory/scenario-digest.js";
import { telemetryTotals, type TelemetryTotals } from "../trajectory/telemetry-totals.js";
import type { Trajectory, WorldEvent } from "../trajectory/trajectory.js";
import { changeLines } from "./world-diff.js";

export interface CompareSide {
  readonly label: string;
  readonly agent: string;
  readonly user: string;
  readonly score: number | null;
  readonly end: string | null;
  readonly messages: number;
  readonly telemetry: TelemetryTotals;
}

export interface CompareCell {
  /** "agent → environment" */
  readonly route: string;
  /** The call, the error or the content, on one line. */
  readonly text: string;
  /** The world changes recorded at this message, one line each. */
  readonly world: readonly string[];
}

export interface CompareRow {
  readonly index: number;
  /** Upstream's turns played up to and with this message (engine/evaluation/turn-count.ts: what the header's turn count counts; 0 in the setup). */
  readonly turn: number;
  readonly setup: boolean;
  readonly a: CompareCell | null;
  readonly b: CompareCell | null;
  readonly same: boolean;
}

/** How a node came out in one run: what the page colours (a match is never drawn as a failure). */
type NodeOutcome = "matched" | "partial" | "missed" | "hit" | "avoided" | "absent";

export interface NodeComparison {
  readonly kind: "milestone" | "minefield";
  readonly id: string;
  readonly a: string;
  readonly b: string;
  readonly aOutcome: NodeOutcome;
  readonly bOutcome: NodeOutcome;
  readonly same: boolean;
}

export interface Comparison {
  readonly scenario: string;
  readonly a: CompareSide;
  readonly b: CompareSide;
  readonly rows: readonly CompareRow[];
  /** The index of the first row where the runs differ; null when they never do. */
  readonly firstDivergence: number | null;
  readonly nodes: readonly NodeComparison[];
  /** Why two runs with the same messages have different scores; null when the scores agree or the messages differ. */
  readonly sameMessagesNote: string | null;
}

export interface ComparedRun {
  readonly label: string;
  readonly trajectory: Trajectory;
  readonly evaluation: EvaluationResult | null;
}

export class CompareError extends Error {}

/** A saved run with its recorded score, or this build's when it has none (or null if it cannot be scored). */
export function savedRun(label: string, trajectory: Trajectory): ComparedRun {
  let evaluation = trajectory.evaluation;
  if (evaluation === null) {
    try {
      evaluation = evaluateTrajectory(trajectory);
    } catch {
      evaluation = null;
    }
  }
  return { label, trajectory, evaluation };
}

export function compareRuns(a: ComparedRun, b: ComparedRun): Comparison {
  const scenario = a.trajectory.header.scenario;
  if (b.trajectory.header.scenario.name !== scenario.name) {
    throw new CompareError(`the runs are of different scenarios: ${scenario.name} and ${b.trajectory.header.scenario.name}`);
  }
  const { schemas } = packTables(scenario.world.pack);
  const cells = (t: Trajectory): CompareCell[] => {
    const changes = new Map<number, string[]>();
    for (const e of t.events.filter((x): x is WorldEvent => x.type === "world")) {
      changes.set(e.index, [...(changes.get(e.index) ?? []), ...changeLines(e.changes, scenario.clock.timezone, schemas)]);
    }
    return t.messages.map((m, i) => ({ route: `${m.sender} → ${m.recipient}`, text: messageText(m), world: changes.get(i) ?? [] }));
  };
  const left = cells(a.trajectory);
  const right = cells(b.trajectory);
  const setupEnd = firstUserMessageIndex(a.trajectory.messages);
  const rows: CompareRow[] = [];
  let turn = 0;
  let firstDivergence: number | null = null;
  for (let i = 0; i < Math.max(left.length, right.length); i++) {
    const x = left[i] ?? null;
    const y = right[i] ?? null;
    const setup = i <= setupEnd;
    const message = a.trajectory.messages[i] ?? b.trajectory.messages[i];
    if (!setup && message !== undefined && countsAsTurn(message)) turn++;
    const same = x !== null && y !== null && x.route === y.route && x.text === y.text && x.world.join("\n") === y.world.join("\n");
    if (!same && firstDivergence === null) firstDivergence = i;
    rows.push({ index: i, turn, setup, a: x, b: y, same });
  }
  return {
    scenario: scenario.name,
    a: side(a),
    b: side(b),
    rows,
    firstDivergence,
    nodes: nodeComparisons(a.evaluation, b.evaluation),
    sameMessagesNote: firstDivergence === null ? sameMessagesNote(a, b) : null,
  };
}

/**
 * Same messages, different scores: the score is of the scenario the run was scored against, so
 * say which versions of it (their digests, engine/trajectory/scenario-digest.ts) each run played.
 */
function sameMessagesNote(a: ComparedRun, b: ComparedRun): string | null {
  const x = a.evaluation?.score ?? null;
  const y = b.evaluation?.score ?? null;
  if (x === null || y === null || Math.abs(x - y) < 1e-9) return null;
  const scores = `A scored ${x.toFixed(2)}, B ${y.toFixed(2)}`;
  const da = scenarioDigest(a.trajectory.header.scenario);
  const db = scenarioDigest(b.trajectory.header.scenario);
  return da === db
    ? `The messages are the same, but the scores differ (${scores}) though both runs played the same version of the scenario (${da}): a score was recorded by another version of the scorer.`
    : `The messages are the same, but the scores differ (${scores}) because the runs were played against different versions of the scenario (A ${da}, B ${db}): its milestones or minefields changed between them.`;
}

function side(run: ComparedRun): CompareSide {
  const t = run.trajectory;
  return {
    label: run.label,
    agent: t.header.run.agent,
    user: t.header.run.user,
    score: run.evaluation?.score ?? null,
    end: t.end?.reason ?? null,
    messages: t.messages.length,
    telemetry: telemetryTotals(t.modelCalls),
  };
}

/** One line for a message: its call, its error, or its content with the whitespace collapsed. */
function messageText(m: Message): string {
  const call = m.tool_call;
  const text =
    m.tool_call_exception ??
    (call ? `${call.name}(${call.arguments !== undefined ? JSON.stringify(call.arguments) : (call.raw_arguments ?? "")})` : m.content);
  return text.replace(/\s+/g, " ").trim();
}

function nodeOutcome(kind: "milestone" | "minefield", n: NodeResult | undefined): NodeOutcome {
  if (n === undefined) return "absent";
  if (kind === "minefield") return n.matched_at === null ? "avoided" : "hit";
  return n.matched_at === null ? "missed" : n.similarity >= 1 - 1e-6 ? "matched" : "partial";
}

const nodeText = (kind: "milestone" | "minefield", n: NodeResult | undefined): string => {
  if (n === undefined) return "–";
  if (kind === "minefield") return n.matched_at === null ? "not hit" : `hit at ${n.matched_at}`;
  return n.matched_at === null ? "not matched" : `matched at ${n.matched_at} (${n.similarity.toFixed(2)})`;
};

function nodeComparisons(a: EvaluationResult | null, b: EvaluationResult | null): NodeComparison[] {
  const out: NodeComparison[] = [];
  for (const kind of ["milestone", "minefield"] as const) {
    const list = (e: EvaluationResult | null): readonly NodeResult[] =>
      e === null ? [] : kind === "milestone" ? e.milestones : e.minefields;
    const ids = [...new Set([...list(a), ...list(b)].map((n) => n.id))];
    for (const id of ids) {
      const nodeA = list(a).find((n) => n.id === id);
      const nodeB = list(b).find((n) => n.id === id);
      const x = nodeText(kind, nodeA);
      const y = nodeText(kind, nodeB);
      // Where a node matched may differ while both runs satisfy it; "same" is about the outcome.
      const outcome = (s: string): string => s.replace(/ at \d+/, "");
      out.push({
        kind,
        id,
        a: x,
        b: y,
        aOutcome: nodeOutcome(kind, nodeA),
        bOutcome: nodeOutcome(kind, nodeB),
        same: outcome(x) === outcome(y),
      });
    }
  }
  return out;
}

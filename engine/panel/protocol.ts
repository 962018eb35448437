// What crosses the boundary between the panel (browser code) and its host (the VS Code extension,
// or the page of an exported HTML file), in both directions. The live panel and the replay panel
// are one view over one stream: the host sends trajectory lines as they are written (a live run)
// or all at once (a saved file), plus a few commands. Nothing here is trusted on arrival: the
// guards in validate/ turn `unknown` into these types or reject the message.
import type { Message, ModelCall, ModelCallRole, RunConfig, TrajectoryHeader } from "../episode/types.js";
import type { DialogToolReport } from "../benchmarks/dialogtool/tasks/types.js";
import type { EvaluationResult } from "../evaluation/result.js";
import type { PackId } from "../packs/types.js";
import type { JudgementEvent, TrajectoryEvent } from "../trajectory/events.js";
import type { Milestone, Scenario } from "../scenario/model.js";
import type { RowChange, Tables } from "../world/types.js";
import type { PlayFormMessage, PlayRequest } from "./play-protocol.js";
import type { Rescored } from "./score-source.js";

/** The element the panel draws into. */
export const ROOT_ELEMENT_ID = "app";
/** <script type="application/json" id=...>: the trajectory lines an exported page carries. */
export const EMBEDDED_DATA_ID = "trajectory-data";

/** The id of embedded chunk `k` after the first (a long page's lines come in chunks: html.ts). */
export const embeddedChunkId = (k: number): string => `${EMBEDDED_DATA_ID}-${k}`;

/** performance.mark() set when the panel first shows messages (the panel benchmark reads it). */
export const FIRST_RENDER_MARK = "toolsandbox:first-render";
/** performance.mark() set when the last chunk of a long page has been read (the panel benchmark reads it). */
export const LOADED_MARK = "toolsandbox:loaded";

/** A line of a trajectory file, as the engine writes it. */
export type TrajectoryLine = TrajectoryHeader | TrajectoryEvent;

/** A live run's state. A run that was never live has none. */
export type LiveState = "running" | "paused" | "finished";
export const LIVE_STATES: readonly LiveState[] = ["running", "paused", "finished"];

/** Host → panel. */
export type HostMessage =
  /** One trajectory line. A header starts a new trajectory and clears the panel. */
  | TrajectoryLine
  /** Several lines at once (opening a saved file); same rules as one line at a time. */
  | { readonly type: "lines"; readonly lines: readonly TrajectoryLine[] }
  /** Select message `index` (e.g. the user clicked a milestone result in the editor). */
  | { readonly type: "reveal"; readonly index: number }
  /** A live run changed state: paused before the next message, running, or finished. */
  | { readonly type: "live"; readonly state: LiveState }
  /** The file is damaged (cut short, no end): where, in one line. The panel shows it as a banner. */
  | { readonly type: "damaged"; readonly problem: string }
  /** An exported page is still reading its embedded lines: `loaded` of `total` so far (total: the run is all there). */
  | { readonly type: "loading"; readonly loaded: number; readonly total: number }
  /** DialogTool's per-turn scores of the run against its scenario's reference (docs/dialogtool.md); after the lines. */
  | { readonly type: "dialogtool"; readonly report: DialogToolReport }
  /** After an evaluation line: whether it is a re-score against another version of the scenario (score-source.ts); null: the run's own. */
  | ScoreSourceMessage
  /** A run a person plays as the agent: the form of its tools (play-form.ts). */
  | PlayFormMessage;

export interface ScoreSourceMessage {
  readonly type: "score-source";
  readonly rescored: Rescored | null;
}

/** "stop" cancels the run (it is still scored and its file closed). */
export type RunControl = "pause" | "continue" | "step" | "stop";
export const RUN_CONTROLS: readonly RunControl[] = ["pause", "continue", "step", "stop"];
/** What an empty panel offers (run the scenario in the active editor, open a saved trajectory), and comparing the shown run with its reference. */
export type PanelCommand = "run" | "open" | "compare-reference";
export const PANEL_COMMANDS: readonly PanelCommand[] = ["run", "open", "compare-reference"];
export type NodeKind = "milestone" | "minefield";
export const NODE_KINDS: readonly NodeKind[] = ["milestone", "minefield"];

/** Panel → host. */
export type ViewRequest =
  /** The panel is listening; the host sends what it has (avoids losing lines sent before load). */
  | { readonly type: "ready" }
  /** Open a link from model or tool output. The host re-checks the http/https allowlist. */
  | { readonly type: "open-link"; readonly url: string }
  /** Open a file the run names (an errored run's log); the host opens only a path the run's end names. */
  | { readonly type: "open-file"; readonly path: string }
  /** Show a milestone or minefield in the scenario editor. */
  | { readonly type: "reveal-node"; readonly kind: NodeKind; readonly id: string }
  /** Pause a live run before its next turn, continue it, or play exactly one turn. */
  | { readonly type: "run-control"; readonly action: RunControl }
  /** The selected message changed (the host may mirror it in the editor). */
  | { readonly type: "selected"; readonly index: number }
  /** A button of the empty panel: run a scenario, or open a trajectory. */
  | { readonly type: "command"; readonly command: PanelCommand }
  /** The runs view: open this run's replay (the host opens only a file it listed). */
  | { readonly type: "open-run"; readonly file: string }
  /** The runs view: compare two of the runs it listed. */
  | { readonly type: "compare-runs"; readonly files: readonly [string, string] }
  /** The runs view: draft a scenario from this run (the host acts only on a file it listed). */
  | { readonly type: "save-as-scenario"; readonly file: string }
  /** A played run's form: a call, a message for the user, or quit (play-form.ts). */
  | PlayRequest;

// ---- What the panel keeps of each line after validation --------------------------------------
// The header is projected onto the fields the panel shows; messages, world changes and the
// evaluation are kept whole. The Assignable checks below fail to compile if the engine's types
// drift away from what the panel reads.

export interface PanelNodeDefinition {
  readonly id: string;
  readonly description: string | null;
}

export interface PanelHeader {
  readonly type: "header";
  /** Which version of the scenario the run played (absent in older files). */
  readonly scenario_digest?: string;
  readonly scenario: {
    readonly name: string;
    readonly description: string;
    readonly categories: readonly string[];
    readonly clock: { readonly now: number; readonly now_iso: string; readonly timezone: string };
    readonly world: { readonly pack: PackId; readonly tables: Tables };
    readonly milestones: readonly PanelNodeDefinition[];
    readonly minefields: readonly PanelNodeDefinition[];
    readonly max_messages: number;
  };
  readonly run: Pick<RunConfig, "agent" | "user" | "seed">;
}

/** The role-play judge's verdict as the panel shows it: who judged, the scores and the reasons (the rubric and telemetry stay in the file). */
export type PanelJudgement = Pick<JudgementEvent, "type" | "judge" | "criteria" | "overall" | "failure">;

/** The evaluation as the panel reads it: everything but the tool_trace_extract details. */
export type PanelEvaluation = EvaluationResult;

export type PanelLine =
  | PanelHeader
  | { readonly type: "message"; readonly message: Message }
  | { readonly type: "model_call"; readonly role: ModelCallRole; readonly index: number; readonly call: ModelCall }
  | { readonly type: "world"; readonly index: number; readonly changes: readonly RowChange[] }
  | { readonly type: "end"; readonly reason: string; readonly detail?: string; readonly message_count: number }
  | { readonly type: "evaluation"; readonly result: PanelEvaluation }
  | PanelJudgement;

export type PanelHostMessage =
  | PanelLine
  | { readonly type: "lines"; readonly lines: readonly PanelLine[]; readonly rejected: readonly string[] }
  | { readonly type: "reveal"; readonly index: number }
  | { readonly type: "live"; readonly state: LiveState }
  | { readonly type: "damaged"; readonly problem: string }
  | LoadingMessage
  | { readonly type: "dialogtool"; readonly report: DialogToolReport }
  | ScoreSourceMessage
  | PlayFormMessage;

export type LoadingMessage = Extract<HostMessage, { type: "loading" }>;

export type { Message, RowChange, Tables };

// Compile-time checks: what the engine writes is what the panel reads.
type Assignable<T extends U, U> = T;
// Named with a leading underscore: never read, they fail the type check when the shapes drift.
type _HeaderFits = Assignable<{ type: "header"; scenario_digest?: string; scenario: Scenario; run: RunConfig }, PanelHeader>;
type _NodeFits = Assignable<Milestone, PanelNodeDefinition>;

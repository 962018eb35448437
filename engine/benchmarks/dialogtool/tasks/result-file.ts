// The file `run --mode dialogtool` writes per scenario, `<name>.dialogtool.json`: every agent turn
// with the reference's action, the agent's and their scores, the metrics, and who predicted.
// `eval --mode dialogtool` reads the turns back and scores them again (so a change of the scoring
// re-grades old runs); the stored scores are for people reading the file.
import { JsonCursor, parseJsonText } from "../../../base/json-reader.js";
import { isTurnAction } from "./actions.js";
import type { ActionCall, AgentAction, DialogToolMetrics, DialogToolTurn, ScoredDialogToolTurn } from "./types.js";

export const DIALOGTOOL_RUN_SUFFIX = ".dialogtool.json";
export const DIALOGTOOL_RUN_FORMAT = "toolsandbox-dialogtool-run";

interface DialogToolRunFile {
  readonly format: typeof DIALOGTOOL_RUN_FORMAT;
  readonly version: 1;
  readonly scenario: string;
  readonly scenario_file: string;
  /** "scripted" (the reference, the oracle) or "openai:<model>". */
  readonly agent: string;
  readonly seed: number;
  /** How the agent was asked: binary awareness or a choice of action; flat selection, or hierarchical as well. */
  readonly awareness: "binary" | "actions";
  readonly selection: "flat" | "hierarchical";
  readonly metrics: DialogToolMetrics;
  readonly by_depth: readonly { readonly dialogue_turn: number; readonly metrics: DialogToolMetrics }[];
  readonly by_app: readonly { readonly app: string; readonly metrics: DialogToolMetrics }[];
  readonly turns: readonly ScoredDialogToolTurn[];
}

export function serializeDialogToolRun(run: DialogToolRunFile): string {
  return `${JSON.stringify(run, null, 2)}\n`;
}

function integer(cursor: JsonCursor): number {
  const value = cursor.json();
  if (typeof value !== "number" || !Number.isInteger(value)) cursor.fail("expected an integer");
  return value;
}

function readCall(cursor: JsonCursor): ActionCall {
  const args = cursor.field("arguments");
  return { tool: cursor.field("tool").string(), arguments: args.json() === null ? null : args.object() };
}

function readTruth(cursor: JsonCursor): Exclude<AgentAction, { kind: "none" }> {
  const kindCursor = cursor.field("kind");
  const kind = kindCursor.string();
  if (kind === "text") return { kind, text: cursor.field("text").string() };
  if (kind === "calls") return { kind, calls: cursor.field("calls").items().map(readCall) };
  return kindCursor.fail(`expected "calls" or "text", found ${JSON.stringify(kind)}`);
}

function readPrediction(cursor: JsonCursor): AgentAction {
  if (cursor.field("kind").string() === "none") return { kind: "none", reason: cursor.field("reason").string() };
  return readTruth(cursor);
}

function readTurnAction(cursor: JsonCursor) {
  const value = cursor.string();
  if (!isTurnAction(value)) cursor.fail(`expected one of DialogTool's actions, found ${JSON.stringify(value)}`);
  return value;
}

/** The facts a turn may carry beyond the actions (absent in files written before they existed). */
function readExtras(turn: JsonCursor): Partial<DialogToolTurn> {
  const extras: { -readonly [K in keyof DialogToolTurn]?: DialogToolTurn[K] } = {};
  if (turn.field("truth_action").exists) extras.truth_action = readTurnAction(turn.field("truth_action"));
  if (turn.field("action_choice").exists) {
    const choice = turn.field("action_choice");
    const chosen = choice.field("chosen");
    extras.action_choice = { chosen: chosen.json() === null ? null : readTurnAction(chosen), answer: choice.field("answer").string() };
  }
  if (turn.field("hierarchical").exists) {
    const h = turn.field("hierarchical");
    const apps = h.field("apps");
    extras.hierarchical = {
      apps: apps.json() === null ? null : apps.strings(),
      answer: h.field("answer").string(),
      prediction: readPrediction(h.field("prediction")),
      model_calls: [],
    };
  }
  if (turn.field("transactional").exists) extras.transactional = turn.field("transactional").strings();
  if (turn.field("go_ahead").exists) extras.go_ahead = turn.field("go_ahead").strings();
  return extras;
}

interface ReadDialogToolRun {
  readonly scenario: string;
  readonly agent: string;
  readonly turns: readonly DialogToolTurn[];
}

/** Reads a run file; a malformed one throws JsonInputError naming the file, line, column and JSON path. */
export function readDialogToolRun(text: string, file: string): ReadDialogToolRun {
  const source = { file, text };
  const root = new JsonCursor(source, parseJsonText(source));
  const format = root.field("format");
  if (format.string() !== DIALOGTOOL_RUN_FORMAT) format.fail(`expected "${DIALOGTOOL_RUN_FORMAT}"`);
  const turns = root
    .field("turns")
    .items()
    .map((turn): DialogToolTurn => {
      // The model call's telemetry is for people reading the file; scoring does not need it.
      return {
        index: integer(turn.field("index")),
        dialogue_turn: integer(turn.field("dialogue_turn")),
        truth: readTruth(turn.field("truth")),
        prediction: readPrediction(turn.field("prediction")),
        apps: turn.field("apps").strings(),
        ...readExtras(turn),
      };
    });
  return { scenario: root.field("scenario").string(), agent: root.field("agent").string(), turns };
}

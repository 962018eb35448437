// The file `run --mode tooltalk` writes per conversation, `<name>.tooltalk.json`: what ToolTalk's
// evaluate_openai.py writes (the turns with the predictions next to the ground truth, each call
// marked match / bad_action, and the metrics), plus who predicted, the free-text similarity and the
// step cap. `eval --mode tooltalk` reads it back and scores the turns again, so a change to the
// match rules re-grades old runs; the metrics stored in the file are for people reading it.
import type { ToolTalkErrorTypes } from "../evaluation/error-types.js";
import { JsonCursor, parseJsonText } from "../../../base/json-reader.js";
import type { ScoredTurn, ToolTalkMetrics } from "../evaluation/metrics.js";
import type { ToolTalkCall, ToolTalkCallRecord, ToolTalkTurnPrediction, ToolTalkTurnRun } from "../evaluation/types.js";

export const TOOLTALK_RUN_SUFFIX = ".tooltalk.json";
export const TOOLTALK_RUN_FORMAT = "toolsandbox-tooltalk-run";

interface ToolTalkRunFile {
  readonly format: typeof TOOLTALK_RUN_FORMAT;
  readonly version: 1;
  readonly scenario: string;
  /** The scenario file that was run. */
  readonly scenario_file: string;
  /** "scripted" (the ground truth) or "openai:<model>". */
  readonly agent: string;
  /** The free-text scorer standing in for ToolTalk's DistilBERT, e.g. "rouge-l". */
  readonly similarity: string;
  readonly max_calls_per_turn: number;
  readonly metrics: ToolTalkMetrics;
  readonly error_types: ToolTalkErrorTypes;
  readonly turns: readonly ScoredTurn[];
}

interface ReadRunFile {
  readonly scenario: string;
  readonly agent: string;
  readonly turns: readonly ToolTalkTurnRun[];
}

export function serializeRunFile(run: ToolTalkRunFile): string {
  return `${JSON.stringify(run, null, 2)}\n`;
}

function readCall(cursor: JsonCursor): ToolTalkCall {
  const request = cursor.field("request");
  const exception = cursor.field("exception");
  return {
    request: { api_name: request.field("api_name").string(), parameters: request.field("parameters").object() },
    response: cursor.field("response").json(),
    exception: exception.json() === null ? null : exception.string(),
  };
}

function readPrediction(cursor: JsonCursor): ToolTalkTurnPrediction {
  const role = cursor.field("role").string();
  if (role === "assistant") return { role, text: cursor.field("text").string() };
  const roleCursor: JsonCursor = cursor.field("role");
  if (role !== "api") roleCursor.fail(`expected "api" or "assistant", found ${JSON.stringify(role)}`);
  const request = cursor.field("request");
  const parameters = request.field("parameters");
  const exception = cursor.field("exception");
  const record: ToolTalkCallRecord = {
    role: "api",
    request: { api_name: request.field("api_name").string(), parameters: parameters.json() === null ? null : parameters.object() },
    response: cursor.field("response").json(),
    exception: exception.json() === null ? null : exception.string(),
    metadata: cursor.field("metadata").exists ? cursor.field("metadata").json() : null,
  };
  return record;
}

/** Reads a run file; a malformed one throws JsonInputError naming the file, line and JSON path. */
export function readRunFile(text: string, file: string): ReadRunFile {
  const source = { file, text };
  const root = new JsonCursor(source, parseJsonText(source));
  const format: JsonCursor = root.field("format");
  if (format.string() !== TOOLTALK_RUN_FORMAT) format.fail(`expected "${TOOLTALK_RUN_FORMAT}"`);
  const turns = root
    .field("turns")
    .items()
    .map((turn): ToolTalkTurnRun => {
      // Explicit types let TypeScript see that `fail` (which returns never) ends the path.
      const positionCursor: JsonCursor = turn.field("position");
      const position = positionCursor.json();
      if (typeof position !== "number" || !Number.isInteger(position)) positionCursor.fail("expected an integer");
      const cappedCursor: JsonCursor = turn.field("step_cap_reached");
      const capped = cappedCursor.json();
      if (typeof capped !== "boolean") cappedCursor.fail("expected true or false");
      return {
        position,
        text: turn.field("text").string(),
        apis: turn.field("apis").items().map(readCall),
        predictions: turn.field("predictions").items().map(readPrediction),
        step_cap_reached: capped,
      };
    });
  return { scenario: root.field("scenario").string(), agent: root.field("agent").string(), turns };
}

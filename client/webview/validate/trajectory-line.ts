// Trajectory lines at the panel's boundary: the header (projected onto what the panel shows),
// messages, model calls (model-call.ts), world changes, the end event and the judge's verdict (judgement.ts), each checked field by field against the shapes in
// schemas/trajectory.schema.json. The evaluation has its own file.
import { ROLE_NAMES, type Message, type RoleName, type ToolCall, type ToolTrace } from "../../../engine/episode/types.js";
import { PACK_IDS } from "../../../engine/packs/types.js";
import type { RowChange, Tables } from "../../../engine/world/types.js";
import type { PanelHeader, PanelLine, PanelNodeDefinition } from "../../../engine/panel/protocol.js";
import { bool, finite, index, json, jsonObject, list, nullable, oneOf, prop, record, row, str, WireError, type Reader } from "./check.js";
import { evaluationResult } from "./evaluation.js";
import { judgementLine } from "./judgement.js";
import { modelCallLine } from "./model-call.js";

const FORMAT = "toolsandbox-trajectory";
const VERSION = 1;

const role: Reader<RoleName> = oneOf(ROLE_NAMES);

/** One trajectory line, or a WireError naming what is wrong with it. */
export function trajectoryLine(value: unknown, path: string): PanelLine {
  const o = record(value, path);
  const type = prop(o, "type");
  switch (type) {
    case "header":
      return header(o, path);
    case "message":
      return { type, message: message(prop(o, "message"), `${path}/message`) };
    case "model_call":
      return modelCallLine(o, path);
    case "world":
      return {
        type,
        index: index(prop(o, "index"), `${path}/index`),
        changes: list(rowChange)(prop(o, "changes"), `${path}/changes`),
      };
    case "end": {
      const detail = prop(o, "detail");
      return {
        type,
        // Any reason is shown as it is: a newer engine may end runs for reasons this build does not know.
        reason: str(prop(o, "reason"), `${path}/reason`),
        ...(detail === undefined ? {} : { detail: str(detail, `${path}/detail`) }),
        message_count: index(prop(o, "message_count"), `${path}/message_count`),
      };
    }
    case "evaluation":
      return { type, result: evaluationResult(prop(o, "result"), `${path}/result`) };
    case "judgement":
      return judgementLine(o, path);
    default:
      throw new WireError(`${path}/type`, `is not a trajectory line type: ${JSON.stringify(type ?? null)}`);
  }
}

function header(o: Readonly<Record<string, unknown>>, path: string): PanelHeader {
  if (prop(o, "format") !== FORMAT) throw new WireError(`${path}/format`, `must be "${FORMAT}"`);
  if (prop(o, "version") !== VERSION) throw new WireError(`${path}/version`, `must be ${VERSION} (the version this panel reads)`);
  const s = record(prop(o, "scenario"), `${path}/scenario`);
  const sp = `${path}/scenario`;
  const clock = record(prop(s, "clock"), `${sp}/clock`);
  const world = record(prop(s, "world"), `${sp}/world`);
  const run = record(prop(o, "run"), `${path}/run`);
  // Absent in files written before the header recorded it.
  const digest = prop(o, "scenario_digest");
  return {
    type: "header",
    ...(digest === undefined ? {} : { scenario_digest: scenarioDigest(digest, `${path}/scenario_digest`) }),
    scenario: {
      name: str(prop(s, "name"), `${sp}/name`),
      description: str(prop(s, "description"), `${sp}/description`),
      categories: list(str)(prop(s, "categories"), `${sp}/categories`),
      clock: {
        now: finite(prop(clock, "now"), `${sp}/clock/now`),
        now_iso: str(prop(clock, "now_iso"), `${sp}/clock/now_iso`),
        timezone: str(prop(clock, "timezone"), `${sp}/clock/timezone`),
      },
      // An unknown pack is refused here: the panel would not know its tables' keys and columns.
      world: {
        pack: oneOf(PACK_IDS)(prop(world, "pack"), `${sp}/world/pack`),
        tables: tables(prop(world, "tables"), `${sp}/world/tables`),
      },
      milestones: list(nodeDefinition)(prop(s, "milestones"), `${sp}/milestones`),
      minefields: list(nodeDefinition)(prop(s, "minefields"), `${sp}/minefields`),
      max_messages: index(prop(s, "max_messages"), `${sp}/max_messages`),
    },
    run: {
      agent: str(prop(run, "agent"), `${path}/run/agent`),
      user: str(prop(run, "user"), `${path}/run/user`),
      seed: index(prop(run, "seed"), `${path}/run/seed`),
    },
  };
}

const DIGEST = /^sha256:[0-9a-f]{16}$/;

/** The schema's form of a scenario digest: "sha256:" and 16 lower-case hex digits. */
function scenarioDigest(value: unknown, path: string): string {
  const text = str(value, path);
  if (!DIGEST.test(text)) throw new WireError(path, 'must be "sha256:" and 16 hex digits');
  return text;
}

function nodeDefinition(value: unknown, path: string): PanelNodeDefinition {
  const o = record(value, path);
  return { id: str(prop(o, "id"), `${path}/id`), description: nullable(str)(prop(o, "description"), `${path}/description`) };
}

function tables(value: unknown, path: string): Tables {
  const o = record(value, path);
  // Object.fromEntries defines own properties, so a table named "__proto__" cannot reach the prototype.
  return Object.fromEntries(Object.keys(o).map((name) => [name, list(row)(o[name], `${path}/${name}`)]));
}

function message(value: unknown, path: string): Message {
  const o = record(value, path);
  const field = (key: string): unknown => prop(o, key);
  const at = (key: string): string => `${path}/${key}`;
  const toolCall = field("tool_call");
  const scripted = field("scripted");
  return {
    sandbox_message_index: index(field("sandbox_message_index"), at("sandbox_message_index")),
    sender: role(field("sender"), at("sender")),
    recipient: role(field("recipient"), at("recipient")),
    content: str(field("content"), at("content")),
    visible_to: list(role)(field("visible_to"), at("visible_to")),
    conversation_active: bool(field("conversation_active"), at("conversation_active")),
    openai_tool_call_id: nullable(str)(field("openai_tool_call_id"), at("openai_tool_call_id")),
    openai_function_name: nullable(str)(field("openai_function_name"), at("openai_function_name")),
    tool_call_exception: nullable(str)(field("tool_call_exception"), at("tool_call_exception")),
    tool_trace: nullable(list(toolTrace))(field("tool_trace"), at("tool_trace")),
    ...(toolCall === undefined ? {} : { tool_call: toolCallOf(toolCall, at("tool_call")) }),
    ...(scripted === undefined ? {} : { scripted: bool(scripted, at("scripted")) }),
  };
}

function toolCallOf(value: unknown, path: string): ToolCall {
  const o = record(value, path);
  const args = prop(o, "arguments");
  const raw = prop(o, "raw_arguments");
  return {
    id: str(prop(o, "id"), `${path}/id`),
    name: str(prop(o, "name"), `${path}/name`),
    ...(args === undefined ? {} : { arguments: jsonObject(args, `${path}/arguments`) }),
    ...(raw === undefined ? {} : { raw_arguments: str(raw, `${path}/raw_arguments`) }),
  };
}

function toolTrace(value: unknown, path: string): ToolTrace {
  const o = record(value, path);
  return {
    tool_name: str(prop(o, "tool_name"), `${path}/tool_name`),
    arguments: jsonObject(prop(o, "arguments"), `${path}/arguments`),
    result: json(prop(o, "result") ?? null, `${path}/result`),
  };
}

function rowChange(value: unknown, path: string): RowChange {
  const o = record(value, path);
  const table = str(prop(o, "table"), `${path}/table`);
  const position = index(prop(o, "position"), `${path}/position`);
  const op = prop(o, "op");
  switch (op) {
    case "insert":
    case "delete":
      return { op, table, position, row: row(prop(o, "row"), `${path}/row`) };
    case "update":
      return {
        op,
        table,
        position,
        new_position: index(prop(o, "new_position"), `${path}/new_position`),
        old: row(prop(o, "old"), `${path}/old`),
        new: row(prop(o, "new"), `${path}/new`),
      };
    default:
      throw new WireError(`${path}/op`, "must be one of: insert, delete, update");
  }
}

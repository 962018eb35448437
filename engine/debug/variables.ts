// What the Variables view shows when stopped, as a tree the adapter hands out piece by piece:
// World (tables, rows, cells; what changed since the last stop is marked), Message, Milestones
// (each one's state and best similarity over the messages so far) and Model call (telemetry).
import type { Message } from "../episode/types.js";
import type { EvaluationResult, NodeResult } from "../evaluation/result.js";
import type { ModelCallEvent } from "../trajectory/trajectory.js";
import type { CellValue, Row, TableSchema, Tables } from "../world/types.js";
import type { DebugSession } from "./debug-session.js";

export interface VarNode {
  readonly name: string;
  readonly value: string;
  /** An expression Watch and the console accept for this value, when there is one. */
  readonly evaluateName?: string;
  /** Children, built when the client expands the node. */
  readonly children?: () => readonly VarNode[];
}

interface Scope {
  readonly name: string;
  readonly children: () => readonly VarNode[];
  /** Many children: the client should not expand it on its own. */
  readonly expensive: boolean;
  /** It shows the evaluation of the messages up to this index: the adapter has it scored first, off the event loop. */
  readonly evaluationAt?: number;
}

/** Marks a value that changed since the last stop; VS Code shows the text as is. */
const CHANGED = "●";

/** The scopes at message `index` (the current message, or an earlier turn's frame). */
export function scopes(session: DebugSession, index: number): Scope[] {
  const before = session.lastStop;
  // At the end, a call that produced no message (it failed) points past the last message.
  const calls = session.atEnd && index === session.messageIndex ? session.position : index;
  return [
    { name: "Message", children: () => messageNodes(session.timeline.messages[index], session, index), expensive: false },
    {
      name: "World",
      children: () => worldNodes(session.worldAt(index), before === null ? null : session.worldAt(before), session.timeline.schemas),
      expensive: false,
    },
    // Expensive: the evaluation of a long run can take seconds, so it runs only when the scope is opened.
    { name: "Milestones", children: () => milestoneNodes(session.evaluationAt(index)), expensive: true, evaluationAt: index },
    {
      name: "Model call",
      children: () => modelCallNodes(session.timeline.modelCallsAt(calls), session.timeline.lastModelCallAt(calls)),
      expensive: false,
    },
  ];
}

export function showCell(value: CellValue | undefined): string {
  return value === undefined ? "undefined" : JSON.stringify(value);
}

function leaf(name: string, value: string, evaluateName?: string): VarNode {
  return evaluateName === undefined ? { name, value } : { name, value, evaluateName };
}

/** A plain JSON value as a node: objects and lists expand. */
export function jsonNode(name: string, value: unknown, evaluateName?: string): VarNode {
  if (value !== null && typeof value === "object") {
    const entries = Array.isArray(value) ? value.map((v, i) => [String(i), v] as const) : Object.entries(value as Record<string, unknown>);
    const summary = Array.isArray(value) ? `[${value.length}]` : `{${entries.map(([k]) => k).join(", ")}}`;
    return {
      name,
      value: summary,
      ...(evaluateName === undefined ? {} : { evaluateName }),
      children: () =>
        entries.map(([k, v]) =>
          jsonNode(k, v, evaluateName === undefined ? undefined : Array.isArray(value) ? `${evaluateName}[${k}]` : `${evaluateName}.${k}`),
        ),
    };
  }
  return leaf(name, JSON.stringify(value) ?? "null", evaluateName);
}

function messageNodes(message: Message | undefined, session: DebugSession, index: number): VarNode[] {
  if (!message) return [leaf("message", "none yet")];
  const origin = session.origins.originOf(index);
  const nodes: VarNode[] = [
    leaf("index", String(message.sandbox_message_index), "index"),
    leaf("user turn", String(session.origins.turnOf(index)), "turn"),
    leaf("sender", JSON.stringify(message.sender), "message.sender"),
    leaf("recipient", JSON.stringify(message.recipient), "message.recipient"),
    leaf("content", JSON.stringify(message.content), "message.content"),
    jsonNode("visible_to", message.visible_to, "message.visible_to"),
    leaf("conversation_active", String(message.conversation_active), "message.conversation_active"),
  ];
  if (message.tool_call) nodes.push(jsonNode("tool_call", message.tool_call, "message.tool_call"));
  if (message.tool_trace) nodes.push(jsonNode("tool_trace", message.tool_trace, "message.tool_trace"));
  if (message.tool_call_exception !== null) nodes.push(leaf("tool_call_exception", JSON.stringify(message.tool_call_exception)));
  if (message.openai_function_name !== null) nodes.push(leaf("openai_function_name", JSON.stringify(message.openai_function_name)));
  if (message.scripted) nodes.push(leaf("scripted", "true"));
  nodes.push(leaf("from", originText(origin)));
  if (session.atEnd) {
    const end = session.timeline.end;
    nodes.push(leaf("episode ended", end ? `${end.reason}${end.detail ? `: ${end.detail}` : ""}` : "cut short (no end event)"));
  }
  return nodes;
}

function originText(origin: ReturnType<DebugSession["origins"]["originOf"]>): string {
  switch (origin.kind) {
    case "system":
      return "the agent's system prompt";
    case "goal":
      return "the user's instructions (goal and knowledge)";
    case "opening":
      return "user.opening";
    case "demonstration":
      return origin.message === null
        ? `demonstration ${origin.demo + 1}`
        : `demonstration ${origin.demo + 1}, message ${origin.message + 1}`;
    case "reference": {
      const call = origin.call === null ? "" : `, call ${origin.call + 1}`;
      return `reference step ${origin.step + 1}${call}${origin.response ? " (its result)" : ""}`;
    }
    case "tool":
      return `tool ${origin.name}`;
    case "model":
      return "the model";
  }
}

/** One node per table; a table's value says how many rows changed since `before` (the last stop). */
function worldNodes(now: Tables, before: Tables | null, schemas: ReadonlyMap<string, TableSchema>): VarNode[] {
  return Object.keys(now).map((table) => {
    const rows = now[table]!;
    const old = before?.[table];
    const diff = old === undefined || old === rows ? null : tableDiff(old, rows, schemas.get(table)?.key ?? null);
    const changes = diff === null ? 0 : diff.changedRows.size + diff.added.size + diff.removed.length;
    const count = `${rows.length} row${rows.length === 1 ? "" : "s"}`;
    return {
      name: table,
      value: changes > 0 ? `${count}, ${changes} changed since the last stop ${CHANGED}` : count,
      evaluateName: table,
      children: () => [
        ...rows.map((row, i) => rowNode(table, row, i, diff)),
        ...(diff?.removed ?? []).map((row, i) => ({
          name: `(removed ${i + 1})`,
          value: `${rowSummary(row)} ${CHANGED}`,
          children: () => Object.entries(row).map(([k, v]) => leaf(k, showCell(v))),
        })),
      ],
    };
  });
}

interface TableDiff {
  /** Row position -> the old row it replaced. */
  readonly changedRows: Map<number, Row>;
  readonly added: Set<number>;
  readonly removed: Row[];
}

/** Rows matched by key (by position without one): which were added, removed or changed. */
function tableDiff(old: readonly Row[], now: readonly Row[], key: string | null): TableDiff {
  const keyOf = (row: Row, i: number): string => (key === null ? `#${i}` : JSON.stringify(row[key] ?? null));
  const oldByKey = new Map<string, Row>();
  old.forEach((row, i) => {
    const k = keyOf(row, i);
    if (!oldByKey.has(k)) oldByKey.set(k, row);
  });
  const changedRows = new Map<number, Row>();
  const added = new Set<number>();
  const seen = new Set<string>();
  now.forEach((row, i) => {
    const k = keyOf(row, i);
    seen.add(k);
    const was = oldByKey.get(k);
    if (!was) added.add(i);
    else if (!sameCells(was, row)) changedRows.set(i, was);
  });
  const removed = [...oldByKey.entries()].filter(([k]) => !seen.has(k)).map(([, row]) => row);
  return { changedRows, added, removed };
}

function sameCells(a: Row, b: Row): boolean {
  const keys = Object.keys(b);
  return keys.length === Object.keys(a).length && keys.every((k) => JSON.stringify(a[k]) === JSON.stringify(b[k]));
}

function rowSummary(row: Row): string {
  const entries = Object.entries(row).slice(0, 4);
  return `{${entries.map(([k, v]) => `${k}: ${showCell(v)}`).join(", ")}${Object.keys(row).length > 4 ? ", …" : ""}}`;
}

function rowNode(table: string, row: Row, i: number, diff: TableDiff | null): VarNode {
  const was = diff?.changedRows.get(i);
  const isNew = diff?.added.has(i) ?? false;
  const mark = isNew ? ` ${CHANGED} new` : was ? ` ${CHANGED} changed` : "";
  return {
    name: String(i),
    value: `${rowSummary(row)}${mark}`,
    evaluateName: `${table}[${i}]`,
    children: () =>
      Object.entries(row).map(([column, value]) => {
        const changed = was !== undefined && JSON.stringify(was[column]) !== JSON.stringify(value);
        const text = changed ? `${showCell(value)} ${CHANGED} was ${showCell(was[column])}` : showCell(value);
        return leaf(column, text, `${table}[${i}].${column}`);
      }),
  };
}

function nodeState(node: NodeResult, minefield: boolean): string {
  const similarity = `similarity ${round(node.similarity)}`;
  if (node.matched_at !== null) return `${minefield ? "hit" : "matched"} at message ${node.matched_at} (${similarity})`;
  const closest = node.explained_at === null ? "" : `, closest at message ${node.explained_at}`;
  return `${minefield ? "not hit" : "not matched"} (best ${similarity}${closest})`;
}

const round = (n: number): string => String(Math.round(n * 1000) / 1000);

function milestoneNodes(result: EvaluationResult | null): VarNode[] {
  if (!result) return [leaf("milestones", "cannot be scored (see the Debug Console)")];
  const node = (n: NodeResult, minefield: boolean): VarNode => ({
    name: minefield ? `minefield ${n.id}` : n.id,
    value: nodeState(n, minefield),
    evaluateName: `milestones.${n.id}`,
    children: () => [
      leaf("matched_at", JSON.stringify(n.matched_at)),
      leaf("similarity", round(n.similarity)),
      leaf("closest_at", JSON.stringify(n.explained_at)),
      ...n.constraints.map((c, i) => jsonNode(`constraint ${i + 1}`, c)),
    ],
  });
  return [
    leaf("score so far", round(result.score)),
    ...result.milestones.map((n) => node(n, false)),
    ...result.minefields.map((n) => node(n, true)),
  ];
}

/** The calls that produced this message, else the last call before it. */
function modelCallNodes(calls: readonly ModelCallEvent[], last: ModelCallEvent | null): VarNode[] {
  const shown = calls.length > 0 ? calls : last ? [last] : [];
  if (shown.length === 0) return [leaf("model call", "none (scripted roles make no model calls)")];
  return shown.map((event, i) => {
    const { call } = event;
    const usage = call.usage ? `${call.usage.total_tokens ?? "?"} tokens` : "no usage";
    return {
      name: shown.length === 1 ? (calls.length > 0 ? "this message's call" : `last call (message ${event.index})`) : `call ${i + 1}`,
      value: `${event.role} ${call.model}: ${call.latency_ms} ms, ${call.attempts} attempt${call.attempts === 1 ? "" : "s"}, ${usage}${call.error ? `, failed: ${call.error}` : ""}`,
      children: () => [
        leaf("role", JSON.stringify(event.role)),
        leaf("model", JSON.stringify(call.model)),
        leaf("latency_ms", String(call.latency_ms)),
        leaf("attempts", String(call.attempts)),
        leaf("request_id", JSON.stringify(call.request_id)),
        jsonNode("usage", call.usage),
        ...(call.error === undefined ? [] : [leaf("error", JSON.stringify(call.error))]),
        ...(call.request === undefined ? [] : [jsonNode("request", call.request)]),
        ...(call.response === undefined ? [] : [jsonNode("response", call.response)]),
      ],
    };
  });
}

// Trajectories for the panel tests and the panel benchmark: the saved samples, variations of them
// (a flawed run, one full of HTML and script payloads) and a long synthetic run. Plus the two ways
// to put one in a page: through the CLI's `replay --html`, or straight through the HTML builder
// (for content the evaluation would never produce, such as payloads in explanations).
import { spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createNonce, panelHtml } from "../../engine/panel/html.js";
import type { TrajectoryLine } from "../../engine/panel/protocol.js";
import type { Message, TrajectoryHeader } from "../../engine/episode/types.js";
import type { EvaluationResult, NodeResult } from "../../engine/evaluation/result.js";
import type { Row, RowChange } from "../../engine/world/types.js";

const ROOT = join(__dirname, "..", "..");
export const SAMPLES = join(ROOT, "sample-scenarios", "trajectories");
export const CLI = join(ROOT, "dist", "cli.js");

export const samplePath = (name: string): string => join(SAMPLES, `${name}.trajectory.jsonl`);

/** The lines of a trajectory file, parsed (the tests trust the samples; the panel does not). */
export function readLines(file: string): TrajectoryLine[] {
  return readFileSync(file, "utf8")
    .split("\n")
    .filter((l) => l.trim() !== "")
    .map((l) => JSON.parse(l) as TrajectoryLine);
}

export function writeLines(file: string, lines: readonly TrajectoryLine[]): string {
  writeFileSync(file, `${lines.map((l) => JSON.stringify(l)).join("\n")}\n`);
  return file;
}

/** `toolsandbox replay FILE --html OUT` with the built CLI; returns OUT. */
export function exportWithCli(trajectory: string, out: string): string {
  const r = spawnSync(process.execPath, [CLI, "replay", trajectory, "--html", out], { encoding: "utf8" });
  if (r.status !== 0) throw new Error(`replay --html failed (${r.status}): ${r.stderr}`);
  return out;
}

/** A page built directly from lines, exactly as the export builds it (inline bundle, embedded data). */
export function writePanelPage(file: string, lines: readonly unknown[], title = "panel test"): string {
  const dist = join(ROOT, "dist");
  const html = panelHtml({
    title,
    nonce: createNonce(),
    assets: {
      kind: "inline",
      script: readFileSync(join(dist, "webview.js"), "utf8"),
      style: readFileSync(join(dist, "webview.css"), "utf8"),
    },
    lines,
  });
  writeFileSync(file, html);
  return file;
}

const messageOf = (line: TrajectoryLine): Message | null => (line.type === "message" ? line.message : null);

function mapMessages(lines: readonly TrajectoryLine[], change: (m: Message) => Message): TrajectoryLine[] {
  return lines.map((l) => (l.type === "message" ? { ...l, message: change(l.message) } : l));
}

/**
 * send_message_with_contact_content_cellular_off, but the agent sends a different text: the world
 * insert and the call carry it, so `message_sent` scores below 1 on the content column.
 */
export function flawedRun(): TrajectoryLine[] {
  const WRONG = "Is the album done yet";
  const lines = readLines(samplePath("send_message_with_contact_content_cellular_off_adapted")).filter((l) => l.type !== "evaluation");
  return mapMessages(lines, (m) =>
    m.tool_call?.name === "send_message_with_phone_number" && m.tool_call.arguments
      ? { ...m, tool_call: { ...m.tool_call, arguments: { ...m.tool_call.arguments, content: WRONG } } }
      : m,
  ).map((l) => {
    if (l.type !== "world") return l;
    return {
      ...l,
      changes: l.changes.map(
        (c): RowChange => (c.op === "insert" && c.table === "MESSAGING" ? { ...c, row: { ...c.row, content: WRONG } } : c),
      ),
    };
  });
}

// ---- payloads ------------------------------------------------------------------------------------

/** Markup and script that must show as text. Each sets a window flag or opens a dialog if it ever runs. */
export const PAYLOADS = [
  `<img src=x onerror="window.__pwned='img';alert('img')">`,
  `<script>window.__pwned='script';alert('script')</script>`,
  `</script><script>window.__pwned='close';alert('close')</script>`,
  `<svg onload="window.__pwned='svg'"><circle r=5></circle></svg>`,
  `<iframe srcdoc="<script>parent.__pwned='iframe'</script>"></iframe>`,
  `<a href="javascript:window.__pwned='href'">link</a> javascript:alert('js')`,
  `<style>body{display:none}</style><link rel=stylesheet href="https://example.invalid/x.css">`,
  `\u2028\u2029<!-- <b onmouseover="window.__pwned='b'">bold</b> -->&amp;&lt;`,
] as const;

export const payload = (i: number): string => PAYLOADS[i % PAYLOADS.length]!;

/**
 * modify_contact_with_message_recency with payloads everywhere a run can put text: the scenario's
 * name and description, milestone descriptions, user and agent messages, tool arguments and
 * results, a tool error, the tool trace, and world rows (an added contact, a changed number).
 */
export function payloadRun(): TrajectoryLine[] {
  const lines = readLines(samplePath("modify_contact_with_message_recency_adapted")).filter((l) => l.type !== "evaluation");
  const header = lines[0] as TrajectoryHeader;
  const scenario = {
    ...header.scenario,
    name: `${payload(0)} scenario`,
    description: payload(1),
    milestones: header.scenario.milestones.map((m, i) => ({ ...m, description: payload(i + 2) })),
  };
  let counter = 0;
  const next = (): string => payload(counter++);
  const out: TrajectoryLine[] = [{ ...header, scenario }];
  for (const line of mapMessages(lines.slice(1), (m) => {
    const i = m.sandbox_message_index;
    if (m.sender === "user" || (m.sender === "agent" && !m.tool_call)) return { ...m, content: `${m.content} ${next()}` };
    if (m.tool_call?.arguments) return { ...m, tool_call: { ...m.tool_call, arguments: { ...m.tool_call.arguments, [next()]: next() } } };
    if (m.sender === "execution_environment" && i === 20)
      return { ...m, content: next(), tool_call_exception: `ValueError: ${next()}`, tool_trace: null };
    if (m.sender === "execution_environment" && m.tool_trace) {
      return { ...m, content: next(), tool_trace: m.tool_trace.map((t) => ({ ...t, result: { html: next() } })) };
    }
    return m;
  })) {
    if (line.type === "world") {
      out.push({
        ...line,
        changes: line.changes.map(
          (c): RowChange => (c.op === "update" ? { ...c, new: { ...c.new, name: next(), phone_number: next() } } : c),
        ),
      });
      continue;
    }
    out.push(line);
  }
  // An added row full of payloads, recorded with the last tool response.
  const contacts = header.scenario.world.tables.CONTACT ?? [];
  const added: Row = { person_id: next(), name: next(), phone_number: next(), relationship: next(), is_self: false };
  const endAt = out.findIndex((l) => l.type === "end");
  const lastIndex = (messageOf(out[endAt - 1]!)?.sandbox_message_index ?? 0) as number;
  out.splice(endAt - 1, 0, {
    type: "world",
    index: lastIndex,
    changes: [{ op: "insert", table: "CONTACT", position: contacts.length, row: added }],
  });
  return out;
}

/** An evaluation whose every text (ids, reasons, notes, columns) is a payload, pinned at `at`. */
export function payloadEvaluation(at: number): TrajectoryLine {
  const node = (id: string): NodeResult => ({
    id,
    matched_at: at,
    explained_at: at,
    similarity: 0.5,
    constraints: [
      {
        kind: "snapshot",
        table: "CONTACT",
        similarity: 0.5,
        reference: { id: payload(3), index: 0 },
        explanation: {
          kind: "snapshot",
          table: "CONTACT",
          similarity: 0.5,
          rows: "current",
          reason: payload(4),
          pairs: [
            {
              target: 0,
              row: 0,
              similarity: 0.5,
              columns: [{ column: payload(5), measure: "rouge_l", similarity: 0.5, note: payload(6) }],
            },
          ],
          weakest: { target: 0, row: 0, column: payload(5), similarity: 0.5 },
        },
      },
    ],
    guardrails: [],
  });
  const result: EvaluationResult = {
    score: 0,
    milestone_score: 0.5,
    minefield_score: 0.5,
    turn_count: 3,
    zero_reason: payload(7),
    window: { first: 0, last: at },
    milestones: [node(payload(0))],
    minefields: [node(payload(1))],
  };
  return { type: "evaluation", result };
}

// ---- a long run ----------------------------------------------------------------------------------

/**
 * A run of `count` messages (count >= 4) on modify_contact_with_message_recency's world: rounds of
 * user request → agent call to set_cellular_service_status → tool response (the SETTING row
 * flips, recorded at the response) → agent reply. Milestones match at a quarter, half, three
 * quarters and near the end; a minefield at the middle.
 */
export function longRun(count: number): TrajectoryLine[] {
  const header = readLines(samplePath("modify_contact_with_message_recency_adapted"))[0] as TrajectoryHeader;
  const lines: TrajectoryLine[] = [header];
  let setting = header.scenario.world.tables.SETTING![0]!;
  const base = {
    conversation_active: true,
    openai_tool_call_id: null,
    openai_function_name: null,
    tool_call_exception: null,
    tool_trace: null,
  };
  const responses: number[] = [];
  for (let i = 0; i < count; i++) {
    const round = Math.floor(i / 4);
    const on = round % 2 === 0;
    let message: Message;
    switch (i % 4) {
      case 0:
        message = {
          ...base,
          sandbox_message_index: i,
          sender: "user",
          recipient: "agent",
          visible_to: ["user", "agent"],
          content: `Round ${round}: please turn cellular ${on ? "on" : "off"}.`,
        };
        break;
      case 1:
        message = {
          ...base,
          sandbox_message_index: i,
          sender: "agent",
          recipient: "execution_environment",
          visible_to: ["agent", "execution_environment"],
          content: `set_cellular_service_status(on=${on ? "True" : "False"})`,
          tool_call: { id: `call_${round}`, name: "set_cellular_service_status", arguments: { on } },
        };
        break;
      case 2: {
        const next = { ...setting, cellular: !setting.cellular };
        lines.push({
          type: "world",
          index: i,
          changes: [{ op: "update", table: "SETTING", position: 0, new_position: 0, old: setting, new: next }],
        });
        setting = next;
        responses.push(i);
        message = {
          ...base,
          sandbox_message_index: i,
          sender: "execution_environment",
          recipient: "agent",
          visible_to: ["execution_environment", "agent"],
          content: "None",
          openai_tool_call_id: `call_${round}`,
          openai_function_name: "set_cellular_service_status",
          tool_trace: [{ tool_name: "set_cellular_service_status", arguments: { on }, result: null }],
        };
        break;
      }
      default:
        message = {
          ...base,
          sandbox_message_index: i,
          sender: "agent",
          recipient: "user",
          visible_to: ["agent", "user"],
          content: `Cellular is ${setting.cellular ? "on" : "off"} now (round ${round}).`,
        };
    }
    lines.push({ type: "message", message });
  }
  lines.push({ type: "end", reason: "max_messages", message_count: count });
  const at = (fraction: number): number => responses[Math.min(responses.length - 1, Math.floor(responses.length * fraction))]!;
  const node = (id: string, index: number): NodeResult => ({
    id,
    matched_at: index,
    explained_at: index,
    similarity: 1,
    constraints: [
      {
        kind: "snapshot",
        table: "SETTING",
        similarity: 1,
        reference: null,
        explanation: { kind: "snapshot", table: "SETTING", similarity: 1, rows: "current", reason: null, pairs: [], weakest: null },
      },
    ],
    guardrails: [],
  });
  lines.push({
    type: "evaluation",
    result: {
      score: 0,
      milestone_score: 1,
      minefield_score: 1,
      turn_count: Math.floor(count * 0.75),
      zero_reason: "minefield flip_in_the_middle matched",
      window: { first: 0, last: count - 1 },
      milestones: [
        node("first_quarter", at(0.25)),
        node("halfway", at(0.5)),
        node("three_quarters", at(0.75)),
        node("near_the_end", at(1)),
      ],
      minefields: [node("flip_in_the_middle", at(0.5))],
    },
  });
  return lines;
}

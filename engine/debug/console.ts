// The Debug Console: `milestones` prints the evaluation so far; a tool call such as
// `search_contacts(name="Fredrik")` runs against a copy of the paused world and prints what the
// agent would be shown and the rows it would change, recording nothing; anything else is an
// expression (expressions.ts).
import type { JsonValue } from "../base/json.js";
import { ExecutionEnvironment } from "../episode/execution-environment.js";
import { SeededRandom } from "../episode/random.js";
import { callableTools, requestContent } from "../episode/tool-calls.js";
import type { Message } from "../episode/types.js";
import { packById } from "../packs/registry.js";
import { closestMatch, didYouMean } from "../scenario/suggest.js";
import type { RowChange } from "../world/types.js";
import { ExpressionError, formatValue, parseExpression, type ExprValue } from "./expressions.js";
import type { DebugSession } from "./debug-session.js";
import { consoleNames } from "./console-completion.js";
import { showCell } from "./variables.js";

export type ConsoleResult = { readonly text: string; readonly value?: ExprValue } | { readonly error: string };

/** Runs one line typed in the Debug Console at the session's current message. */
export function runConsoleLine(session: DebugSession, line: string): ConsoleResult {
  const text = line.trim();
  if (text === "milestones") return { text: milestonesText(session) };
  const call = /^([A-Za-z_][A-Za-z0-9_]*)\s*\(([\s\S]*)\)\s*$/.exec(text);
  if (call && isToolName(session, call[1]!)) {
    try {
      return { text: dryRun(session, call[1]!, parseArguments(call[2]!)) };
    } catch (e) {
      if (e instanceof ExpressionError) return { error: e.message };
      throw e;
    }
  }
  const result = evaluateExpression(session, text);
  // `name(...)` that is neither a tool nor an expression: say so, rather than where the expression parser gave up.
  if (call && "error" in result) return { error: unknownToolText(session, call[1]!) };
  return result;
}

function unknownToolText(session: DebugSession, name: string): string {
  const tools = [...packById(session.timeline.scenario.world.pack).tools.map((t) => t.name), "end_conversation"];
  return `${name} is not a tool of this world (${session.timeline.scenario.world.pack}).${didYouMean(closestMatch(name, tools))}`;
}

export function evaluateExpression(session: DebugSession, text: string): ConsoleResult {
  try {
    const value = parseExpression(text).evaluate(session.resolver(session.messageIndex));
    return { text: formatValue(value), value };
  } catch (e) {
    if (e instanceof ExpressionError) return { error: withSuggestion(session, e.message) };
    throw e;
  }
}

/** An unknown name gets the closest name the console knows (`SETING` → "SETTING"). */
function withSuggestion(session: DebugSession, error: string): string {
  const unknown = /^unknown name "([^"]+)"$/.exec(error);
  return unknown ? `${error}.${didYouMean(closestMatch(unknown[1]!, consoleNames(session)))}` : error;
}

function isToolName(session: DebugSession, name: string): boolean {
  return packById(session.timeline.scenario.world.pack).tools.some((t) => t.name === name) || name === "end_conversation";
}

function milestonesText(session: DebugSession): string {
  const index = session.messageIndex;
  const result = session.evaluationAt(index);
  if (!result) return `The milestones cannot be scored: ${session.warnings.join("; ") || "no evaluation"}`;
  const lines = [`Evaluation of messages 0-${index}: score ${round(result.score)} (milestones ${round(result.milestone_score)})`];
  for (const n of result.milestones) {
    lines.push(
      n.matched_at === null
        ? `  ${n.id}: not matched (best similarity ${round(n.similarity)})`
        : `  ${n.id}: matched at message ${n.matched_at} (similarity ${round(n.similarity)})`,
    );
  }
  for (const n of result.minefields) {
    lines.push(n.matched_at === null ? `  minefield ${n.id}: not hit` : `  minefield ${n.id}: HIT at message ${n.matched_at}`);
  }
  if (result.zero_reason) lines.push(`  score 0: ${result.zero_reason}`);
  return lines.join("\n");
}

const round = (n: number): string => String(Math.round(n * 1000) / 1000);

/**
 * Answers the call as the execution environment would at this message, on a copy of the world
 * and of fresh tool state (ids it makes may differ from the run's). Nothing reaches the timeline.
 */
function dryRun(session: DebugSession, name: string, args: Readonly<Record<string, JsonValue>>): string {
  const { scenario, seed } = session.timeline;
  const pack = packById(scenario.world.pack);
  const index = session.messageIndex;
  // The agent may see its tools under scrambled names; the console takes the real ones.
  const facing = [...callableTools(scenario, "agent")].find(([, tool]) => tool.name === name)?.[0] ?? name;
  const call = { id: "console", name: facing, arguments: args };
  const request: Message = {
    sandbox_message_index: session.timeline.messages.length,
    sender: "agent",
    recipient: "execution_environment",
    content: requestContent(call, name),
    visible_to: ["agent", "execution_environment"],
    conversation_active: true,
    openai_tool_call_id: call.id,
    openai_function_name: facing,
    tool_call_exception: null,
    tool_trace: null,
    tool_call: call,
  };
  const environment = new ExecutionEnvironment(scenario, pack);
  const outcome = environment.respond([request], session.worldAt(index), {
    random: SeededRandom.fromSeed(seed),
    runtime: pack.createRuntime(),
  });
  const response = outcome.responses[0];
  const lines = [`${name} at message ${index} (a dry run on a copy of the world; nothing is recorded)`];
  lines.push(response?.tool_call_exception ? `error: ${response.content}` : `result: ${response?.content ?? "(no answer)"}`);
  const changes = outcome.world.changes();
  lines.push(changes.length === 0 ? "rows it would change: none" : "rows it would change:");
  for (const change of changes) lines.push(`  ${changeLine(change)}`);
  return lines.join("\n");
}

function changeLine(change: RowChange): string {
  const row = (r: Readonly<Record<string, unknown>>): string =>
    `{${Object.entries(r)
      .map(([k, v]) => `${k}: ${showCell(v as never)}`)
      .join(", ")}}`;
  switch (change.op) {
    case "insert":
      return `+ ${change.table} ${row(change.row)}`;
    case "delete":
      return `- ${change.table} ${row(change.row)}`;
    case "update": {
      const cells = Object.keys(change.new)
        .filter((k) => JSON.stringify(change.old[k]) !== JSON.stringify(change.new[k]))
        .map((k) => `${k}: ${showCell(change.old[k])} -> ${showCell(change.new[k])}`);
      return `~ ${change.table} row ${change.position}: ${cells.join(", ")}`;
    }
  }
}

/** `name="Fredrik", limit=3, on=True`: Python-style keyword arguments with literal values. */
export function parseArguments(text: string): Record<string, JsonValue> {
  const parser = new LiteralParser(text);
  const args: Record<string, JsonValue> = {};
  parser.skipSpace();
  while (!parser.done()) {
    const key = parser.name();
    parser.expect("=");
    if (key in args) throw new ExpressionError(`the argument ${key} is given twice`);
    args[key] = parser.value();
    parser.skipSpace();
    if (parser.done()) break;
    parser.expect(",");
    parser.skipSpace();
  }
  return args;
}

class LiteralParser {
  private pos = 0;

  constructor(private readonly text: string) {}

  done(): boolean {
    return this.pos >= this.text.length;
  }

  skipSpace(): void {
    while (/\s/.test(this.text[this.pos] ?? "")) this.pos++;
  }

  expect(c: string): void {
    this.skipSpace();
    if (this.text[this.pos] !== c) throw new ExpressionError(`expected "${c}" at column ${this.pos + 1} of the arguments`);
    this.pos++;
  }

  name(): string {
    this.skipSpace();
    const m = /^[A-Za-z_][A-Za-z0-9_]*/.exec(this.text.slice(this.pos));
    if (!m) throw new ExpressionError(`expected an argument name at column ${this.pos + 1} of the arguments (write name=value)`);
    this.pos += m[0].length;
    return m[0];
  }

  value(): JsonValue {
    this.skipSpace();
    const c = this.text[this.pos];
    if (c === '"' || c === "'") return this.string(c);
    if (c === "[") return this.list();
    if (c === "{") return this.object();
    const m = /^(?:-?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?|True|False|None|true|false|null)/.exec(this.text.slice(this.pos));
    if (!m) throw new ExpressionError(`expected a value at column ${this.pos + 1} of the arguments`);
    this.pos += m[0].length;
    const word = m[0];
    if (word === "True" || word === "true") return true;
    if (word === "False" || word === "false") return false;
    if (word === "None" || word === "null") return null;
    return Number(word);
  }

  private string(quote: string): string {
    let out = "";
    this.pos++;
    while (this.pos < this.text.length) {
      const c = this.text[this.pos]!;
      if (c === quote) {
        this.pos++;
        return out;
      }
      if (c === "\\" && this.pos + 1 < this.text.length) {
        const next = this.text[this.pos + 1]!;
        out += next === "n" ? "\n" : next === "t" ? "\t" : next;
        this.pos += 2;
        continue;
      }
      out += c;
      this.pos++;
    }
    throw new ExpressionError("a string in the arguments is not closed");
  }

  private list(): JsonValue[] {
    const items: JsonValue[] = [];
    this.pos++;
    this.skipSpace();
    if (this.text[this.pos] === "]") {
      this.pos++;
      return items;
    }
    for (;;) {
      items.push(this.value());
      this.skipSpace();
      if (this.text[this.pos] === "]") {
        this.pos++;
        return items;
      }
      this.expect(",");
    }
  }

  private object(): { [key: string]: JsonValue } {
    const out: { [key: string]: JsonValue } = {};
    this.pos++;
    this.skipSpace();
    if (this.text[this.pos] === "}") {
      this.pos++;
      return out;
    }
    for (;;) {
      this.skipSpace();
      const c = this.text[this.pos];
      const key = c === '"' || c === "'" ? this.string(c) : this.name();
      this.expect(":");
      out[key] = this.value();
      this.skipSpace();
      if (this.text[this.pos] === "}") {
        this.pos++;
        return out;
      }
      this.expect(",");
    }
  }
}

// The Debug Console: `milestones` prints the evaluation so far; a tool call such as
// `search_contacts(name="Fredrik")` runs against a copy of the paused world and prints what the
// agent would be shown and the rows it would change, recording nothing; anything else is an
// expression (expressions.ts).
import type { JsonValue } from "../base/json.js";
import { CallLineError, parseArguments, splitCallLine } from "../tools/call-line.js";
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
  const call = splitCallLine(text);
  if (call && isToolName(session, call.name)) {
    try {
      return { text: dryRun(session, call.name, parseArguments(call.argumentText)) };
    } catch (e) {
      if (e instanceof CallLineError) return { error: e.message };
      throw e;
    }
  }
  const result = evaluateExpression(session, text);
  // `name(...)` that is neither a tool nor an expression: say so, rather than where the expression parser gave up.
  if (call && "error" in result) return { error: unknownToolText(session, call.name) };
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
  if (!result) return `The milestones cannot be scored: ${session.evaluationProblems.join("; ") || "no evaluation"}`;
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

// Roles are outside code (a model adapter, a script, a person at a prompt): their answers are
// checked here before they reach the bus. Each check returns a problem description or null.

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function callProblem(call: unknown, position: number): string | null {
  if (!isRecord(call)) return `tool call ${position} is not an object`;
  if (typeof call.id !== "string") return `tool call ${position} has no id`;
  if (typeof call.name !== "string" || call.name === "") return `tool call ${position} has no tool name`;
  if (call.raw_arguments !== undefined && typeof call.raw_arguments !== "string") {
    return `tool call ${position} has raw_arguments that are not text`;
  }
  return null;
}

export function agentTurnProblem(turn: unknown): string | null {
  if (!isRecord(turn)) return "the answer is not an object";
  if (turn.kind === "text") return typeof turn.text === "string" ? null : "the text answer has no text";
  if (turn.kind !== "calls") return `unknown answer kind ${JSON.stringify(turn.kind)}`;
  if (!Array.isArray(turn.calls) || turn.calls.length === 0) return "a tool-call answer needs at least one call";
  const calls: readonly unknown[] = turn.calls;
  for (const [i, call] of calls.entries()) {
    const problem = callProblem(call, i + 1);
    if (problem) return problem;
  }
  return null;
}

export function userTurnProblem(turn: unknown): string | null {
  if (!isRecord(turn)) return "the answer is not an object";
  if (turn.kind === "end_conversation") return null;
  if (turn.kind === "text") return typeof turn.text === "string" ? null : "the text answer has no text";
  return `unknown answer kind ${JSON.stringify(turn.kind)}`;
}

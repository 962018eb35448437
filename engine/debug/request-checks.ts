// The requests the debug adapter answers, and the shape of their arguments, checked before a
// handler reads them: a client written from the specification may send `setBreakpoints {}` or
// `evaluate {}`, and the answer must be one line naming what is wrong, never a JavaScript stack.

/** The one thread a debug session has: the episode. */
export const EPISODE_THREAD_ID = 1;

type Check = (args: Readonly<Record<string, unknown>>) => string | null;

const isInteger = (v: unknown): v is number => typeof v === "number" && Number.isSafeInteger(v);

const optional =
  (name: string, test: (v: unknown) => boolean, what: string): Check =>
  (args) =>
    args[name] === undefined || test(args[name]) ? null : `"${name}" must be ${what}`;

const required =
  (name: string, test: (v: unknown) => boolean, what: string): Check =>
  (args) =>
    args[name] !== undefined && test(args[name]) ? null : `"${name}" must be ${what}`;

const thread: Check = (args) => {
  const id = args.threadId;
  if (!isInteger(id)) return `"threadId" must be a whole number`;
  return id === EPISODE_THREAD_ID ? null : `unknown threadId ${id}: the episode is thread ${EPISODE_THREAD_ID}`;
};

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

const arrayOf =
  (name: string, item: (v: unknown) => string | null, need: boolean): Check =>
  (args) => {
    const list = args[name];
    if (list === undefined) return need ? `"${name}" must be a list` : null;
    if (!Array.isArray(list)) return `"${name}" must be a list`;
    for (const [i, v] of list.entries()) {
      const problem = item(v);
      if (problem !== null) return `"${name}[${i}]" ${problem}`;
    }
    return null;
  };

const sourceBreakpoint = (v: unknown): string | null => {
  if (!isObject(v)) return "must be an object";
  if (!isInteger(v.line) || v.line < 0) return `"line" must be a whole number`;
  for (const key of ["condition", "hitCondition", "logMessage"])
    if (v[key] !== undefined && typeof v[key] !== "string") return `"${key}" must be a string`;
  return null;
};

const functionBreakpoint = (v: unknown): string | null => {
  if (!isObject(v)) return "must be an object";
  if (typeof v.name !== "string") return `"name" must be a string`;
  for (const key of ["condition", "hitCondition"])
    if (v[key] !== undefined && typeof v[key] !== "string") return `"${key}" must be a string`;
  return null;
};

const source: Check = (args) => {
  const s = args.source;
  if (!isObject(s)) return `"source" must be an object (the file the breakpoints are in)`;
  if (s.path !== undefined && typeof s.path !== "string") return `"source.path" must be a string`;
  return null;
};

/** The requests answered, each with the checks of its arguments (an announced capability each, or part of every session). */
const CHECKS: Readonly<Record<string, readonly Check[]>> = {
  initialize: [optional("adapterID", (v) => typeof v === "string", "a string")],
  launch: [],
  configurationDone: [],
  disconnect: [],
  terminate: [],
  threads: [],
  setBreakpoints: [source, arrayOf("breakpoints", sourceBreakpoint, false)],
  setFunctionBreakpoints: [arrayOf("breakpoints", functionBreakpoint, true)],
  setExceptionBreakpoints: [arrayOf("filters", (v) => (typeof v === "string" ? null : "must be a string"), true)],
  continue: [thread],
  next: [thread],
  stepIn: [thread],
  stepOut: [thread],
  stepBack: [thread],
  reverseContinue: [thread],
  pause: [thread],
  exceptionInfo: [thread],
  stackTrace: [
    thread,
    optional("startFrame", (v) => isInteger(v) && v >= 0, "a whole number"),
    optional("levels", (v) => isInteger(v) && v >= 0, "a whole number"),
  ],
  scopes: [required("frameId", isInteger, "a whole number")],
  variables: [
    required("variablesReference", isInteger, "a whole number"),
    optional("start", (v) => isInteger(v) && v >= 0, "a whole number"),
    optional("count", (v) => isInteger(v) && v >= 0, "a whole number"),
  ],
  completions: [
    required("text", (v) => typeof v === "string", "a string"),
    required("column", (v) => isInteger(v) && v >= 0, "a whole number"),
    optional("frameId", isInteger, "a whole number"),
  ],
  evaluate: [
    required("expression", (v) => typeof v === "string", "a string"),
    optional("context", (v) => typeof v === "string", "a string"),
    optional("frameId", isInteger, "a whole number"),
  ],
};

/**
 * Why the adapter does not take this request, in one line, or null when it does. A request it
 * does not announce (setVariable, restart, goto, attach, source, ...) is refused by name.
 */
export function requestProblem(command: string, args: unknown): string | null {
  const checks = Object.hasOwn(CHECKS, command) ? CHECKS[command] : undefined;
  if (checks === undefined) return `"${command}" is not supported by the ToolSandbox debug adapter (it is not among its capabilities)`;
  // No arguments reads as {} (clients leave out an empty object): the problem then names what is missing.
  const given = args ?? {};
  if (!isObject(given)) return "the request's arguments must be an object";
  for (const check of checks) {
    const problem = check(given);
    if (problem !== null) return problem;
  }
  return null;
}

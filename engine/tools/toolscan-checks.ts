// ToolScan's feedback texts (Kokane et al., arXiv 2411.13547; reference peers.md B.4): what its
// pre-execution validator returns to the agent instead of running a flawed call. The texts are
// reproduced character for character, spelling and spacing included ("please response", the two
// spaces before the quote and the unclosed quote of the format error), because an agent that was
// tuned on them reacts to exactly these strings. Lists print as Python lists (['a', 'b']).
import { pyRepr } from "../python/repr.js";
import type { JsonValue } from "../base/json.js";
import type { ParamType, ToolParameter } from "./types.js";

/** A Python exception as ToolScan prints it inside a message: `Name(message)`. */
interface PyException {
  readonly name: string;
  readonly message: string;
}

const FORMAT_HINT = ' Format error, please response in the format of  "Action: [your action] with Action Input: [your action input]';

/**
 * The output could not be read as a call. With the exception that parsing raised, or null when no
 * action could be made out at all (ToolScan then leaves the exception part empty).
 */
export function formatErrorFeedback(error: PyException | null): string {
  return `ERROR | ${error ? `${error.name}(${error.message})` : ""}${FORMAT_HINT}`;
}

/** A function outside the offered list; `available` is every offered name, in offered order. */
export function unknownFunctionFeedback(action: string, available: readonly string[]): string {
  return `ERROR | Incorrect function name ${action} please refer to the list of function calls available ${pyRepr([...available])}`;
}

/** One message per unknown argument name, concatenated without a separator (as ToolScan does). */
export function invalidArgumentNameFeedback(action: string, unknown: readonly string[], parameters: readonly string[]): string {
  return unknown
    .map((arg) =>
      parameters.length > 0
        ? `ERROR | Incorrect argument name ${arg} for function ${action}, Valid arguments are ${pyRepr([...parameters])}`
        : `ERROR | Incorrect argument name ${arg} for function ${action}, this function does not require any arguments.`,
    )
    .join("");
}

/** Required arguments the call left out, in parameter order. */
export function missingArgumentFeedback(action: string, missing: readonly string[]): string {
  return `ERROR | Insufficient required arguments for function ${action}, Please add the required argument ${pyRepr([...missing])}`;
}

/** One message per mistyped argument, concatenated; `expected` is the Python type repr. */
export function invalidArgumentTypeFeedback(
  action: string,
  mistyped: readonly { readonly argument: string; readonly expected: string }[],
): string {
  return mistyped
    .map(
      ({ argument, expected }) =>
        `ERROR | Incorrect argument type for ${argument} for function ${action}, Valid argument type is ${expected}`,
    )
    .join("");
}

/** An exception the environment raised while running the call. */
export function executionErrorFeedback(error: PyException): string {
  return `ERROR | ${error.name}(${error.message})`;
}

/**
 * The Python type ToolScan checks a parameter against, as its messages print it. ToolScan maps
 * "number" to (int, float, complex) and "boolean" to bool; it has no "integer" spelling, and a
 * Python `int` written in a spec is used as is, which is what ToolSandbox's integer parameters are.
 */
export function toolScanTypeRepr(type: ParamType): string {
  switch (type) {
    case "string":
      return "<class 'str'>";
    case "number":
      return "(<class 'int'>, <class 'float'>, <class 'complex'>)";
    case "integer":
      return "<class 'int'>";
    case "boolean":
      return "<class 'bool'>";
    case "array":
      return "<class 'list'>";
  }
}

/** ToolScan's isinstance check for a parameter, with null allowed where the parameter is Optional. */
export function fitsToolScanType(value: JsonValue, param: ToolParameter): boolean {
  if (value === null) return param.nullable === true;
  switch (param.type) {
    case "string":
      return typeof value === "string";
    case "boolean":
      return typeof value === "boolean";
    case "number":
      return typeof value === "number" || typeof value === "boolean";
    case "integer":
      return (typeof value === "number" && Number.isInteger(value)) || typeof value === "boolean";
    case "array":
      return Array.isArray(value);
  }
}

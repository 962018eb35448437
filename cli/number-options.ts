// The one parser of numeric option values: every count, limit, seed and threshold of every command
// is a number in a range, said the same way when it is not ("--trials: the number of trials must be
// a whole number from 1 to 10000, got "0"").
import { InvalidArgumentError } from "commander";

interface NumberRange {
  /** Whole numbers only, written as digits ("1e3" and "+1" are refused). */
  readonly integer?: boolean;
  /** The unit named in the message: "a number of seconds". */
  readonly unit?: string;
  /** `min` itself is refused: the value must be above it. */
  readonly aboveMin?: boolean;
}

/** A commander argument parser taking a number from `min` to `max`; `what` names it in the message. */
export function numberIn(what: string, min: number, max: number, range: NumberRange = {}): (value: string) => number {
  const kind = `${range.integer ? "a whole number" : "a number"}${range.unit === undefined ? "" : ` of ${range.unit}`}`;
  const bounds = range.aboveMin ? `above ${min} and at most ${max}` : `from ${min} to ${max}`;
  return (value: string): number => {
    const n = Number(value);
    const written = range.integer ? /^\d+$/.test(value) : value.trim() !== "";
    const ok =
      written && Number.isFinite(n) && (range.aboveMin ? n > min : n >= min) && n <= max && (!range.integer || Number.isSafeInteger(n));
    if (!ok) throw new InvalidArgumentError(`${what} must be ${kind} ${bounds}, got "${value}"`);
    return n;
  };
}

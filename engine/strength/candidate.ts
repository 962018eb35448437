// One mutant or variant before it is played: the edited reference and what the edit was.
import type { ReferenceStep } from "../scenario/model.js";
import type { OperatorName } from "./catalogue.js";

export interface Candidate {
  readonly operator: OperatorName;
  /** The step of the scenario's reference it changes, 0-based (where its location points). */
  readonly step: number;
  /** The call it changes (or adds) and the argument, when it is about one. */
  readonly call: { readonly tool: string; readonly argument: string | null } | null;
  /** What changed, in a few words: `content "a" -> "b"`, `left out`, `steps 2 and 3 swapped`. */
  readonly change: string;
  /** The edited reference, playable as it stands. */
  readonly reference: readonly ReferenceStep[];
  /** Ids of the reference's calls whose results the edited agent no longer gets as the reference did. */
  readonly changedCalls: readonly string[];
}

/** A value as the report prints it: strings quoted, at most 40 characters. */
export function shown(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 40 ? `${text.slice(0, 39)}…"` : text;
}

// Options declared once: each option's flag, help, parser or choices, default, and the modes it
// applies to (with why not the others) in one typed table. From the table come the commander
// options (addOptions), the TypeScript type of the parsed values (OptionValues), and the refusal
// of an option given for a mode it does not apply to (refuseOutsideMode): no command restates an
// option or writes its own "does not apply" check.
import { Option, type Command } from "commander";
import { ExitError, EXIT } from "../engine/runner/errors.js";

/** The modes of `run` and `eval` (`--mode`). */
export const MODES = ["milestone", "tooltalk", "dialogtool"] as const;
export type Mode = (typeof MODES)[number];

export interface OptionSpec<V = unknown> {
  /** Commander's flags ("--seed <n>"); the table's key must be the name commander gives the value ("seed"). */
  readonly flags: string;
  readonly description: string;
  /** Turns the text into the value; a bad one throws commander's InvalidArgumentError. */
  readonly parse?: (value: string) => V;
  /** The values allowed (instead of `parse`). */
  readonly choices?: readonly string[];
  readonly default?: V;
  /** The option must be given. */
  readonly required?: true;
  /** Options (by key) it cannot be given with: commander refuses the pair. */
  readonly conflicts?: readonly string[];
  /** The modes it applies to; absent: every mode. */
  readonly modes?: readonly Mode[];
  /**
   * Why it does not apply elsewhere: one reason, said after "applies to --mode M only", or one per
   * mode, said as "does not apply to --mode M: why".
   */
  readonly why?: string | { readonly [M in Mode]?: string };
  /** Whether a given value is refused outside `modes` (default: any value but the default). */
  refused?(value: V): boolean;
  /** The option as a refusal names it (default: its long flag). */
  readonly label?: string;
}

export type OptionTable = Readonly<Record<string, OptionSpec>>;

/** The value an option's parser, choices or flag (a switch) gives. */
type ValueOf<S> = S extends { parse: (value: string) => infer V } ? V : S extends { choices: readonly (infer C)[] } ? C : boolean;

/** Options with a default or that must be given always have a value. */
type AlwaysThere<S> = S extends { default: unknown } ? true : S extends { required: true } ? true : false;

/** What commander hands the action for a table: every option's value, typed by its spec. */
export type OptionValues<T> = {
  readonly [K in keyof T as AlwaysThere<T[K]> extends true ? K : never]: ValueOf<T[K]>;
} & {
  readonly [K in keyof T as AlwaysThere<T[K]> extends true ? never : K]?: ValueOf<T[K]>;
};

/** Adds every option of `table` to `command`, in the table's order. */
export function addOptions(command: Command, table: OptionTable): Command {
  for (const [key, spec] of Object.entries(table)) {
    const option = new Option(spec.flags, spec.description);
    // A key commander would not fill is a table that refuses nothing: caught on the first parse.
    if (option.attributeName() !== key) throw new Error(`option table: ${spec.flags} is read as "${option.attributeName()}", not "${key}"`);
    if (spec.choices !== undefined) option.choices(spec.choices);
    if (spec.parse !== undefined) option.argParser(spec.parse as (value: string) => unknown);
    if (spec.default !== undefined) option.default(spec.default);
    if (spec.required) option.makeOptionMandatory();
    if (spec.conflicts !== undefined) option.conflicts([...spec.conflicts]);
    command.addOption(option);
  }
  return command;
}

const longFlag = (flags: string): string => /--[\w-]+/.exec(flags)?.[0] ?? flags;

/** The usage error for the first option of `table` given in `values` that does not apply to `mode`. */
export function refuseOutsideMode(table: OptionTable, values: Readonly<Record<string, unknown>>, mode: Mode): void {
  for (const [key, spec] of Object.entries(table)) {
    if (spec.modes === undefined || spec.modes.includes(mode)) continue;
    const value = values[key];
    if (value === undefined || value === false) continue;
    const refused = spec.refused ? (spec.refused as (v: unknown) => boolean)(value) : value !== spec.default;
    if (refused) throw new ExitError(refusal(spec, mode), EXIT.usage);
  }
}

function refusal(spec: OptionSpec, mode: Mode): string {
  const label = spec.label ?? longFlag(spec.flags);
  if (typeof spec.why === "object" && spec.why[mode] !== undefined) return `${label} does not apply to --mode ${mode}: ${spec.why[mode]}`;
  const only = (spec.modes ?? []).map((m) => `--mode ${m}`).join(" and ");
  return `${label} applies to ${only} only${typeof spec.why === "string" ? ` (${spec.why})` : ""}`;
}

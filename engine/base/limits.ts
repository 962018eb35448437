// The documented limits on what the CLI and the language server read (docs/limits.md). Each is
// the largest real input measured times a wide margin, so no real file comes near one; what they
// stop is a file whose size or shape would make a check take minutes or gigabytes. Past a limit a
// file gets one error naming the limit and the environment variable that raises it. Both the CLI
// and the language server read the limits from here (and the same variables), so they agree.

interface Limit {
  /** What is limited, as the error names it: "scenario file size". */
  readonly name: string;
  /** The environment variable that raises (or lowers) it. */
  readonly variable: string;
  /** The unit, for messages: "bytes", "milestones". */
  readonly unit: string;
  readonly defaultValue: number;
}

/*
 * Measured on the 107 scenarios of this repository and of `import tooltalk` (the largest real
 * files, since they carry their database rows): the largest is 32 KB, the most milestones (or
 * minefields) in one scenario 9, the deepest nesting 11 levels; the longest saved run has 46 lines
 * (20 messages) in 61 KB. The limits are 64, 7, 6, 500 and 1,000 times that (docs/limits.md).
 */
export const LIMITS = {
  scenarioBytes: { name: "scenario file size", variable: "TOOLSANDBOX_MAX_SCENARIO_BYTES", unit: "bytes", defaultValue: 2 * 1024 * 1024 },
  // Also the evaluation's bound (engine/evaluation/matching/dag.ts): its bookkeeping is cubic in it.
  milestones: {
    name: "milestones (or minefields) per scenario",
    variable: "TOOLSANDBOX_MAX_MILESTONES",
    unit: "milestones",
    defaultValue: 64,
  },
  nestingDepth: { name: "nesting depth", variable: "TOOLSANDBOX_MAX_NESTING_DEPTH", unit: "levels", defaultValue: 64 },
  trajectoryBytes: {
    name: "trajectory file size",
    variable: "TOOLSANDBOX_MAX_TRAJECTORY_BYTES",
    unit: "bytes",
    defaultValue: 64 * 1024 * 1024,
  },
  trajectoryMessages: {
    name: "messages per trajectory",
    variable: "TOOLSANDBOX_MAX_TRAJECTORY_MESSAGES",
    unit: "messages",
    // Ten times the 10,000 messages the evaluation is benched at (bench:eval case d): long looping runs score.
    defaultValue: 100_000,
  },
} as const satisfies Readonly<Record<string, Limit>>;

type LimitId = keyof typeof LIMITS;

/**
 * The limit in force: the environment variable when it holds a positive whole number, else the
 * default. Read on every call, so a test (or a long-lived server after a restart) sees a change.
 */
export function limitValue(id: LimitId): number {
  const limit: Limit = LIMITS[id];
  const raw = environment()[limit.variable];
  if (raw === undefined || !/^[1-9][0-9]{0,14}$/.test(raw.trim())) return limit.defaultValue;
  return Number(raw.trim());
}

/** "…is over the limit of 2,097,152 bytes (scenario file size); raise it with TOOLSANDBOX_MAX_SCENARIO_BYTES." */
export function overLimitMessage(id: LimitId, what: string): string {
  const limit: Limit = LIMITS[id];
  return `${what}, over the limit of ${grouped(limitValue(id))} ${limit.unit} (${limit.name}); raise it with ${limit.variable}=<n>.`;
}

/** 2097152 -> "2,097,152", the same on every machine (no locale). */
export function grouped(n: number): string {
  return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
}

/** The process environment, or none where there is no process (a browser bundle). */
function environment(): Readonly<Record<string, string | undefined>> {
  const proc = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process;
  return proc?.env ?? {};
}

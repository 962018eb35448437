// Two agents over one suite (`toolsandbox compare --suite A B`): the runs of each side read as the
// runs view reads them (every line checked, errored runs out unless they count as failures), each
// scenario's counted trials averaged, the scenarios both sides ran paired, and the paired
// statistics of B against A (evaluation/statistics/paired.ts). A side must hold one group (one
// agent, user, prompt set and augmentation): pairing two agents' runs with a third's says nothing.
import { countedScore, type ScoringPolicy } from "../evaluation/outcome.js";
import { isSuccess } from "../evaluation/pass-k.js";
import { comparePaired, type PairedComparison } from "../evaluation/statistics/paired.js";
import { findRunFiles, readRunRecord } from "./run-record.js";
import type { RunRecord } from "./types.js";
import { groupKey, withoutCopies } from "./trial-groups.js";

export class SuiteCompareError extends Error {}

export interface SuiteSide {
  readonly path: string;
  /** The group the side's counted runs belong to. */
  readonly group: string;
  readonly runs: number;
  readonly counted: number;
  /** Runs left out: damaged, errored (unless they count as failures), unscored. */
  readonly left_out: number;
  /** Byte-identical copies of another run of the side: counted once, not in `runs`. */
  readonly duplicates: number;
}

export interface FlippedScenario {
  readonly scenario: string;
  readonly a: number;
  readonly b: number;
  /** "to_b": only B succeeded; "to_a": only A did. */
  readonly direction: "to_b" | "to_a";
  /** A counted run of each side (a failing trial on the side that failed), to open side by side (`toolsandbox compare FILE_A FILE_B`). */
  readonly file_a: string;
  readonly file_b: string;
}

export interface SuiteComparison {
  readonly a: SuiteSide;
  readonly b: SuiteSide;
  readonly errors_as_failures: boolean;
  /** Scenarios with counted runs on one side only: not paired. */
  readonly only_a: readonly string[];
  readonly only_b: readonly string[];
  /** Scenarios both sides ran, but from different versions of the scenario (another digest): not paired. */
  readonly edited: readonly string[];
  /** Null when no scenario is on both sides. */
  readonly paired: PairedComparison | null;
  /** Scenarios whose success differs between the sides, by name. */
  readonly flipped: readonly FlippedScenario[];
}

interface ScenarioTrials {
  readonly scores: number[];
  readonly files: string[];
  readonly digest: string | null;
}

function side(path: string, policy: ScoringPolicy): { side: SuiteSide; scenarios: Map<string, ScenarioTrials> } {
  const read: RunRecord[] = findRunFiles([path]).map(({ file, root }) => readRunRecord(file, root));
  if (read.length === 0) throw new SuiteCompareError(`${path}: no runs`);
  const { records, duplicates } = withoutCopies(read);
  const scenarios = new Map<string, ScenarioTrials>();
  const groups = new Set<string>();
  let counted = 0;
  for (const r of records) {
    // Every run whose header reads names its group, counted or not: an errored run of another agent
    // is as foreign to the side as a scored one, whatever --errors-as-failures says.
    if (groupKey(r) !== "(unreadable)") groups.add(groupKey(r));
    const score = countedScore(r, policy);
    if (score === null) continue;
    counted++;
    const s = scenarios.get(r.scenario) ?? { scores: [], files: [], digest: r.scenario_digest ?? null };
    // Runs of two versions of one scenario on a side cannot be paired with anything as one scenario.
    if (r.scenario_digest !== undefined && r.scenario_digest !== null && s.digest !== null && r.scenario_digest !== s.digest) {
      throw new SuiteCompareError(
        `${path} holds runs of 2 versions of scenario ${r.scenario} (${s.digest}, ${r.scenario_digest}); give one folder per version`,
      );
    }
    s.scores.push(score);
    s.files.push(r.file);
    scenarios.set(r.scenario, s);
  }
  if (groups.size > 1) {
    throw new SuiteCompareError(
      `${path} holds runs of ${groups.size} groups (${[...groups].sort().join("; ")}); give one folder per agent`,
    );
  }
  const [group = "(no counted run)"] = groups;
  return {
    side: { path, group, runs: records.length, counted, left_out: records.length - counted, duplicates: duplicates.length },
    scenarios,
  };
}

/** The run to open for a side: its first failing trial when the side failed the scenario, else its first trial. */
function shownRun(trials: ScenarioTrials, succeeded: boolean, threshold: number): string {
  const at = succeeded ? 0 : trials.scores.findIndex((s) => !isSuccess(s, threshold));
  return trials.files[Math.max(0, at)]!;
}

const mean = (xs: readonly number[]): number => xs.reduce((a, b) => a + b, 0) / xs.length;

export function compareSuites(pathA: string, pathB: string, policy: ScoringPolicy, threshold = 1): SuiteComparison {
  const a = side(pathA, policy);
  const b = side(pathB, policy);
  const both = [...a.scenarios.keys()].filter((n) => b.scenarios.has(n)).sort();
  const sameVersion = (n: string): boolean => {
    const [da, db] = [a.scenarios.get(n)!.digest, b.scenarios.get(n)!.digest];
    return da === null || db === null || da === db;
  };
  const names = both.filter(sameVersion);
  const pairs = names.map((scenario) => ({
    scenario,
    a: mean(a.scenarios.get(scenario)!.scores),
    b: mean(b.scenarios.get(scenario)!.scores),
  }));
  const flipped = pairs.flatMap((p): FlippedScenario[] => {
    const [sa, sb] = [isSuccess(p.a, threshold), isSuccess(p.b, threshold)];
    if (sa === sb) return [];
    return [
      {
        ...p,
        direction: sb ? "to_b" : "to_a",
        file_a: shownRun(a.scenarios.get(p.scenario)!, sa, threshold),
        file_b: shownRun(b.scenarios.get(p.scenario)!, sb, threshold),
      },
    ];
  });
  return {
    a: a.side,
    b: b.side,
    errors_as_failures: policy.errorsAsFailures,
    only_a: [...a.scenarios.keys()].filter((n) => !b.scenarios.has(n)).sort(),
    only_b: [...b.scenarios.keys()].filter((n) => !a.scenarios.has(n)).sort(),
    edited: both.filter((n) => !sameVersion(n)),
    paired: comparePaired(pairs, threshold),
    flipped,
  };
}

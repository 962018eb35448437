// A row of the runs view and of `toolsandbox report`, as a type: what one trajectory file says
// about its run. Reading it takes Node (run-record.ts); the shape does not, so the runs view, whose
// program reaches no Node module (client/webview/tsconfig.json), imports it from here.
import type { FailureCause } from "../evaluation/failure-causes.js";
import type { RunStatus } from "../evaluation/outcome.js";
import type { ReviewSummary } from "../runner/review-summary.js";
import type { TelemetryTotals } from "../trajectory/telemetry-totals.js";

export interface RunRecord {
  /** The file, as given or found under a given folder. */
  readonly file: string;
  /** The folder of the file relative to the folder it was found under ("" at its top): runs made together. */
  readonly suite: string;
  readonly scenario: string;
  readonly categories: readonly string[];
  /** The apps the scenario's reference uses (packs/<pack>/apps.ts); none without a reference or for an unknown pack. */
  readonly apps: readonly string[];
  readonly agent: string;
  readonly user: string;
  /** "own" when each scenario used its own wording, else "set:" and a digest of the prompt set's tool texts and user preamble. */
  readonly prompts: string;
  /** The tool-augmentation tags and scramblings of the scenario, joined with "+"; "none" for a plain scenario. */
  readonly augmentation: string;
  readonly seed: number | null;
  /** From `<name>.trial-<k>.trajectory.jsonl`; null for a single trial. */
  readonly trial: number | null;
  /** Whether the score counts: scored, errored (infrastructure), damaged (the file), unscored (no evaluation, or the agent never acted). */
  readonly status: RunStatus;
  /** The score that counts: the recorded evaluation's score for a scored run, else null. */
  readonly score: number | null;
  /** What the file's evaluation line says, whatever the status (an errored run may have reached every milestone). */
  readonly recorded_score: number | null;
  readonly turns: number | null;
  readonly messages: number;
  /** The end reason; null when the file has no end (the run was cut short). */
  readonly end_reason: string | null;
  /** The role-play judge's overall score (1-5); null when the run was not judged or the judgement failed. */
  readonly role_play: number | null;
  /** The end's detail for an errored or unscored run (what failed), else null. */
  readonly error: string | null;
  /** The model calls summed (all zero for scripted runs). Their latency is the run's model time. */
  readonly telemetry: TelemetryTotals;
  /** The file's modification time (ms since 1970). */
  readonly date: number;
  /** Why the file could not be read as a whole run; null when it could. */
  readonly damaged: string | null;
  /** The 1-based line where a damaged file breaks; null when it is whole or the problem is the file as a whole. */
  readonly damaged_line: number | null;
  /**
   * "sha256:" and the first 16 hex digits of the digest of the resolved scenario the run played
   * (its header's scenario_digest, or computed from the embedded scenario for older files); null
   * when the header did not read. Runs of an edited scenario have another digest under the same name.
   */
  readonly scenario_digest?: string | null;
  /** The digest of the file's bytes: a byte-identical copy of a run has the same; null when the file was not read whole. */
  readonly content_digest?: string | null;
  /** Why a failed or errored run failed, by rule (evaluation/failure-causes.ts); null for a success or a damaged or unscored file. */
  readonly cause: FailureCause | null;
  /** The failure reviewer's verdict beside `cause` (`run --review`); absent when the run was not reviewed. */
  readonly review?: ReviewSummary;
}

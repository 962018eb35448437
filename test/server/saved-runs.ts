// Saved runs of cellular_off for the last-run tests: the sample as recorded (milestone
// `cellular_off` matched at message 18) and a variant where that milestone was missed, so a test
// can tell which of two files a lookup took.
import { readFileSync, utimesSync } from "node:fs";

export const SAVED_RUN = "sample-scenarios/trajectories/cellular_off_adapted.trajectory.jsonl";

/** The saved run with its recorded evaluation changed: `cellular_off` not matched. */
export function missedRun(): string {
  const lines = readFileSync(SAVED_RUN, "utf8").trimEnd().split("\n");
  const evaluation = JSON.parse(lines.pop() ?? "") as {
    result: { milestones: { id: string; matched_at: number | null; similarity: number }[] };
  };
  const node = evaluation.result.milestones.find((m) => m.id === "cellular_off");
  if (!node) throw new Error(`${SAVED_RUN} has no milestone cellular_off`);
  node.matched_at = null;
  node.similarity = 0.5;
  return `${[...lines, JSON.stringify(evaluation)].join("\n")}\n`;
}

/** Sets a file's modification time `secondsAgo` seconds in the past. */
export function setTime(path: string, secondsAgo: number): void {
  const at = new Date(Date.now() - secondsAgo * 1000);
  utimesSync(path, at, at);
}

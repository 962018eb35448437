// What the two cards of a comparison call their runs: the file name, or, when both runs have the
// same file name (two agents' runs of one scenario, in two folders), enough of the folders before it
// to tell them apart.
import { basename, dirname, sep } from "node:path";

/** Labels for files `a` and `b` that differ whenever the paths differ. */
export function distinctRunLabels(a: string, b: string): [string, string] {
  if (basename(a) !== basename(b)) return [basename(a), basename(b)];
  const partsA = dirname(a).split(/[\\/]/);
  const partsB = dirname(b).split(/[\\/]/);
  // Walk up from the files until the folders differ, and keep from there down.
  for (let up = 1; up <= Math.max(partsA.length, partsB.length); up++) {
    const tailA = partsA.slice(-up);
    const tailB = partsB.slice(-up);
    if (tailA.join(sep) !== tailB.join(sep)) return [[...tailA, basename(a)].join("/"), [...tailB, basename(b)].join("/")];
  }
  return [a, b];
}

/** The compare view's tab title: the two runs as their cards name them (folders when the file names match), or run ↔ reference. */
export function compareTitle(a: string, b: string | null): string {
  const short = (label: string): string => label.replace(/\.trajectory\.jsonl$/, "");
  if (b === null) return `Compare ${short(basename(a))} ↔ reference`;
  const [labelA, labelB] = distinctRunLabels(a, b);
  return `Compare ${short(labelA)} ↔ ${short(labelB)}`;
}

// Differences from upstream's tools that docs/fidelity.md explains, each recognised by a rule on
// both texts. Anything a rule does not cover stays an unexplained difference and fails the run.
import type { ToolCase } from "./battery.js";

const NO_DATA = "polars.exceptions.NoDataError: No db entry matching predicate=";

function finiteNumber(text: string): number | null {
  const n = Number(text);
  return text.trim() !== "" && Number.isFinite(n) ? n : null;
}

export function explainedDifference(c: ToolCase, ours: string, upstream: string): string | null {
  // polars prints the predicate object with its memory address, different on every run.
  const column = /col\("(\w+)"\)/.exec(ours)?.[1];
  if (
    ours.startsWith(NO_DATA) &&
    upstream.startsWith(NO_DATA) &&
    / at 0x[0-9A-Fa-f]+>/.test(upstream) &&
    column &&
    upstream.includes(`col(\\"${column}\\")`.replace(/\\/g, ""))
  ) {
    return "polars prints a memory address in this error; ours names the same predicate without it (fidelity.md, 'Error texts')";
  }
  // The last digits of a float computed along a different chain of operations.
  const a = finiteNumber(ours);
  const b = finiteNumber(upstream);
  if (
    (c.tool === "unit_conversion" || c.tool === "calculate_lat_lon_distance") &&
    a !== null &&
    b !== null &&
    Math.abs(a - b) <= 1e-14 * Math.max(Math.abs(a), Math.abs(b))
  ) {
    return "the same number to 14 significant digits; the last digits follow a different order of floating-point operations (fidelity.md, 'Numbers')";
  }
  // The holidays package's calendar range depends on its version.
  const year = c.arguments.year;
  if (c.tool === "search_holiday" && typeof year === "number" && (year < 1777 || year > 2100) && upstream === "None") {
    return "outside 1777-2100 the holidays package's answer depends on its version (fidelity.md, 'Holidays')";
  }
  return null;
}

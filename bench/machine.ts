// The line every bench prints first and last: a figure means little without the load the machine
// was under while it was taken (docs/benchmarks.md gives every figure with it).
import { cpus, loadavg } from "node:os";

function machineLine(when: "start" | "end"): string {
  const [one, five, fifteen] = loadavg().map((v) => v.toFixed(2));
  return `machine (${when}): load average ${one} ${five} ${fifteen} (1, 5, 15 min), ${cpus().length} cores, node ${process.version}`;
}

/** Prints the start line now and the end line when the process exits. */
export function reportMachine(): void {
  console.log(machineLine("start"));
  process.on("exit", () => console.log(machineLine("end")));
}

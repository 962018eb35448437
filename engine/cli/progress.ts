// The progress bar `run` shows on a terminal. Result lines still go to stdout; when stdout is the
// same terminal they are printed above the bar so the two do not overwrite each other.
import { MultiBar, Presets } from "cli-progress";
import type { CliIO } from "./io.js";

export interface Progress {
  /** Prints one result line (stdout). */
  line(text: string): void;
  /** Marks one more scenario done. */
  advance(label: string): void;
  stop(): void;
}

/** Scenarios below this count finish before a bar would help. */
const MIN_SCENARIOS_FOR_BAR = 6;

export function startProgress(io: CliIO, total: number): Progress {
  if (!io.stderrIsTTY || total < MIN_SCENARIOS_FOR_BAR) {
    return { line: (text) => io.out(text), advance: () => undefined, stop: () => undefined };
  }
  const bars = new MultiBar(
    { stream: io.stderr, clearOnComplete: true, hideCursor: true, format: "{bar} {value}/{total} {label}" },
    Presets.shades_classic,
  );
  const bar = bars.create(total, 0, { label: "" });
  // Scripted episodes rarely yield to the event loop, so the bar's redraw timer would not fire:
  // redraw right away instead.
  return {
    line: (text) => {
      if (!io.stdoutIsTTY) return io.out(text);
      bars.log(`${text}\n`);
      bars.update();
    },
    advance: (label) => {
      bar.increment(1, { label });
      bars.update();
    },
    stop: () => {
      bars.update();
      bars.stop();
    },
  };
}

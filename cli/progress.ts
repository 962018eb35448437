// The progress bar `run` shows on stderr: episodes done of all, how many are running, and an
// estimate of the time left. Result lines still go to stdout; when stdout is the same terminal
// they are printed above the bar so the two do not overwrite each other.
import { performance } from "node:perf_hooks";
import { MultiBar, Presets } from "cli-progress";
import type { CliIO } from "./io.js";

export interface Progress {
  /** Prints one result line (stdout). */
  line(text: string): void;
  /** One more episode has started. */
  started(): void;
  /** One more episode is done; `label` names it. */
  advance(label: string): void;
  stop(): void;
}

interface ProgressOptions {
  /** Episodes in the run. */
  readonly total: number;
  /** Episodes already done before this process started (resumed runs); they do not count towards the rate. */
  readonly done?: number;
  /** Show the bar even when stderr is not a terminal (--progress). */
  readonly force?: boolean;
  /** Read at each redraw and shown after the running count (the endpoints' limits under --concurrency auto). */
  readonly status?: () => string;
}

/** Runs below this many episodes finish before a bar would help (unless --progress asks for one). */
const MIN_EPISODES_FOR_BAR = 6;

/**
 * Time left at the rate this process has finished episodes so far, "--" before the first one.
 * Display only: the clock is read here, never by anything that ends up in a file.
 */
export function etaText(elapsedMs: number, finishedHere: number, remaining: number): string {
  if (remaining <= 0) return "0s";
  if (finishedHere === 0 || elapsedMs <= 0) return "--";
  const seconds = Math.ceil(((elapsedMs / finishedHere) * remaining) / 1000);
  if (seconds < 60) return `${seconds}s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes}m${String(seconds % 60).padStart(2, "0")}s`;
  return `${Math.floor(minutes / 60)}h${String(minutes % 60).padStart(2, "0")}m`;
}

export function startProgress(io: CliIO, options: ProgressOptions): Progress {
  const { total, done = 0, force = false } = options;
  if (!force && (!io.stderrIsTTY || total - done < MIN_EPISODES_FOR_BAR)) {
    return { line: (text) => io.out(text), started: () => undefined, advance: () => undefined, stop: () => undefined };
  }
  const bars = new MultiBar(
    {
      stream: io.stderr,
      clearOnComplete: io.stderrIsTTY,
      hideCursor: io.stderrIsTTY,
      // Without a terminal (--progress into a file or pipe) the bar is a line every few seconds.
      noTTYOutput: force,
      notTTYSchedule: 2000,
      format: "{bar} {value}/{total} | {running} running{status} | ETA {time_left} | {label}",
    },
    Presets.shades_classic,
  );
  const startedAt = performance.now();
  let running = 0;
  let finishedHere = 0;
  const status = (): string => {
    const text = options.status?.() ?? "";
    return text === "" ? "" : ` (${text})`;
  };
  const bar = bars.create(total, done, { label: "", running: 0, status: status(), time_left: "--" });
  const payload = (label?: string): Record<string, string | number> => ({
    running,
    status: status(),
    time_left: etaText(performance.now() - startedAt, finishedHere, total - done - finishedHere),
    ...(label === undefined ? {} : { label }),
  });
  // Scripted episodes rarely yield to the event loop, so the bar's redraw timer would not fire:
  // on a terminal, redraw right away instead. Elsewhere every redraw is a new line, so the timer
  // alone draws it.
  const redraw = (): void => {
    if (io.stderrIsTTY) bars.update();
  };
  return {
    line: (text) => {
      if (!io.stdoutIsTTY || !io.stderrIsTTY) return io.out(text);
      bars.log(`${text}\n`);
      bars.update();
    },
    started: () => {
      running++;
      bar.update(payload());
      redraw();
    },
    advance: (label) => {
      running = Math.max(0, running - 1);
      finishedHere++;
      bar.increment(1, payload(label));
      redraw();
    },
    stop: () => {
      redraw();
      bars.stop();
    },
  };
}

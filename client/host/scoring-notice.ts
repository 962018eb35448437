// The notification of a scoring job in the worker that is still going after PROGRESS_AFTER_MS
// (a re-score, or the first score of a long saved run): what it scores, how far it has come (the
// matcher's placements fill the bar), the time so far, and Cancel.
import * as vscode from "vscode";
import type { JobProgress } from "./scoring-worker.js";

const PROGRESS_AFTER_MS = 500;

/** `what`: "re-scoring 3,000 messages against x.scenario.yaml". */
export function showScoringNotice(what: string, done: Promise<unknown>, cancel: () => void, progress: JobProgress): void {
  const delay = setTimeout(() => {
    void vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: "ToolSandbox", cancellable: true },
      async (bar, token) => {
        token.onCancellationRequested(cancel);
        const started = Date.now();
        let percent = 0;
        const report = (): void => {
          const latest = progress.latest;
          const seconds = `${Math.round((Date.now() - started) / 1000)} s so far`;
          const message = latest === null ? `${what}: ${seconds}` : `${what}: ${latest.text}, ${seconds}`;
          // The bar only moves forward; `increment` adds to what it shows.
          const now = latest?.fraction === null || latest === null ? percent : Math.round(latest.fraction * 100);
          bar.report(now > percent ? { message, increment: now - percent } : { message });
          percent = Math.max(percent, now);
        };
        report();
        progress.onReport(report);
        const tick = setInterval(report, 1000);
        await done;
        clearInterval(tick);
      },
    );
  }, PROGRESS_AFTER_MS);
  void done.then(() => clearTimeout(delay));
}

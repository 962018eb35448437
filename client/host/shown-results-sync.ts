// Tells the language server which results the editor shows for each scenario (the run, replay or
// re-score the inline results, CodeLenses and Testing view read from the run store), so that the
// server's hover on a milestone speaks of the same run and a line never reads two ways
// (server/handlers/shown-results.ts has the other end).
import * as vscode from "vscode";
import { erroredReason } from "./node-results.js";
import type { RunStore } from "./run-store.js";

const SHOWN_RESULTS_METHOD = "toolsandbox/shownResults";

/** The notification's `shown` for what the store holds for a scenario; null when it shows nothing. */
function shownResults(store: RunStore, scenarioPath: string): unknown {
  const results = store.results(scenarioPath);
  if (results === null) return null;
  if (!results.finished) return { state: "running" };
  const errored = erroredReason(results.end);
  if (errored !== null) return { state: "errored", reason: errored };
  if (results.evaluation === null) return null;
  return { state: "scored", result: results.evaluation, rescored: results.rescored !== null };
}

/** Sends each change of a scenario's shown results; `send` is the language client's notification. */
export function syncShownResults(store: RunStore, send: (method: string, params: unknown) => void): vscode.Disposable {
  const unsubscribe = store.onDidChange((scenarioPath) => {
    send(SHOWN_RESULTS_METHOD, { uri: vscode.Uri.file(scenarioPath).toString(), shown: shownResults(store, scenarioPath) });
  });
  return { dispose: unsubscribe };
}

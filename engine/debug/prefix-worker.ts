// The debugger's scoring thread (bundled as dist/prefix-scoring-worker.js): it reads the replayed
// trajectory itself and scores the prefixes the adapter asks for, one by one, so the adapter's
// event loop stays free for `threads`, `pause` and everything else while the matcher works. Jobs
// come one at a time; a job whose number the shared cancel cell has reached stops after the
// prefix it is scoring (prefix-scores.ts terminates a thread that takes too long to notice). While
// it scores a prefix it says how far the matcher has come (engine/evaluation/scoring-progress.ts,
// as the extension's scoring worker does), so a long one shows a fraction, not only a spinner.
import { parentPort, workerData } from "node:worker_threads";
import { EvaluationError, firstUserMessageIndex } from "../evaluation/evaluate.js";
import { PrefixEvaluation } from "../evaluation/prefix-evaluation.js";
import { readTrajectoryFile } from "../trajectory/reader.js";
import type { FromScoringThread, ScoringJob, ScoringThreadData } from "./prefix-scores.js";

function serve(data: ScoringThreadData): void {
  const port = parentPort;
  if (!port) return;
  const cancelled = new Int32Array(data.cancel);
  const trajectory = readTrajectoryFile(data.trajectoryPath);
  const evaluation = new PrefixEvaluation(
    trajectory.header.scenario,
    trajectory.messages,
    (i) => trajectory.worldAt(i),
    firstUserMessageIndex(trajectory.messages),
    trajectory.endReason,
  );
  const send = (message: FromScoringThread): void => port.postMessage(message);
  port.on("message", (job: ScoringJob) => {
    const full = new Set(job.full);
    for (const index of job.indices) {
      if (Atomics.load(cancelled, 0) >= job.id) break;
      try {
        const here = evaluation.matchedHere(index, (step) => send({ kind: "progress", job: job.id, index, step }));
        send({ kind: "scored", job: job.id, index, here, result: full.has(index) ? evaluation.at(index) : null });
      } catch (e) {
        if (!(e instanceof EvaluationError)) throw e;
        send({ kind: "unscorable", job: job.id, index, problem: e.message });
      }
    }
    send({ kind: "done", job: job.id });
  });
}

/** True when this module runs as the scoring thread (its workerData says so). */
function isScoringThread(data: unknown): data is ScoringThreadData {
  return typeof data === "object" && data !== null && (data as { role?: unknown }).role === "toolsandbox-prefix-scoring";
}

if (isScoringThread(workerData)) serve(workerData);

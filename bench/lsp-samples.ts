// bench:lsp's rows on the samples' own scenarios, in process: what a keystroke costs in the
// language service itself, without the protocol or another server beside it.
//   - checking: checkScenarioText of each sample, the median of REPETITIONS after a warm-up;
//   - requests: completion, hover and references together at every fifth line of each sample,
//     once the version is parsed (as the server answers them between edits).
// Targets: checking under 20 ms on every sample; the requests under 10 ms (median).
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { TextDocument } from "vscode-languageserver-textdocument";
import { checkScenarioText } from "../engine/scenario/resolve.js";
import { completion } from "../server/service/completion.js";
import { getScenarioDocument } from "../server/service/document.js";
import { hover } from "../server/service/hover.js";
import { references } from "../server/service/references.js";
import { type BenchReport, median } from "./report.js";

const SAMPLES = "sample-scenarios";
const REPETITIONS = 30;
const CHECK_TARGET_MS = 20;
const REQUESTS_TARGET_MS = 10;

/** Measures both rows over every sample, prints them, and records their targets. */
export function sampleRows(report: BenchReport): void {
  const files = readdirSync(SAMPLES)
    .filter((f) => f.endsWith(".scenario.yaml"))
    .sort();
  const checks: { file: string; ms: number }[] = [];
  const requests: number[] = [];
  for (const [n, file] of files.entries()) {
    const text = readFileSync(join(SAMPLES, file), "utf8");
    checkScenarioText(text, file); // warm: the schema is compiled once per process
    const times: number[] = [];
    for (let i = 0; i < REPETITIONS; i++) {
      const start = performance.now();
      const checked = checkScenarioText(text, file);
      times.push(performance.now() - start);
      if (!checked.scenario) throw new Error(`${file}: the sample does not check`);
    }
    checks.push({ file, ms: median(times) });
    const doc = getScenarioDocument(TextDocument.create(`file:///bench/sample${n}.scenario.yaml`, "toolsandbox-scenario", 1, text));
    void doc.check;
    const lines = text.split("\n");
    for (let line = 0; line < lines.length; line += 5) {
      const position = { line, character: Math.min(12, lines[line]!.length) };
      const start = performance.now();
      completion(doc, position);
      hover(doc, position, null);
      references(doc, position);
      requests.push(performance.now() - start);
    }
  }
  const slowest = checks.reduce((a, b) => (b.ms > a.ms ? b : a));
  const checkMet = slowest.ms < CHECK_TARGET_MS;
  const requestsMedian = median(requests);
  const requestsMet = requestsMedian < REQUESTS_TARGET_MS;
  console.log(`In process, on the ${files.length} samples' own scenarios:`);
  console.log(
    `  checking a sample (median of ${REPETITIONS}): median over the samples ${median(checks.map((c) => c.ms)).toFixed(2)} ms, slowest ${slowest.ms.toFixed(2)} ms (${slowest.file}); target under ${CHECK_TARGET_MS} ms: ${checkMet ? "met" : "MISSED"}`,
  );
  console.log(
    `  completion + hover + references at every fifth line (${requests.length} positions): median ${requestsMedian.toFixed(2)} ms, worst ${Math.max(...requests).toFixed(2)} ms; target under ${REQUESTS_TARGET_MS} ms: ${requestsMet ? "met" : "MISSED"}\n`,
  );
  report.target(`samples: checking each under ${CHECK_TARGET_MS} ms (median)`, checkMet);
  report.target(`samples: completion + hover + references under ${REQUESTS_TARGET_MS} ms (median)`, requestsMet);
}

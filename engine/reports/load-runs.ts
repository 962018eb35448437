// The runs under some paths read from disk and summed: what the extension's runs views and
// `report` hand to the view (runs-data.ts). Apart from the message's shape, which the webview
// imports and which must reach no Node module.
import { findRunFiles, readRunRecord } from "./run-record.js";
import { withReferenceCauses } from "./reference-causes.js";
import { runsReport, type RunsReportOptions } from "./runs-report.js";
import type { RunsData } from "./runs-data.js";

/** Every run under `paths`, read and summed. */
export function loadRuns(paths: readonly string[], title: string, options: RunsReportOptions = {}): RunsData {
  const records = findRunFiles(paths).map(({ file, root }) => readRunRecord(file, root));
  return { type: "runs", title, records, report: runsReport(records, options) };
}

/** As loadRuns, with the scenario rule of the failure causes applied (each failed run's scenario's reference played once). */
export async function loadRunsWithReferenceCauses(
  paths: readonly string[],
  title: string,
  options: RunsReportOptions = {},
): Promise<RunsData> {
  const read = findRunFiles(paths).map(({ file, root }) => readRunRecord(file, root));
  const records = await withReferenceCauses(read, options.threshold);
  return { type: "runs", title, records, report: runsReport(records, options) };
}

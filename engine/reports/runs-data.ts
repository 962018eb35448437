// What the runs view shows, as the host (the extension, or the page `report --html` writes) hands
// it to the view: the rows and the summary above them. One message, validated by the view.
import { readRunRecord, findRunFiles, type RunRecord } from "./run-record.js";
import { withReferenceCauses } from "./reference-causes.js";
import { runsReport, type RunsReport, type RunsReportOptions } from "./runs-report.js";

export interface RunsData {
  readonly type: "runs";
  readonly title: string;
  readonly records: readonly RunRecord[];
  readonly report: RunsReport;
}

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

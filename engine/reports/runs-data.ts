// What the runs view shows, as the host (the extension, or the page `report --html` writes) hands
// it to the view: the rows and the summary above them. One message, validated by the view. Types
// only (the view imports them); load-runs.ts reads them from disk.
import type { RunsReport } from "./runs-report.js";
import type { RunRecord } from "./types.js";

export interface RunsData {
  readonly type: "runs";
  readonly title: string;
  readonly records: readonly RunRecord[];
  readonly report: RunsReport;
}

// ToolTalk's metrics as text, for `run --mode tooltalk` and `eval --mode tooltalk`: one row per
// conversation, then the data set's figures aggregated as ToolTalk aggregates them (micro ratios
// of summed counts; the success rate a macro mean over conversations).
import type { ToolTalkAggregate } from "../engine/benchmarks/tooltalk/evaluation/metrics.js";
import { plural } from "../engine/base/text.js";
import type { ToolTalkRow } from "../engine/runner/tooltalk-mode.js";
import { renderTable, type Column } from "./table.js";

const ratio = (value: number): string => value.toFixed(3);

const COLUMNS: readonly Column<ToolTalkRow>[] = [
  { header: "CONVERSATION", cell: (r) => r.name },
  { header: "PRECISION", align: "right", cell: (r) => ratio(r.metrics.precision) },
  { header: "RECALL", align: "right", cell: (r) => ratio(r.metrics.recall) },
  { header: "ACTION_PRECISION", align: "right", cell: (r) => ratio(r.metrics.action_precision) },
  { header: "BAD_ACTION_RATE", align: "right", cell: (r) => ratio(r.metrics.bad_action_rate) },
  { header: "SUCCESS", cell: (r) => (r.metrics.success ? "yes" : "no") },
  { header: "SOFT_SUCCESS", align: "right", cell: (r) => ratio(r.metrics.soft_success) },
];

export function toolTalkTableLines(rows: readonly ToolTalkRow[]): string[] {
  return renderTable(COLUMNS, rows);
}

export function toolTalkAggregateLines(aggregate: ToolTalkAggregate): string[] {
  const m = aggregate.micro;
  const successes = Math.round(aggregate.success_rate * aggregate.episodes);
  return [
    `ToolTalk over ${plural(aggregate.episodes, "conversation")} (micro): precision ${ratio(m.precision)}  recall ${ratio(m.recall)}  ` +
      `action precision ${ratio(m.action_precision)}  bad action rate ${ratio(m.bad_action_rate)}  ` +
      `(${m.matches} of ${m.predictions} predictions and ${m.ground_truths} ground-truth calls matched, ${m.bad_actions} of ${m.actions} actions bad)`,
    `success rate ${ratio(aggregate.success_rate)} (${successes} of ${aggregate.episodes}, macro)  soft success ${ratio(aggregate.soft_success_rate)} (macro)`,
  ];
}

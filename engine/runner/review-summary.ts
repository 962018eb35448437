// The failure reviewer's verdict as the records carry it (summary.json, `report`, the runs view).
// Apart from the reviewer itself (failure-review.ts), which calls a model: the runs view imports
// this shape, and the webview's program must reach no Node module.
import type { ReviewEvent, ReviewKind } from "../trajectory/events.js";

/** The review as summary.json, `report` and the runs view show it: who reviewed, whom it blames and why (or why not). */
export interface ReviewSummary {
  readonly reviewer: string;
  readonly kind: ReviewKind | null;
  /** The reviewer's reason, or the failure that left it without a verdict. */
  readonly reason: string;
}

export function reviewSummary(review: ReviewEvent): ReviewSummary {
  return {
    reviewer: review.reviewer,
    kind: review.verdict?.kind ?? null,
    reason: review.verdict?.reason ?? `no verdict: ${review.failure ?? "the reviewer gave none"}`,
  };
}

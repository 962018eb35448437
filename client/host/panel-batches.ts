// A saved run opens in the panel as one "lines" message. At 100,000 messages the webview would
// spend a second validating it before drawing anything, so a long run's lines are posted in
// batches of BATCH_LINES, between "loading" messages: the panel draws the first batch at once and
// says how far it has read, as the exported page does with its chunks (engine/panel/html.ts).
import type { FeedMessage } from "./feed.js";

export const BATCH_LINES = 1000;

/** The messages to post, in order: a long "lines" message split, the rest as they were, then the last "loading". */
export function inBatches(messages: readonly FeedMessage[]): FeedMessage[] {
  const long = messages.find((m) => m.type === "lines" && m.lines.length > BATCH_LINES);
  if (long === undefined || long.type !== "lines") return [...messages];
  const total = long.lines.length;
  const out: FeedMessage[] = [];
  for (const message of messages) {
    if (message !== long) {
      out.push(message);
      continue;
    }
    for (let start = 0; start < total; start += BATCH_LINES) {
      out.push({ type: "loading", loaded: start, total });
      out.push({ type: "lines", lines: long.lines.slice(start, start + BATCH_LINES) });
    }
  }
  // After the DialogTool scores and the score source: the run is all there.
  out.push({ type: "loading", loaded: total, total });
  return out;
}

// What model calls cost, as the panel shows it: one line of totals for the header, and for the
// selected message the call(s) that produced it: latency, attempts, tokens, request id, and the
// raw request and response (drawn only when their section is opened: bodies repeat the history).
import type { TelemetryTotals } from "../../../engine/trajectory/telemetry-totals.js";
import type { PanelModelCall } from "../model/panel-trajectory.js";
import { el } from "./dom.js";
import { plural } from "./format.js";
import { jsonBlock } from "./text.js";

/** "1.23 s" from 1 s up, else "340 ms". */
function formatLatency(ms: number): string {
  return ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${ms} ms`;
}

const count = (n: number): string => n.toLocaleString("en-US");

/** "3 model calls · 1.20 s · 1,234 tokens (1,000 in, 234 out)"; null for a run without model calls. */
export function telemetryLine(t: TelemetryTotals): string | null {
  if (t.calls === 0) return null;
  const failed = t.failed_calls > 0 ? ` (${t.failed_calls} failed)` : "";
  return `${plural(t.calls, "model call")}${failed} · ${formatLatency(t.latency_ms)} · ${count(t.total_tokens)} tokens (${count(t.prompt_tokens)} in, ${count(t.completion_tokens)} out)`;
}

/** The detail's section on the calls made for this message, or null when none were. */
export function callSection(calls: readonly PanelModelCall[], query: string): HTMLElement | null {
  if (calls.length === 0) return null;
  return el(
    "section",
    { class: "detail-section model-calls", attrs: { "data-testid": "model-calls" } },
    el("h3", { text: calls.length === 1 ? "Model call" : `Model calls (${calls.length})` }),
    ...calls.map((line) => callCard(line, query)),
  );
}

function callCard(line: PanelModelCall, query: string): HTMLElement {
  const { call } = line;
  const usage = call.usage;
  const facts: [string, string][] = [
    ["role", line.role],
    ["model", call.model],
    ["latency", formatLatency(call.latency_ms)],
    ["attempts", String(call.attempts)],
    ["prompt tokens", usage?.prompt_tokens === undefined ? "not reported" : count(usage.prompt_tokens)],
    ["completion tokens", usage?.completion_tokens === undefined ? "not reported" : count(usage.completion_tokens)],
    ["total tokens", usage?.total_tokens === undefined ? "not reported" : count(usage.total_tokens)],
    ["request id", call.request_id ?? "none sent"],
  ];
  return el(
    "div",
    { class: `model-call${call.error === undefined ? "" : " failed"}`, attrs: { "data-testid": "model-call" } },
    el(
      "dl",
      { class: "call-facts" },
      ...facts.flatMap(([k, v]) => [el("dt", { text: k }), el("dd", { text: v, attrs: { "data-fact": k } })]),
    ),
    call.error === undefined ? null : el("p", { class: "warning", text: `Failed: ${call.error}` }),
    body("Request", call.request, query),
    body("Response", call.response, query),
    call.request === undefined && call.response === undefined
      ? el("p", { class: "muted", text: "Bodies not recorded (--no-record-io)." })
      : null,
  );
}

function body(label: string, value: PanelModelCall["call"]["request"], query: string): HTMLElement | null {
  if (value === undefined) return null;
  const details = el("details", { class: "call-body" }, el("summary", { text: `Raw ${label.toLowerCase()}` }));
  details.addEventListener("toggle", () => {
    if (details.open && details.childElementCount === 1) details.append(jsonBlock(value, query));
  });
  return details;
}

// The comparison as one HTML page: `toolsandbox compare --html` and the extension's compare view.
// No script at all: a static table, every text escaped, under a CSP that allows only its own
// nonce-bearing stylesheet. The first divergence is highlighted and linked from the top.
import { createNonce } from "../panel/html.js";
import { formatScore } from "../evaluation/highlights.js";
import { isErroredEnd } from "../evaluation/outcome.js";
import type { CompareCell, CompareSide, Comparison } from "./compare-runs.js";

/** Text as HTML text: the five characters that could start markup or end an attribute. */
function escapeHtml(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&#39;");
}

// Colours from VS Code's theme variables in the extension's view (its body carries vscode-dark or
// vscode-light: the theme's kind, whatever the OS prefers), and otherwise a light or a dark palette.
// Highlights are backgrounds under the theme's own text colour, so they read in either theme.
const STYLE = `
:root { color-scheme: light dark;
  --p-fg: #1f2328; --p-bg: #ffffff; --p-muted: #59636e; --p-border: #d1d9e0; --p-soft: #e6eaef; --p-link: #0969da;
  --p-red: #a40e26; --p-red-bg: #ffebe9; --p-green: #116329; --p-amber: #7d4e00; }
@media (prefers-color-scheme: dark) { :root {
  --p-fg: #e6edf3; --p-bg: #0d1117; --p-muted: #9198a1; --p-border: #3d444d; --p-soft: #262c36; --p-link: #4493f8;
  --p-red: #f85149; --p-red-bg: #3a1618; --p-green: #3fb950; --p-amber: #d29922; } }
body.vscode-dark, body.vscode-high-contrast:not(.vscode-high-contrast-light) { color-scheme: dark;
  --p-fg: #e6edf3; --p-bg: #0d1117; --p-muted: #9198a1; --p-border: #3d444d; --p-soft: #262c36; --p-link: #4493f8;
  --p-red: #f85149; --p-red-bg: #3a1618; --p-green: #3fb950; --p-amber: #d29922; }
body.vscode-light, body.vscode-high-contrast-light { color-scheme: light;
  --p-fg: #1f2328; --p-bg: #ffffff; --p-muted: #59636e; --p-border: #d1d9e0; --p-soft: #e6eaef; --p-link: #0969da;
  --p-red: #a40e26; --p-red-bg: #ffebe9; --p-green: #116329; --p-amber: #7d4e00; }
body {
  --fg: var(--vscode-editor-foreground, var(--p-fg)); --bg: var(--vscode-editor-background, var(--p-bg));
  --muted: var(--vscode-descriptionForeground, var(--p-muted)); --border: var(--vscode-panel-border, var(--p-border));
  --soft: var(--vscode-editorGroup-border, var(--p-soft)); --link: var(--vscode-textLink-foreground, var(--p-link));
  --diverge-bg: var(--vscode-diffEditor-removedLineBackground, var(--p-red-bg));
  --red: var(--vscode-errorForeground, var(--p-red)); --green: var(--vscode-testing-iconPassed, var(--p-green));
  --amber: var(--vscode-editorWarning-foreground, var(--p-amber));
  font: 13px/1.45 var(--vscode-font-family, system-ui, sans-serif); color: var(--fg); background: var(--bg); margin: 0; padding: 12px 16px;
}
body.vscode-light { --green: #116329; --amber: #7d4e00; --red: #a40e26; }
h1 { font-size: 16px; margin: 0 0 6px; overflow-wrap: break-word; }
.sides { display: grid; grid-template-columns: minmax(0, 1fr) minmax(0, 1fr); gap: 8px 16px; margin-bottom: 8px; }
.side { border: 1px solid var(--border); border-radius: 6px; padding: 6px 10px; overflow-wrap: anywhere; }
.side b { font-size: 15px; }
.side b.errored { color: var(--amber); }
.muted { color: var(--muted); }
table { border-collapse: collapse; width: 100%; table-layout: fixed; }
th, td { border-bottom: 1px solid var(--soft); padding: 3px 6px; vertical-align: top; text-align: left; overflow-wrap: anywhere; }
th.n, td.n { width: 46px; font-variant-numeric: tabular-nums; color: var(--muted); }
tr.same td.cell { color: var(--muted); }
tr.setup { display: none; }
tr.diverges td { background: var(--diverge-bg); color: var(--fg); }
tr.diverges td.n { font-weight: 700; color: var(--fg); box-shadow: inset 3px 0 0 var(--red); }
.route { font-weight: 600; }
/* A role's name is one word: it moves to the next line whole, never split after a letter. */
.role { white-space: nowrap; }
.world { font-family: ui-monospace, monospace; font-size: 12px; color: var(--link); white-space: pre-wrap; }
.nodes td.diff { font-weight: 600; }
.nodes td.matched { color: var(--green); }
.nodes td.partial, .nodes td.missed { color: var(--amber); }
.nodes td.hit { color: var(--red); }
.nodes td.avoided, .nodes td.absent { color: var(--muted); }
a { color: var(--link); }
/* A narrow view (a side column, a phone): the two cards one above the other, and each message row
   as its number and turn, then A's message, then B's, each the full width. */
@media (max-width: 600px) {
  body { padding: 8px 10px; }
  .sides { grid-template-columns: minmax(0, 1fr); }
  table.messages, table.messages tbody, table.messages tr, table.messages td { display: block; width: auto; }
  table.messages thead { display: none; }
  table.messages tr { border-bottom: 1px solid var(--soft); padding: 2px 0; }
  table.messages tr.setup { display: none; }
  table.messages td { border: 0; padding: 1px 4px; }
  table.messages td.n { display: inline-block; }
  table.messages td.n[data-col="turn"]::before { content: "turn "; }
  table.messages td.cell::before { content: attr(data-side) " · "; color: var(--muted); font-weight: 600; }
}
`;

/** A run that ended in an infrastructure failure has no score that counts: it says so, never a number. */
function scoreHtml(s: CompareSide): string {
  if (s.end !== null && isErroredEnd(s.end)) return `<b class="errored" data-testid="side-score">errored: not scored</b>`;
  return `<b data-testid="side-score">score ${escapeHtml(formatScore(s.score))}</b>`;
}

function sideBox(name: string, s: CompareSide): string {
  const cost =
    s.telemetry.calls === 0
      ? "no model calls"
      : `${s.telemetry.calls} model calls · ${(s.telemetry.latency_ms / 1000).toFixed(1)} s · ${s.telemetry.total_tokens.toLocaleString("en-US")} tokens`;
  return `<div class="side" data-side="${name}"><div>${name} · ${escapeHtml(s.label)}</div>${scoreHtml(s)} <span class="muted">ended ${escapeHtml(s.end ?? "(no end)")} · ${s.messages} messages</span><div class="muted">agent ${escapeHtml(s.agent)} · user ${escapeHtml(s.user)} · ${escapeHtml(cost)}</div></div>`;
}

/** "sender → recipient" with each role's name kept whole (it may move to the next line, not split). */
function routeHtml(route: string): string {
  return route
    .split(" → ")
    .map((role) => `<span class="role">${escapeHtml(role)}</span>`)
    .join(" → ");
}

function cell(c: CompareCell | null, side: "A" | "B"): string {
  if (c === null) return `<td class="cell muted" data-side="${side}">(no message)</td>`;
  const world = c.world.length === 0 ? "" : `<div class="world">${c.world.map(escapeHtml).join("\n")}</div>`;
  return `<td class="cell" data-side="${side}"><span class="route">${routeHtml(c.route)}</span> ${escapeHtml(c.text)}${world}</td>`;
}

export function comparisonHtml(c: Comparison, nonce = createNonce()): string {
  const divergence =
    c.firstDivergence === null
      ? `<p data-testid="divergence">${escapeHtml(c.sameMessagesNote ?? "The runs are the same, message for message.")}</p>`
      : `<p data-testid="divergence">First divergence: <a href="#first-divergence">message ${c.firstDivergence}, turn ${c.rows[c.firstDivergence]?.turn ?? 0}</a>. Setup rows (the same scripted start in both) are left out.</p>`;
  const rows = c.rows
    .map((r) => {
      const cls = [r.same ? "same" : "differs", r.setup && r.same ? "setup" : "", r.index === c.firstDivergence ? "diverges" : ""]
        .filter((x) => x !== "")
        .join(" ");
      const id = r.index === c.firstDivergence ? ` id="first-divergence"` : "";
      return `<tr class="${cls}"${id} data-index="${r.index}"><td class="n" data-col="index">${r.index}</td><td class="n" data-col="turn">${r.turn}</td>${cell(r.a, "A")}${cell(r.b, "B")}</tr>`;
    })
    .join("\n");
  const nodes = c.nodes
    .map(
      (n) =>
        // Each side coloured by its own outcome (a match green, a stepped-on minefield red); a difference is bold.
        `<tr data-node="${escapeHtml(n.id)}"><td>${n.kind} ${escapeHtml(n.id)}</td><td class="${n.aOutcome}${n.same ? "" : " diff"}" data-side="A">${escapeHtml(n.a)}</td><td class="${n.bOutcome}${n.same ? "" : " diff"}" data-side="B">${escapeHtml(n.b)}</td></tr>`,
    )
    .join("\n");
  const csp = `default-src 'none'; style-src 'nonce-${nonce}'; base-uri 'none'; form-action 'none'`;
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${escapeHtml(csp)}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(`${c.scenario}: ${c.a.label} vs ${c.b.label}`)}</title>
<style nonce="${nonce}">${STYLE}</style>
</head>
<body>
<h1>${escapeHtml(c.scenario)}</h1>
<div class="sides">${sideBox("A", c.a)}${sideBox("B", c.b)}</div>
${divergence}
<table class="messages" data-testid="compare-messages"><thead><tr><th class="n">#</th><th class="n">turn</th><th>A</th><th>B</th></tr></thead>
<tbody>
${rows}
</tbody></table>
<h2>Milestones and minefields</h2>
<table class="nodes" data-testid="compare-nodes"><thead><tr><th></th><th>A</th><th>B</th></tr></thead><tbody>
${nodes}
</tbody></table>
</body>
</html>
`;
}

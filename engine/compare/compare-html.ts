// The comparison as one HTML page: `toolsandbox compare --html` and the extension's compare view.
// No script at all: a static table, every text escaped, under a CSP that allows only its own
// nonce-bearing stylesheet. The first divergence is highlighted and linked from the top.
import { createNonce } from "../panel/html.js";
import { formatScore } from "../evaluation/highlights.js";
import type { CompareCell, CompareSide, Comparison } from "./compare-runs.js";

/** Text as HTML text: the five characters that could start markup or end an attribute. */
export function escapeHtml(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&#39;");
}

const STYLE = `
body { font: 13px/1.45 var(--vscode-font-family, system-ui, sans-serif); color: var(--vscode-editor-foreground, #1f2328); background: var(--vscode-editor-background, #fff); margin: 0; padding: 12px 16px; }
h1 { font-size: 16px; margin: 0 0 6px; }
.sides { display: grid; grid-template-columns: 1fr 1fr; gap: 8px 16px; margin-bottom: 8px; }
.side { border: 1px solid #d1d9e0; border-radius: 6px; padding: 6px 10px; }
.side b { font-size: 15px; }
.muted { color: var(--vscode-descriptionForeground, #59636e); }
table { border-collapse: collapse; width: 100%; table-layout: fixed; }
th, td { border-bottom: 1px solid #e6eaef; padding: 3px 6px; vertical-align: top; text-align: left; overflow-wrap: anywhere; }
th.n, td.n { width: 46px; font-variant-numeric: tabular-nums; color: #59636e; }
tr.same td.cell { color: #59636e; }
tr.setup { display: none; }
tr.diverges td { background: #ffebe9; }
tr.diverges td.n { font-weight: 700; color: #cf222e; }
.route { font-weight: 600; }
.world { font-family: ui-monospace, monospace; font-size: 12px; color: #0969da; white-space: pre-wrap; }
.nodes td.diff { color: #cf222e; font-weight: 600; }
a { color: #0969da; }
@media (prefers-color-scheme: dark) { body { color: var(--vscode-editor-foreground, #e6edf3); background: var(--vscode-editor-background, #0d1117); } tr.diverges td { background: #3a1618; } }
`;

function sideBox(name: string, s: CompareSide): string {
  const cost =
    s.telemetry.calls === 0
      ? "no model calls"
      : `${s.telemetry.calls} model calls · ${(s.telemetry.latency_ms / 1000).toFixed(1)} s · ${s.telemetry.total_tokens.toLocaleString("en-US")} tokens`;
  return `<div class="side" data-side="${name}"><div>${name} · ${escapeHtml(s.label)}</div><b>score ${escapeHtml(formatScore(s.score))}</b> <span class="muted">ended ${escapeHtml(s.end ?? "(no end)")} · ${s.messages} messages</span><div class="muted">agent ${escapeHtml(s.agent)} · user ${escapeHtml(s.user)} · ${escapeHtml(cost)}</div></div>`;
}

function cell(c: CompareCell | null): string {
  if (c === null) return `<td class="cell muted">(no message)</td>`;
  const world = c.world.length === 0 ? "" : `<div class="world">${c.world.map(escapeHtml).join("\n")}</div>`;
  return `<td class="cell"><span class="route">${escapeHtml(c.route)}</span> ${escapeHtml(c.text)}${world}</td>`;
}

export function comparisonHtml(c: Comparison, nonce = createNonce()): string {
  const divergence =
    c.firstDivergence === null
      ? `<p data-testid="divergence">The runs are the same, message for message.</p>`
      : `<p data-testid="divergence">First divergence: <a href="#first-divergence">message ${c.firstDivergence}, turn ${c.rows[c.firstDivergence]?.turn ?? 0}</a>. Setup rows (the same scripted start in both) are left out.</p>`;
  const rows = c.rows
    .map((r) => {
      const cls = [r.same ? "same" : "differs", r.setup && r.same ? "setup" : "", r.index === c.firstDivergence ? "diverges" : ""]
        .filter((x) => x !== "")
        .join(" ");
      const id = r.index === c.firstDivergence ? ` id="first-divergence"` : "";
      return `<tr class="${cls}"${id} data-index="${r.index}"><td class="n">${r.index}</td><td class="n">${r.turn}</td>${cell(r.a)}${cell(r.b)}</tr>`;
    })
    .join("\n");
  const nodes = c.nodes
    .map(
      (n) =>
        `<tr><td>${n.kind} ${escapeHtml(n.id)}</td><td${n.same ? "" : ` class="diff"`}>${escapeHtml(n.a)}</td><td${n.same ? "" : ` class="diff"`}>${escapeHtml(n.b)}</td></tr>`,
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

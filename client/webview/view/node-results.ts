// A milestone or minefield at the message where it matched (or, for a milestone that never
// matched, its closest miss): the similarity, and the evaluation's explanation of it: each
// constraint's score, the reason a rule gave, the column that pulled it down, every column score.
import type { ConstraintResult } from "../../../engine/evaluation/result.js";
import type { NodeMark } from "../model/panel-trajectory.js";
import type { PanelNodeDefinition } from "../../../engine/panel/protocol.js";
import type { PanelActions } from "./actions.js";
import { button, el } from "./dom.js";
import { formatScore } from "./format.js";
import { NODE_SYMBOLS, nodeFigure, nodeState } from "./node-state.js";
import { appendHighlighted } from "./text.js";

export interface NodeContext {
  readonly definitions: ReadonlyMap<string, PanelNodeDefinition>;
  readonly canRevealInEditor: boolean;
  readonly query: string;
  readonly actions: PanelActions;
}

export function nodeCard(mark: NodeMark, context: NodeContext): HTMLElement {
  const { kind, node, matched } = mark;
  const state = nodeState(kind, matched, node.similarity);
  const verdict =
    state === "hit"
      ? "matched here"
      : state === "partial"
        ? "matched here, in part"
        : state === "miss"
          ? "not matched: closest miss"
          : "stepped on here";
  const description = context.definitions.get(node.id)?.description ?? null;
  const title = el("span", { class: "node-title" });
  appendHighlighted(title, node.id, context.query);
  const guardrailsBelow = node.guardrails.filter((g) => g.similarity < 1);
  return el(
    "article",
    { class: `node-card ${kind} ${state}`, attrs: { "data-node": node.id, "data-kind": kind } },
    el(
      "header",
      { class: "node-head" },
      el("span", { class: "node-symbol", text: NODE_SYMBOLS[state] }),
      el("span", { class: "node-kind", text: kind }),
      title,
      el("span", { class: "node-verdict", text: verdict }),
      // A minefield stepped on is a failure: its similarity (1.00 when stepped on squarely) would read as a pass.
      kind === "minefield"
        ? el("span", {
            class: "node-hit",
            text: nodeFigure(kind, matched, node.similarity),
            title: `similarity ${formatScore(node.similarity)}`,
            attrs: { "data-testid": "similarity" },
          })
        : meter(node.similarity, "similarity"),
      context.canRevealInEditor
        ? button("Show in scenario", { class: "link-button", attrs: { "data-action": "reveal-node" } }, () =>
            context.actions.revealNode(kind, node.id),
          )
        : null,
    ),
    description ? descriptionText(description, context.query) : null,
    node.constraints.length > 0
      ? el("div", { class: "constraints" }, ...node.constraints.map((c, i) => constraintRow(c, `constraint ${i + 1}`, context)))
      : null,
    node.guardrails.length === 0
      ? null
      : guardrailsBelow.length === 0
        ? el("p", {
            class: "guardrails-ok",
            text: `Guardrails: ${[...new Set(node.guardrails.map((g) => g.table))].join(", ")} unchanged outside the expected changes (1.00)`,
          })
        : el("div", { class: "constraints guardrails" }, ...guardrailsBelow.map((g) => constraintRow(g, "guardrail", context))),
  );
}

function descriptionText(text: string, query: string): HTMLElement {
  const p = el("p", { class: "node-description" });
  appendHighlighted(p, text, query);
  return p;
}

function constraintRow(c: ConstraintResult, label: string, context: NodeContext): HTMLElement {
  const e = c.explanation;
  const against =
    c.reference === null ? null : `vs ${c.reference.id === "initial" ? "the initial world" : `${c.reference.id} @ #${c.reference.index}`}`;
  const head = el(
    "div",
    { class: "constraint-head" },
    el("span", { class: "constraint-label", text: label }),
    el("span", { class: "constraint-kind", text: c.kind }),
    el("span", { class: "constraint-table", text: c.table }),
    against ? el("span", { class: "constraint-ref", text: against }) : null,
    meter(c.similarity, `${c.kind} ${c.table}`),
  );
  const why: HTMLElement[] = [];
  if (e.reason !== null) {
    const p = el("p", { class: "reason" });
    appendHighlighted(p, e.reason, context.query);
    why.push(p);
  }
  if (e.weakest !== null) {
    const weakest = e.weakest;
    const note = e.pairs
      .find((p) => p.target === weakest.target && p.row === weakest.row)
      ?.columns.find((col) => col.column === weakest.column)?.note;
    why.push(
      el(
        "p",
        { class: "weakest", attrs: { "data-testid": "weakest-column" } },
        "Pulled down by column ",
        el("code", { text: weakest.column }),
        ` (${formatScore(weakest.similarity)})`,
        note ? `: ${note}` : "",
      ),
    );
  }
  const columns =
    e.pairs.length === 0
      ? null
      : el(
          "details",
          { class: "column-scores" },
          el("summary", {
            text: `Column scores (${e.pairs.length} paired row${e.pairs.length === 1 ? "" : "s"}, compared with ${e.rows === "current" ? "the rows at this message" : "the removed rows"})`,
          }),
          ...e.pairs.map((p) =>
            el(
              "table",
              { class: "score-table" },
              el("caption", { text: `target row ${p.target} ↔ row ${p.row}: ${formatScore(p.similarity)}` }),
              el(
                "thead",
                {},
                el("tr", {}, ...["column", "measure", "similarity", "why"].map((h) => el("th", { text: h, attrs: { scope: "col" } }))),
              ),
              el(
                "tbody",
                {},
                ...p.columns.map((col) =>
                  el(
                    "tr",
                    { class: col.similarity !== null && col.similarity < 1 ? "below" : "" },
                    el("td", {}, el("code", { text: col.column })),
                    el("td", { text: col.measure }),
                    el("td", { class: "num", text: col.similarity === null ? "neutral" : formatScore(col.similarity) }),
                    el("td", { text: col.note ?? "" }),
                  ),
                ),
              ),
            ),
          ),
        );
  if (columns && c.similarity < 1) columns.open = true;
  return el("div", { class: `constraint ${c.similarity >= 1 ? "full" : "partial"}` }, head, ...why, columns);
}

/** A similarity as a number and a bar. */
function meter(value: number, label: string): HTMLElement {
  const fill = el("span", { class: "meter-fill" });
  fill.style.width = `${Math.round(value * 100)}%`;
  const level = value >= 1 ? "full" : value > 0 ? "partial" : "zero";
  return el(
    "span",
    { class: `meter ${level}`, title: `${label}: ${formatScore(value)}` },
    el("span", { class: "meter-bar", attrs: { "aria-hidden": "true" } }, fill),
    el("span", { class: "meter-value", text: formatScore(value), attrs: { "data-testid": "similarity" } }),
  );
}

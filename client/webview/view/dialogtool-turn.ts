// DialogTool's scores in the panel (docs/dialogtool.md): one line of totals for the header, and in
// the selected message's detail the agent turn that starts there: what the reference did, what the
// agent did, and each task's verdict. Everything from the run (replies, arguments) is text.
import { describeAction } from "../../../engine/benchmarks/dialogtool/tasks/describe-action.js";
import type { DialogToolMetrics, ScoredDialogToolTurn, Tally } from "../../../engine/benchmarks/dialogtool/tasks/types.js";
import { el } from "./dom.js";

/** DialogTool counts dialogue turns from 0 (after the opening); the debugger and the panel count user turns from 1 (the opening's). */
const userTurnLabel = (dialogueTurn: number): string => `user turn ${dialogueTurn + 1}`;

const ratio = (t: Tally): string => (t.accuracy === null ? "–" : t.accuracy.toFixed(2));

/** "DialogTool: awareness 1.00 · selection 0.50 · execution 0.50 · BLEU 42.0 · ROUGE-L 0.71". */
export function dialogToolLine(m: DialogToolMetrics): string {
  const parts = [`awareness ${ratio(m.awareness)}`, `selection ${ratio(m.selection)}`, `execution ${ratio(m.execution)}`];
  if (m.response.bleu !== null) parts.push(`BLEU ${m.response.bleu.toFixed(1)}`);
  if (m.response.rouge_l !== null) parts.push(`ROUGE-L ${m.response.rouge_l.toFixed(2)}`);
  return `DialogTool: ${parts.join(" · ")}`;
}

function verdict(name: string, ok: boolean | undefined): HTMLElement | null {
  if (ok === undefined) return null;
  return el("span", { class: `dt-verdict ${ok ? "ok" : "wrong"}`, text: `${name} ${ok ? "✓" : "✗"}`, attrs: { "data-task": name } });
}

function turnCard(turn: ScoredDialogToolTurn): HTMLElement {
  const s = turn.scores;
  const figures: string[] = [];
  if (s.calls) figures.push(`calls ${s.calls.correct}/${s.calls.total}`);
  if (s.arguments) figures.push(`arguments ${s.arguments.correct}/${s.arguments.total}`);
  if (s.bleu !== undefined) figures.push(`BLEU ${s.bleu.toFixed(1)}`);
  if (s.rouge_l !== undefined) figures.push(`ROUGE-L ${s.rouge_l.toFixed(2)}`);
  const e = s.errors;
  const wrongArgs = [
    e.missing_arguments ? `${e.missing_arguments} missing` : "",
    e.extra_arguments ? `${e.extra_arguments} extra` : "",
    ...Object.entries(e.mismatched_arguments ?? {}).map(([kind, n]) => (n > 0 ? `${n} ${kind.replace("_", "/")} mismatched` : "")),
  ].filter((x) => x !== "");
  if (wrongArgs.length > 0) figures.push(`arguments: ${wrongArgs.join(", ")}`);
  if (e.unnecessary_calls > 0) figures.push(`${e.unnecessary_calls} unnecessary call${e.unnecessary_calls === 1 ? "" : "s"}`);
  return el(
    "div",
    { class: "dt-turn", attrs: { "data-testid": "dialogtool-turn" } },
    el(
      "div",
      { class: "dt-verdicts" },
      verdict("awareness", s.awareness),
      verdict("selection", s.selection),
      verdict("execution", s.execution),
      verdict("action", s.action),
      s.confirmation ? verdict("confirmation", s.confirmation.correct === s.confirmation.total) : null,
      el("span", { class: "dt-figures", text: figures.join(" · ") }),
    ),
    el(
      "div",
      { class: "dt-action" },
      el("span", { class: "label", text: "reference" }),
      el("code", { text: describeAction(turn.truth), attrs: { "data-testid": "dialogtool-truth" } }),
    ),
    el(
      "div",
      { class: "dt-action" },
      el("span", { class: "label", text: "agent" }),
      el("code", { text: describeAction(turn.prediction), attrs: { "data-testid": "dialogtool-prediction" } }),
    ),
    turn.apps.length > 0
      ? el("div", { class: "muted", text: `apps: ${turn.apps.join(", ")} · ${userTurnLabel(turn.dialogue_turn)}` })
      : el("div", { class: "muted", text: userTurnLabel(turn.dialogue_turn) }),
  );
}

/** The detail's section on the agent turn(s) scored at this message, or null when none is. */
export function dialogToolSection(turns: readonly ScoredDialogToolTurn[]): HTMLElement | null {
  if (turns.length === 0) return null;
  return el(
    "section",
    { class: "detail-section dialogtool", attrs: { "data-testid": "dialogtool-here" } },
    el("h3", {
      text: turns.length === 1 ? "DialogTool: this agent turn" : `DialogTool: ${turns.length} reference turns the agent did not take`,
    }),
    ...turns.map(turnCard),
  );
}

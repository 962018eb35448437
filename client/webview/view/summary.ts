// The top of the panel: which scenario, how it was run, the score and turn count, and one chip per
// milestone and minefield (where it matched and how well) that jumps to its message.
import type { NodeResult } from "../../../engine/evaluation/result.js";
import type { PanelTrajectory } from "../model/panel-trajectory.js";
import type { LiveState, LoadingMessage, NodeKind } from "../../../engine/panel/protocol.js";
import type { PanelActions } from "./actions.js";
import { button, el, replaceChildren } from "./dom.js";
import { isErroredEnd } from "../../../engine/evaluation/outcome.js";
import { formatScore, plural } from "./format.js";
import { NODE_SYMBOLS, nodeFigure, nodeState } from "./node-state.js";
import { judgementSection } from "./judgement.js";
import { telemetryLine } from "./model-calls.js";
import { dialogToolLine } from "./dialogtool-turn.js";
import { dialogToolAnalysisLine } from "../../../engine/benchmarks/dialogtool/tasks/analysis-line.js";
import { appendIdentifier } from "./text.js";
import { rescoredLabel } from "../../../engine/panel/score-source.js";
import { withPathLinks } from "./path-links.js";

/** The run's model calls summed, for a model-backed run. */
function costLine(t: PanelTrajectory): HTMLElement | null {
  const text = telemetryLine(t.telemetry);
  return text === null ? null : el("div", { class: "run-line cost", text, attrs: { "data-testid": "telemetry" } });
}

/** DialogTool's totals for the run, once the host has sent them. */
function dialogToolSummary(t: PanelTrajectory): HTMLElement | null {
  const m = t.dialogToolMetrics;
  // The error analyses are the line's tooltip: as a line of their own they widened the header's
  // title and pushed the scores off its row (test/webview/narrow.test.ts).
  return m === null
    ? null
    : el("div", {
        class: "run-line dialogtool",
        text: dialogToolLine(m),
        title: dialogToolAnalysisLine(m),
        attrs: { "data-testid": "dialogtool" },
      });
}

export class SummaryView {
  readonly element = el("header", { class: "summary", attrs: { "aria-label": "Run summary" } });
  private chips: { readonly at: number | null; readonly element: HTMLElement }[] = [];

  constructor(
    private readonly actions: PanelActions,
    /** The host can compare the run with its scenario's reference. */
    private readonly canCompare = false,
  ) {}

  /** `loading`: an exported page still reading its lines (the score and the end are yet to come). */
  render(trajectory: PanelTrajectory | null, live: LiveState | null, loading: LoadingMessage | null = null): void {
    this.chips = [];
    if (!trajectory) {
      // The empty state is the detail pane's (one message, with its buttons); the header stays quiet.
      replaceChildren(this.element, el("div", { class: "summary-title" }, el("h1", { text: "ToolSandbox" })));
      return;
    }
    const { scenario, run } = trajectory.header;
    const name = el("h1", { title: `${scenario.name}: ${scenario.description}`, attrs: { "data-testid": "scenario-name" } });
    appendIdentifier(name, scenario.name);
    const title = el(
      "div",
      { class: "summary-title" },
      name,
      el("div", { class: "categories" }, ...scenario.categories.map((c) => el("span", { class: "tag", text: c }))),
      el("div", {
        class: "run-line",
        text: `agent ${run.agent} · user ${run.user} · seed ${run.seed} · ${scenario.clock.now_iso} (${scenario.clock.timezone})`,
        // Which version of the scenario was played: runs under one name with another digest played an edited file.
        ...(trajectory.header.scenario_digest === undefined ? {} : { title: `scenario version ${trajectory.header.scenario_digest}` }),
      }),
      costLine(trajectory),
      dialogToolSummary(trajectory),
    );
    const more = el("button", {
      class: "tool summary-more",
      text: this.element.classList.contains("expanded") ? "▴" : "▾",
      title: "Show the whole header: categories, roles, milestones",
      attrs: { type: "button", "data-testid": "summary-more", "aria-expanded": String(this.element.classList.contains("expanded")) },
    });
    more.addEventListener("click", () => {
      const open = this.element.classList.toggle("expanded");
      more.textContent = open ? "▴" : "▾";
      more.setAttribute("aria-expanded", String(open));
    });
    const compare =
      this.canCompare && trajectory.end !== null
        ? button(
            "Compare with reference",
            {
              class: "tool summary-compare",
              title: "This run beside the scenario's reference solution, played now",
              attrs: { "data-action": "compare-reference" },
            },
            () => this.actions.command("compare-reference"),
          )
        : null;
    replaceChildren(
      this.element,
      title,
      this.scores(trajectory, live, loading),
      compare,
      more,
      this.note(trajectory),
      this.nodeStrip(trajectory),
      judgementSection(trajectory.judgement),
    );
  }

  /** Marks the chips of the nodes pinned at the selected message. */
  select(index: number | null): void {
    for (const chip of this.chips) chip.element.classList.toggle("current", chip.at !== null && chip.at === index);
  }

  private scores(t: PanelTrajectory, live: LiveState | null, loading: LoadingMessage | null): HTMLElement {
    const e = t.evaluation;
    const status = t.end
      ? `ended: ${t.end.reason}${t.end.detail ? ` (${t.end.detail})` : ""}`
      : live && live !== "finished"
        ? `live: ${live}`
        : loading !== null
          ? `loading: ${loading.loaded} of ${loading.total} lines`
          : "did not finish";
    const stat = (label: string, value: string, id: string): HTMLElement =>
      el(
        "div",
        { class: "stat" },
        el("span", { class: "stat-value", text: value, attrs: { "data-testid": id } }),
        el("span", { class: "stat-label", text: label }),
      );
    // A score counts only once the agent has acted and the run did not end in an infrastructure
    // failure (engine/evaluation/outcome.ts): before that the panel shows no number, never a red 0.00.
    const errored = t.end !== null && isErroredEnd(t.end.reason);
    // The setup's demonstration chat has agent messages too (scripted): they are not the agent acting.
    const acted = t.messages.some((m) => m.sender === "agent" && m.scripted !== true);
    const counted = e !== null && acted && !errored;
    // A run still playing has a score so far, not a verdict: it is drawn neutral, never a red 0.00.
    const playing = !t.end && live !== null && live !== "finished";
    const scoreClass = !counted
      ? "score none"
      : playing
        ? "score so-far"
        : e.score >= 1 - 1e-6
          ? "score full"
          : e.score > 0
            ? "score partial"
            : "score zero";
    // While a run plays, its milestones are scored as they happen: the score so far.
    const scoreLabel = errored
      ? "errored: not scored"
      : e !== null && !acted
        ? "no score yet"
        : e === null
          ? live === "running" || live === "paused"
            ? "scoring…"
            : loading !== null
              ? "loading…"
              : "not scored"
          : playing
            ? "so far"
            : "score";
    return el(
      "div",
      { class: "scores" },
      el(
        "div",
        // The label is hidden in a narrow panel: the title keeps it.
        { class: scoreClass, title: e?.zero_reason ? `${scoreLabel}: ${e.zero_reason}` : scoreLabel },
        el("span", { class: "score-value", text: counted ? formatScore(e.score) : "–", attrs: { "data-testid": "score" } }),
        el("span", { class: "stat-label", text: scoreLabel, attrs: { "data-testid": "score-label" } }),
      ),
      stat("milestones", e === null ? "–" : formatScore(e.milestone_score), "milestone-score"),
      stat("minefields", e === null ? "–" : formatScore(e.minefield_score), "minefield-score"),
      el(
        "div",
        { class: "stat turns", title: "The agent's turns" },
        el("span", { class: "stat-value", text: String(t.turnCount), attrs: { "data-testid": "turn-count" } }),
        // Kept in a narrow panel too: a bare number beside the score reads as another score.
        el("span", { class: "stat-label", text: t.turnCount === 1 ? "turn" : "turns", attrs: { "data-testid": "turn-label" } }),
      ),
      stat("messages", String(t.messages.length), "message-count"),
      el("div", { class: "run-status", text: status, attrs: { "data-testid": "run-status" } }),
      e?.zero_reason ? el("div", { class: "zero-reason", text: `Score 0: ${e.zero_reason}` }) : null,
    );
  }

  /**
   * A line under the title and the scores, kept in the collapsed header too: why an errored run has
   * no score (its reason, with the files it names as links), or that the score shown is a re-score
   * against the scenario as it is now, with the one the run recorded.
   */
  private note(t: PanelTrajectory): HTMLElement | null {
    if (t.end !== null && isErroredEnd(t.end.reason)) {
      const reason = `errored (${t.end.reason})${t.end.detail ? `: ${t.end.detail}` : ""}`;
      return el(
        "div",
        { class: "summary-note errored", attrs: { "data-testid": "errored-reason", role: "alert" } },
        ...withPathLinks(reason, (path) => this.actions.openFile(path)),
      );
    }
    const e = t.evaluation;
    if (e === null || t.rescored === null) return null;
    return el("div", { class: "summary-note rescored", text: rescoredLabel(e.score, t.rescored), attrs: { "data-testid": "rescored" } });
  }

  private nodeStrip(t: PanelTrajectory): HTMLElement | null {
    const e = t.evaluation;
    if (!e || e.milestones.length + e.minefields.length === 0) return null;
    const descriptions = new Map([...t.header.scenario.milestones, ...t.header.scenario.minefields].map((n) => [n.id, n.description]));
    const chip = (kind: NodeKind, node: NodeResult): HTMLElement => {
      const matched = node.matched_at !== null;
      const at = node.matched_at ?? (kind === "milestone" ? node.explained_at : null);
      const state = nodeState(kind, matched, node.similarity);
      const symbol = NODE_SYMBOLS[state];
      const where = matched ? `#${node.matched_at}` : kind === "milestone" ? "not matched" : "avoided";
      const b = el(
        "button",
        {
          class: `node-chip ${kind} ${state}`,
          title: `${kind} ${node.id}${descriptions.get(node.id) ? `: ${descriptions.get(node.id)}` : ""}${at === null ? "" : ` (message ${at})`}`,
          attrs: { type: "button", "data-node": node.id, "data-kind": kind },
        },
        el("span", { class: "chip-symbol", text: symbol }),
        el("span", { class: "chip-id", text: node.id }),
        el("span", { class: "chip-where", text: where }),
        el("span", { class: "chip-score", text: nodeFigure(kind, matched, node.similarity) }),
      );
      if (at === null) b.disabled = true;
      else b.addEventListener("click", () => this.actions.select(at));
      this.chips.push({ at, element: b });
      return b;
    };
    return el(
      "div",
      { class: "node-strip", attrs: { "aria-label": "Milestones and minefields" } },
      e.milestones.length > 0 ? el("span", { class: "strip-label", text: plural(e.milestones.length, "milestone") }) : null,
      ...e.milestones.map((n) => chip("milestone", n)),
      e.minefields.length > 0 ? el("span", { class: "strip-label", text: plural(e.minefields.length, "minefield") }) : null,
      ...e.minefields.map((n) => chip("minefield", n)),
    );
  }
}

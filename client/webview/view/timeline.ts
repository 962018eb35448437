// The message bus as a list: one fixed-height row per listed message (index, route, badges, a
// one-line preview). Only the rows in view (plus a margin) exist in the DOM, so a trajectory of
// thousands of messages costs the same to show as one of thirty.
import type { PanelTrajectory } from "../model/panel-trajectory.js";
import type { VisibleMessages } from "../model/navigation.js";
import type { PanelActions } from "./actions.js";
import { el } from "./dom.js";
import { formatScore, messageKind, previewAround, previewText, roleLabel } from "./format.js";
import { appendHighlighted } from "./text.js";
import { NODE_SYMBOLS, nodeFigure, nodeState } from "./node-state.js";

const ROW_HEIGHT = 52;
const OVERSCAN = 6;

interface TimelineState {
  readonly trajectory: PanelTrajectory;
  readonly visible: VisibleMessages;
  readonly selected: number | null;
  readonly query: string;
  readonly hits: ReadonlySet<number>;
  /** Messages 0 to end - 1 are setup; folded: message 0's row stands for all of them. */
  readonly setup: { readonly end: number; readonly folded: boolean };
}

export class TimelineView {
  readonly element = el("div", {
    class: "timeline",
    attrs: { role: "listbox", tabindex: "0", "aria-label": "Messages", "data-testid": "timeline" },
  });
  private readonly spacer = el("div", { class: "timeline-spacer" });
  private readonly empty = el("div", { class: "timeline-empty", text: "No messages match the filter." });
  private state: TimelineState | null = null;
  private frame = 0;

  constructor(actions: PanelActions) {
    // Hidden until a run's messages are all filtered out: an empty panel has no filter to blame.
    this.empty.hidden = true;
    this.element.append(this.spacer, this.empty);
    this.element.addEventListener("scroll", () => this.schedule());
    this.element.addEventListener("click", (event) => {
      if (event.target instanceof Element && event.target.closest(".setup-toggle")) {
        actions.toggleSetup();
        return;
      }
      const row = event.target instanceof Element ? event.target.closest<HTMLElement>(".row") : null;
      const index = row?.dataset.index;
      if (index !== undefined) actions.select(Number(index));
    });
    new ResizeObserver(() => this.schedule()).observe(this.element);
  }

  update(state: TimelineState): void {
    this.state = state;
    this.spacer.style.height = `${state.visible.length * ROW_HEIGHT}px`;
    this.empty.hidden = state.visible.length > 0 || state.trajectory.messages.length === 0;
    this.draw();
  }

  /**
   * Brings message `index` into view: a row just off the edge scrolls in by the least amount (so
   * stepping does not jump the list around); a row further away is centred.
   */
  reveal(index: number): void {
    if (!this.state) return;
    const position = this.state.visible.positionOf(index);
    if (position === -1) return;
    const top = position * ROW_HEIGHT;
    const view = this.element;
    const height = view.clientHeight;
    const above = view.scrollTop - top;
    const below = top + ROW_HEIGHT - (view.scrollTop + height);
    if (above > ROW_HEIGHT || below > ROW_HEIGHT) view.scrollTop = top - (height - ROW_HEIGHT) / 2;
    else if (above > 0) view.scrollTop = top;
    else if (below > 0) view.scrollTop = top + ROW_HEIGHT - height;
    this.draw();
  }

  private schedule(): void {
    if (this.frame !== 0) return;
    this.frame = requestAnimationFrame(() => {
      this.frame = 0;
      this.draw();
    });
  }

  private draw(): void {
    const state = this.state;
    if (!state) return;
    const height = this.element.clientHeight || ROW_HEIGHT * 20;
    const first = Math.max(0, Math.floor(this.element.scrollTop / ROW_HEIGHT) - OVERSCAN);
    const last = Math.min(state.visible.length, Math.ceil((this.element.scrollTop + height) / ROW_HEIGHT) + OVERSCAN);
    const rows: HTMLElement[] = [];
    for (let position = first; position < last; position++) {
      const index = state.visible.at(position);
      if (index !== undefined) rows.push(this.row(state, index, position));
    }
    this.spacer.replaceChildren(...rows);
    const selected = state.selected === null ? null : document.getElementById(rowId(state.selected));
    if (selected) this.element.setAttribute("aria-activedescendant", selected.id);
    else this.element.removeAttribute("aria-activedescendant");
  }

  private row(state: TimelineState, index: number, position: number): HTMLElement {
    if (index === 0 && state.setup.folded) return this.setupRow(state, position);
    const m = state.trajectory.messages[index]!;
    const kind = messageKind(m);
    const selected = index === state.selected;
    const window = state.trajectory.scoredWindow;
    const scored = window !== null && index >= window.first && index <= window.last;
    const setup = index < state.setup.end;
    const row = el("div", {
      class: `row role-${m.sender} kind-${kind}${selected ? " selected" : ""}${state.hits.has(index) ? " hit" : ""}${m.scripted ? " scripted" : ""}${scored ? " scored" : ""}${setup ? " setup" : ""}`,
      attrs: { role: "option", id: rowId(index), "aria-selected": String(selected), "data-index": String(index) },
    });
    row.style.transform = `translateY(${position * ROW_HEIGHT}px)`;
    row.style.height = `${ROW_HEIGHT}px`;

    const badges = el("span", { class: "row-badges" });
    for (const mark of state.trajectory.marksAt(index)) {
      const status = nodeState(mark.kind, mark.matched, mark.node.similarity);
      const symbol = NODE_SYMBOLS[status];
      // The score is its own span: a narrow panel drops it (the title keeps it) rather than cutting the id.
      badges.appendChild(
        el(
          "span",
          {
            class: `badge node ${mark.kind} ${status}`,
            title: `${mark.kind} ${mark.node.id}: ${mark.matched ? "matched here" : "closest miss"}, similarity ${formatScore(mark.node.similarity)}`,
            attrs: { "data-node": mark.node.id },
          },
          `${symbol} ${mark.node.id}`,
          el("span", { class: "badge-score", text: ` ${nodeFigure(mark.kind, mark.matched, mark.node.similarity)}` }),
        ),
      );
    }
    if (window !== null && index === window.first) {
      badges.prepend(
        el("span", {
          class: "badge window",
          text: "scored from here",
          title: `The evaluation scores messages ${window.first} to ${window.last}`,
        }),
      );
    }
    // On the first and the last setup row: whichever is in view folds the setup again.
    if ((index === 0 || index === state.setup.end - 1) && state.setup.end > 1)
      badges.prepend(
        el("span", { class: "badge setup-toggle", text: "fold setup", attrs: { role: "button", "data-testid": "fold-setup" } }),
      );
    const changes = state.trajectory.changesAt(index).length;
    if (changes > 0)
      badges.appendChild(
        el("span", { class: "badge world", text: `Δ ${changes}`, title: `${changes} world change${changes === 1 ? "" : "s"}` }),
      );
    if (kind === "error") badges.appendChild(el("span", { class: "badge error", text: "error" }));

    const preview = el("div", { class: "row-preview" });
    if (kind === "call") preview.appendChild(el("span", { class: "preview-tag", text: "call " }));
    appendHighlighted(preview, previewAround(previewText(m), state.query).slice(0, 400), state.query);

    // The badges are the row's own cell (styles.css): beside the route, or on the preview's line when narrow.
    row.append(
      el(
        "div",
        { class: "row-head" },
        el("span", { class: "row-index", text: String(index) }),
        el(
          "span",
          { class: "route" },
          el("span", { class: `who role-${m.sender}`, text: roleLabel(m.sender) }),
          " → ",
          el("span", { class: `who role-${m.recipient}`, text: roleLabel(m.recipient) }),
        ),
      ),
      badges,
      preview,
    );
    return row;
  }

  /** One row for the system prompts, the demonstrations and the instructions, folded. */
  private setupRow(state: TimelineState, position: number): HTMLElement {
    const messages = state.trajectory.messages.slice(0, state.setup.end);
    const demonstrations = messages.filter((m) => m.sender !== "system" && !m.visible_to.includes("agent")).length;
    const prompts = messages.filter((m) => m.sender === "system").length;
    const selected = state.selected === 0;
    const row = el("div", {
      class: `row setup-row role-system${selected ? " selected" : ""}`,
      attrs: { role: "option", id: rowId(0), "aria-selected": String(selected), "data-index": "0", "data-testid": "setup-row" },
    });
    row.style.transform = `translateY(${position * ROW_HEIGHT}px)`;
    row.style.height = `${ROW_HEIGHT}px`;
    const parts = [`${prompts} system prompt${prompts === 1 ? "" : "s"}`];
    if (demonstrations > 0) parts.push(`${demonstrations} demonstration message${demonstrations === 1 ? "" : "s"}`);
    row.append(
      el(
        "div",
        { class: "row-head" },
        el("span", { class: "row-index", text: `0–${state.setup.end - 1}` }),
        el("span", { class: "route", text: "Setup" }),
        el(
          "span",
          { class: "row-badges" },
          el("span", { class: "badge setup-toggle", text: "show", attrs: { role: "button", "data-testid": "unfold-setup" } }),
        ),
      ),
      el("div", { class: "row-preview", text: `${parts.join(", ")}: what the roles are told before the conversation starts` }),
    );
    return row;
  }
}

const rowId = (index: number): string => `message-${index}`;

// The controls: step back, step, next milestone, play/pause, jump to a message, the role filter,
// search, and (for a live run) pause/continue/step of the run itself.
import { ROLE_NAMES, type RoleName } from "../../../engine/episode/types.js";
import type { RoleFilter } from "../model/navigation.js";
import type { LiveState } from "../../../engine/panel/protocol.js";
import type { PanelActions } from "./actions.js";
import { button, el, replaceChildren } from "./dom.js";
import { roleLabel } from "./format.js";
import { icon, type IconName } from "./icons.js";

interface ToolbarState {
  readonly selected: number | null;
  readonly messageCount: number;
  readonly listed: number;
  readonly playing: boolean;
  readonly filter: RoleFilter;
  readonly hits: readonly number[];
  readonly live: LiveState | null;
}

export class ToolbarView {
  readonly element = el("div", { class: "toolbar", attrs: { role: "toolbar", "aria-label": "Replay controls" } });
  readonly search: HTMLInputElement;
  readonly jump: HTMLInputElement;
  private readonly play: HTMLButtonElement;
  private readonly position = el("span", { class: "position", attrs: { "data-testid": "position", "aria-live": "polite" } });
  private readonly hitCount = el("span", { class: "hit-count", attrs: { "data-testid": "search-count" } });
  private readonly roleButtons = new Map<RoleName, HTMLButtonElement>();
  private readonly seenBy: HTMLSelectElement;
  private readonly live = el("div", { class: "live-controls", attrs: { "data-testid": "live-controls" } });
  private senders: ReadonlySet<RoleName> = new Set(ROLE_NAMES);
  /** Only shown in a narrow panel: opens the controls that do not fit the one row. */
  private readonly more = button(
    "⋯",
    {
      class: "tool toolbar-more",
      title: "More controls: jump, filters, search",
      attrs: { "data-action": "more", "aria-expanded": "false" },
    },
    () => {
      const open = this.element.classList.toggle("expanded");
      this.more.setAttribute("aria-expanded", String(open));
    },
  );

  constructor(private readonly actions: PanelActions) {
    const tool = (name: IconName, action: string, title: string, onClick: () => void): HTMLButtonElement => {
      const b = button("", { class: "tool icon", title, attrs: { "data-action": action, "aria-label": title } }, onClick);
      b.appendChild(icon(name));
      return b;
    };

    this.play = tool("play", "play", "Play / pause (Space)", () => actions.togglePlay());
    const stepping = el(
      "div",
      { class: "group stepping" },
      tool("first", "first", "First message (Home)", () => actions.first()),
      tool("back", "step-back", "Step back (← or k)", () => actions.step(-1)),
      this.play,
      tool("step", "step", "Step (→ or j)", () => actions.step(1)),
      tool("milestone", "next-milestone", "Continue to the next milestone or minefield match (n)", () => actions.nextMatch(1)),
      tool("last", "last", "Last message (End)", () => actions.last()),
      this.position,
    );

    this.jump = el("input", {
      class: "jump",
      title: "Jump to message (g)",
      attrs: { type: "number", min: "0", placeholder: "#", "aria-label": "Jump to message", "data-testid": "jump" },
    });
    this.jump.addEventListener("keydown", (event) => {
      if (event.key !== "Enter") return;
      const n = Number(this.jump.value);
      if (this.jump.value.trim() !== "" && Number.isInteger(n)) actions.select(n);
    });

    const roles = el("div", { class: "group roles", attrs: { role: "group", "aria-label": "Show messages from" } });
    for (const role of ROLE_NAMES) {
      const b = button(
        roleLabel(role),
        { class: `role-toggle role-${role}`, title: `Show messages sent by ${role}`, attrs: { "data-role": role, "aria-pressed": "true" } },
        () => {
          const next = new Set(this.senders);
          if (next.has(role)) next.delete(role);
          else next.add(role);
          actions.setSenders(next);
        },
      );
      this.roleButtons.set(role, b);
      roles.appendChild(b);
    }
    this.seenBy = el("select", {
      class: "seen-by",
      title: "Show only what one role could see",
      attrs: { "aria-label": "Seen by", "data-testid": "seen-by" },
    });
    this.seenBy.appendChild(el("option", { text: "seen by: any", attrs: { value: "" } }));
    for (const role of ROLE_NAMES) this.seenBy.appendChild(el("option", { text: `seen by: ${roleLabel(role)}`, attrs: { value: role } }));
    this.seenBy.addEventListener("change", () => {
      const role = ROLE_NAMES.find((r) => r === this.seenBy.value);
      actions.setSeenBy(role ?? null);
    });
    roles.appendChild(this.seenBy);

    this.search = el("input", {
      class: "search",
      title: "Search messages (/); Enter: next match, Shift+Enter: previous",
      attrs: {
        type: "search",
        placeholder: "Search messages",
        "aria-label": "Search messages",
        "data-testid": "search",
        spellcheck: "false",
      },
    });
    this.search.addEventListener("input", () => actions.setQuery(this.search.value));
    this.search.addEventListener("keydown", (event) => {
      if (event.key === "Enter") {
        event.preventDefault();
        actions.nextHit(event.shiftKey ? -1 : 1);
      }
    });
    const searching = el(
      "div",
      { class: "group search-group" },
      this.search,
      this.hitCount,
      tool("up", "previous-hit", "Previous match (Shift+Enter)", () => actions.nextHit(-1)),
      tool("down", "next-hit", "Next match (Enter)", () => actions.nextHit(1)),
    );

    replaceChildren(
      this.element,
      stepping,
      el("div", { class: "group jump-group" }, this.jump),
      roles,
      searching,
      this.live,
      button(
        "?",
        { class: "tool", title: "Keyboard shortcuts (?)", attrs: { "data-action": "shortcuts", "aria-label": "Keyboard shortcuts" } },
        () => actions.toggleShortcuts(),
      ),
      this.more,
    );
  }

  update(state: ToolbarState): void {
    this.play.replaceChildren(icon(state.playing ? "pause" : "play"));
    this.play.classList.toggle("active", state.playing);
    this.play.setAttribute("aria-pressed", String(state.playing));
    const at = state.selected === null ? "–" : `#${state.selected}`;
    const filtered = state.listed === state.messageCount ? "" : `, ${state.listed} shown`;
    // The count is its own span: a narrow toolbar shows only the position.
    this.position.replaceChildren(
      at,
      el("span", { class: "position-count", text: ` · ${state.messageCount} message${state.messageCount === 1 ? "" : "s"}${filtered}` }),
    );
    this.jump.max = String(Math.max(0, state.messageCount - 1));

    this.senders = state.filter.senders;
    for (const [role, b] of this.roleButtons) {
      const on = state.filter.senders.has(role);
      b.classList.toggle("off", !on);
      b.setAttribute("aria-pressed", String(on));
    }
    this.seenBy.value = state.filter.seenBy ?? "";

    const hasQuery = this.search.value.trim() !== "";
    const current = state.selected === null ? -1 : state.hits.indexOf(state.selected);
    this.hitCount.textContent = !hasQuery
      ? ""
      : state.hits.length === 0
        ? "no matches"
        : `${current === -1 ? "–" : current + 1} / ${state.hits.length}`;
    this.hitCount.classList.toggle("none", hasQuery && state.hits.length === 0);
    this.renderLive(state.live);
  }

  private renderLive(live: LiveState | null): void {
    if (live === null || live === "finished") {
      replaceChildren(this.live);
      this.live.hidden = true;
      return;
    }
    this.live.hidden = false;
    const control = (label: string, action: "pause" | "continue" | "step" | "stop", title: string): HTMLButtonElement =>
      button(label, { class: `tool live-${action}`, title, attrs: { "data-action": `run-${action}` } }, () =>
        this.actions.runControl(action),
      );
    replaceChildren(
      this.live,
      el("span", { class: `live-state ${live}`, text: live === "paused" ? "Paused before the next message" : "Running" }),
      live === "paused"
        ? control("Continue", "continue", "Continue the run")
        : control("Pause", "pause", "Pause the run before its next message"),
      live === "paused"
        ? control("Step message", "step", "Play the next message (a role's next answer, with its parallel calls), then pause again")
        : null,
      control("Stop", "stop", "Cancel the run (what was played is kept and scored)"),
    );
  }
}

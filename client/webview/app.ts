// The panel: receives trajectory lines and commands from its host, keeps what is selected,
// filtered and searched, and redraws the views. One class for the live and the replay panel:
// a live run is a trajectory whose lines keep arriving.
import type { RoleName } from "../../engine/episode/types.js";
import type { PanelHost } from "./host.js";
import { isAllowedLink } from "./links.js";
import { cycle, isFiltering, NO_FILTER, searchHits, VisibleMessages, withSetupFold, type RoleFilter } from "./model/navigation.js";
import { LineOrderError, PanelTrajectory } from "./model/panel-trajectory.js";
import {
  FIRST_RENDER_MARK,
  LOADED_MARK,
  type LiveState,
  type LoadingMessage,
  type NodeKind,
  type PanelCommand,
  type PanelLine,
  type RunControl,
} from "../../engine/panel/protocol.js";
import { parseHostMessage } from "./validate/host-messages.js";
import type { Direction, PanelActions } from "./view/actions.js";
import { el, replaceChildren } from "./view/dom.js";
import { MessageDetailView } from "./view/message-detail.js";
import { installShortcuts, shortcutsOverlay } from "./view/shortcuts.js";
import { SummaryView } from "./view/summary.js";
import { TimelineView } from "./view/timeline.js";
import { ToolbarView } from "./view/toolbar.js";
import { NoticesView } from "./view/notices.js";
import { PlayFormView } from "./view/play-form.js";
import { savedState, type SavedState } from "./model/saved-state.js";

const PLAY_INTERVAL_MS = 800;
/** While a long page loads, the panel redraws this often, not once per chunk (each redraw lays out the page and counts the turns). */
const LOADING_REDRAW_MS = 250;

export class Panel implements PanelActions {
  private trajectory: PanelTrajectory | null = null;
  private readonly visible = new VisibleMessages(NO_FILTER);
  private filter: RoleFilter = NO_FILTER;
  private selected: number | null = null;
  /**
   * During a live run the selection moves to each new message while this holds: nothing selected
   * by the user yet, or the newest listed message selected. Selecting an older one clears it (the
   * view stays put as the run goes on); selecting the newest again sets it.
   */
  private following = true;
  private query = "";
  /** The setup rows are shown one by one (the user unfolded them). */
  private setupOpen = false;
  private hits: number[] = [];
  private playTimer: ReturnType<typeof setInterval> | null = null;
  private live: LiveState | null = null;
  /** An exported page still reading its lines; null once they are all in (or for any other host). */
  private loading: LoadingMessage | null = null;
  /** The selection is where the panel opened while loading: it moves once the whole run (its evaluation) is in. */
  private provisionalOpening = false;
  private loadingRedraw: ReturnType<typeof setTimeout> | null = null;
  private restore: SavedState | null;
  private rendered = false;

  private readonly summary: SummaryView;
  private readonly toolbar = new ToolbarView(this);
  private readonly timeline = new TimelineView(this);
  private readonly detail: MessageDetailView;
  private readonly notices = new NoticesView();
  private readonly playForm = new PlayFormView((request) => this.host.request(request));
  private readonly overlay = shortcutsOverlay(() => this.toggleShortcuts(false));

  constructor(
    root: HTMLElement,
    private readonly host: PanelHost,
  ) {
    this.detail = new MessageDetailView(this, host.capabilities.revealInEditor, host.capabilities.commands);
    this.summary = new SummaryView(this, host.capabilities.commands);
    this.restore = savedState(host.savedState());
    this.overlay.hidden = true;
    replaceChildren(
      root,
      el(
        "div",
        { class: "app" },
        this.summary.element,
        this.toolbar.element,
        this.notices.banner,
        this.notices.notice,
        el(
          "main",
          { class: "panes" },
          el("section", { class: "timeline-pane", attrs: { "aria-label": "Message bus" } }, this.timeline.element),
          el("section", { class: "detail-pane", attrs: { "aria-label": "Selected message" } }, this.detail.element),
        ),
        this.playForm.element,
        this.overlay,
      ),
    );
    installShortcuts(this, { search: this.toolbar.search, jump: this.toolbar.jump });
    this.renderAll();
  }

  start(): void {
    this.host.connect((message) => this.receive(message));
  }

  /**
   * Everything from the host comes through here, and is validated before anything else sees it.
   * A header starts a new run, and with it a new count of ignored messages.
   */
  receive(raw: unknown): void {
    const checked = parseHostMessage(raw);
    if (!checked.ok) {
      this.reject(checked.error);
      this.renderNotice();
      return;
    }
    const message = checked.value;
    switch (message.type) {
      case "lines":
        if (message.lines[0]?.type === "header") this.notices.rejected.length = 0;
        for (const r of message.rejected) this.reject(r);
        this.addLines(message.lines);
        break;
      case "reveal":
        this.reveal(message.index);
        break;
      case "loading":
        this.loadingProgress(message);
        break;
      case "damaged":
        this.notices.damage = message.problem;
        this.renderNotice();
        break;
      case "score-source":
        // Sent after the evaluation it describes; a panel with no run yet has nothing to attach it to.
        if (this.trajectory) this.trajectory.rescored = message.rescored;
        this.renderAll(false);
        break;
      case "dialogtool":
        // Sent after the lines it scores; a panel with no run yet has nothing to attach it to.
        this.trajectory?.setDialogTool(message.report);
        this.renderAll(false);
        break;
      case "play":
        this.playForm.render(message);
        break;
      case "live": {
        this.live = message.state;
        if (message.state === "finished") this.stopPlaying();
        // A view that opens mid-run gets the lines so far first, then the live state.
        const followed = this.followNewest();
        this.renderAll(followed);
        if (followed) this.save();
        break;
      }
      default:
        if (message.type === "header") this.notices.rejected.length = 0;
        this.addLines([message]);
    }
  }

  // ---- actions ------------------------------------------------------------------------------

  select(index: number): void {
    const t = this.trajectory;
    if (!t || t.messages.length === 0) return;
    const clamped = Math.max(0, Math.min(t.messages.length - 1, Math.trunc(index)));
    // A folded setup message opens the setup; a message the filter hides shows everything again.
    if (this.visible.positionOf(clamped) === -1 && clamped > 0 && clamped < (t.setupEnd ?? 0) && !this.setupOpen) {
      this.setupOpen = true;
      this.applyFilter(this.filter);
    }
    if (this.visible.positionOf(clamped) === -1) this.applyFilter(NO_FILTER);
    this.selected = clamped;
    this.provisionalOpening = false;
    this.following = clamped === this.visible.newest();
    this.renderSelection();
    this.host.request({ type: "selected", index: clamped });
    this.save();
  }

  step(direction: Direction): void {
    const next = this.visible.neighbour(this.selected, direction);
    if (next !== null) this.select(next);
    else if (direction === 1) this.stopPlaying();
  }

  nextMatch(direction: Direction): void {
    const t = this.trajectory;
    if (!t) return;
    const matches = t.matchIndices().filter((i) => this.visible.positionOf(i) !== -1);
    const from = this.selected ?? (direction === 1 ? -1 : Number.POSITIVE_INFINITY);
    const next = direction === 1 ? matches.find((i) => i > from) : [...matches].reverse().find((i) => i < from);
    if (next !== undefined) this.select(next);
  }

  nextHit(direction: Direction): void {
    const next = cycle(this.hits, this.selected, direction);
    if (next === null) return;
    this.select(next);
    this.detail.element.querySelector("mark")?.scrollIntoView({ block: "nearest" });
  }

  first(): void {
    const index = this.visible.at(0);
    if (index !== undefined) this.select(index);
  }

  last(): void {
    const index = this.visible.at(this.visible.length - 1);
    if (index !== undefined) this.select(index);
  }

  togglePlay(): void {
    if (this.playTimer !== null) {
      this.stopPlaying();
      return;
    }
    if (this.selected !== null && this.visible.neighbour(this.selected, 1) === null) this.first();
    this.playTimer = setInterval(() => this.step(1), PLAY_INTERVAL_MS);
    this.renderToolbar();
  }

  setSenders(senders: ReadonlySet<RoleName>): void {
    this.applyFilter({ ...this.filter, senders });
    this.keepSelectionListed();
    this.renderAll();
  }

  setSeenBy(role: RoleName | null): void {
    this.applyFilter({ ...this.filter, seenBy: role });
    this.keepSelectionListed();
    this.renderAll();
  }

  setQuery(query: string): void {
    this.query = query;
    if (this.toolbar.search.value !== query) this.toolbar.search.value = query;
    this.updateHits();
    this.renderSelection();
    this.save();
  }

  toggleSetup(): void {
    const t = this.trajectory;
    if (!t || (t.setupEnd ?? 0) < 2) return;
    this.setupOpen = !this.setupOpen;
    this.applyFilter(this.filter);
    if (!this.setupOpen && this.selected !== null && this.selected < (t.setupEnd ?? 0)) this.selected = 0;
    this.renderAll();
  }

  runControl(action: RunControl): void {
    this.host.request({ type: "run-control", action });
  }

  command(command: PanelCommand): void {
    this.host.request({ type: "command", command });
  }

  openLink(url: string): void {
    if (isAllowedLink(url)) this.host.request({ type: "open-link", url });
  }

  openFile(path: string): void {
    this.host.request({ type: "open-file", path });
  }

  revealNode(kind: NodeKind, id: string): void {
    this.host.request({ type: "reveal-node", kind, id });
  }

  toggleShortcuts(visible = this.overlay.hidden): void {
    this.overlay.hidden = !visible;
    if (!this.overlay.hidden) this.overlay.querySelector("button")?.focus();
  }

  // ---- lines ---------------------------------------------------------------------------------

  private addLines(lines: readonly PanelLine[]): void {
    const previous = this.selected;
    let started = false;
    for (const line of lines) {
      if (line.type === "header") {
        started = true;
        this.trajectory = new PanelTrajectory(line);
        this.notices.damage = null;
        this.selected = null;
        this.following = true;
        this.setupOpen = false;
        this.visible.reset([], this.effectiveFilter());
        continue;
      }
      if (!this.trajectory) {
        this.reject(`a "${line.type}" line arrived before the header`);
        continue;
      }
      try {
        this.trajectory.add(line);
      } catch (e) {
        if (!(e instanceof LineOrderError)) throw e;
        this.reject(e.message);
      }
    }
    const t = this.trajectory;
    if (!t) {
      this.renderAll();
      return;
    }
    // The setup folds once its end is known (the first real user message has arrived), unless the
    // user is reading one of its messages.
    const fold = this.effectiveFilter().foldSetup;
    if (fold > 0 && !this.following && this.selected !== null && this.selected > 0 && this.selected < fold) this.setupOpen = true;
    if (this.visible.filterFolds !== this.effectiveFilter().foldSetup) this.visible.reset(t.messages, this.effectiveFilter());
    else this.visible.extend(t.messages);
    this.updateHits();
    if (this.restore !== null && t.messages.length > 0) {
      const { selected, query, following } = this.restore;
      this.restore = null;
      this.query = query;
      this.toolbar.search.value = query;
      this.updateHits();
      if (selected !== null && selected < t.messages.length) this.selected = selected;
      this.following = following;
    }
    const followed = this.followNewest();
    if (this.selected === null) {
      this.selected = this.visible.opening(t);
      this.provisionalOpening = this.loading !== null;
    }
    if (this.loading !== null && this.rendered && !started) {
      this.redrawWhileLoading();
      return;
    }
    // The timeline scrolls only when the selection moved: a user reading elsewhere in the list
    // is not pulled back by each new message.
    this.renderAll(started || this.selected !== previous);
    if (followed) this.save();
    if (!this.rendered && t.messages.length > 0) {
      this.rendered = true;
      performance.mark(FIRST_RENDER_MARK);
    }
  }

  /**
   * A long exported page is read in chunks: the summary says how far, and once the last is in the
   * panel opens where it would have for the whole run (its first failure), unless the user has
   * already picked a message.
   */
  private loadingProgress(message: LoadingMessage): void {
    if (message.loaded < message.total) {
      this.loading = message;
      if (this.rendered) this.redrawWhileLoading();
      return;
    }
    this.loading = null;
    if (this.loadingRedraw !== null) clearTimeout(this.loadingRedraw);
    this.loadingRedraw = null;
    const t = this.trajectory;
    if (this.provisionalOpening && t) this.selected = this.visible.opening(t) ?? this.selected;
    this.provisionalOpening = false;
    this.renderAll();
    performance.mark(LOADED_MARK);
  }

  private redrawWhileLoading(): void {
    this.loadingRedraw ??= setTimeout(() => {
      this.loadingRedraw = null;
      this.renderAll(false);
    }, LOADING_REDRAW_MS);
  }

  private reveal(index: number): void {
    const t = this.trajectory;
    if (!t || index >= t.messages.length) {
      this.reject(`cannot reveal message ${index}: the trajectory has ${t?.messages.length ?? 0} messages`);
      this.renderNotice();
      return;
    }
    this.select(index);
  }

  /** During a live run, selects the newest listed message if the selection follows it; true if it moved. */
  private followNewest(): boolean {
    if (!this.following || this.live === null || this.live === "finished") return false;
    const newest = this.visible.newest();
    if (newest === null || newest === this.selected) return false;
    this.selected = newest;
    return true;
  }

  private reject(problem: string): void {
    console.warn(`toolsandbox panel: ignored a message from the host: ${problem}`);
    this.notices.rejected.push(problem);
  }

  // ---- state ---------------------------------------------------------------------------------

  private applyFilter(filter: RoleFilter): void {
    this.filter = filter;
    this.visible.reset(this.trajectory?.messages ?? [], this.effectiveFilter());
    this.updateHits();
  }

  private effectiveFilter(): RoleFilter {
    return withSetupFold(this.filter, this.trajectory?.setupEnd ?? null, this.setupOpen);
  }

  /** After filtering, keep the selection if it is still listed, else move to the nearest listed message. */
  private keepSelectionListed(): void {
    if (this.followNewest()) return;
    if (this.selected === null || this.visible.positionOf(this.selected) !== -1) return;
    this.selected = this.visible.neighbour(this.selected, 1) ?? this.visible.neighbour(this.selected, -1);
  }

  /** Search looks through the folded setup too; going to a hit there unfolds it. */
  private updateHits(): void {
    const t = this.trajectory;
    this.hits = t && this.query.trim() !== "" ? searchHits(t, this.visible.unfolded(t.messages), this.query) : [];
  }

  private stopPlaying(): void {
    if (this.playTimer === null) return;
    clearInterval(this.playTimer);
    this.playTimer = null;
    this.renderToolbar();
  }

  private save(): void {
    this.host.saveState({ selected: this.selected, query: this.query, following: this.following } satisfies SavedState);
  }

  // ---- rendering -----------------------------------------------------------------------------

  private renderAll(reveal = true): void {
    this.summary.render(this.trajectory, this.live, this.loading);
    this.renderNotice();
    this.renderSelection(reveal);
  }

  /** Redraws what depends on the selection; `reveal` scrolls the timeline to it. */
  private renderSelection(reveal = true): void {
    this.summary.select(this.selected);
    this.renderToolbar();
    const t = this.trajectory;
    if (t) {
      const setup = { end: t.setupEnd ?? 0, folded: this.effectiveFilter().foldSetup > 0 };
      this.timeline.update({
        trajectory: t,
        visible: this.visible,
        selected: this.selected,
        query: this.query,
        hits: new Set(this.hits),
        setup,
      });
    }
    if (reveal && this.selected !== null) this.timeline.reveal(this.selected);
    this.detail.render(t, this.selected, this.query);
  }

  private renderToolbar(): void {
    this.toolbar.update({
      selected: this.selected,
      messageCount: this.trajectory?.messages.length ?? 0,
      // The folded setup is not a filter: its messages count as listed.
      listed: this.visible.length + Math.max(0, this.visible.filterFolds - 1),
      playing: this.playTimer !== null,
      filter: this.filter,
      hits: this.hits,
      live: this.live,
    });
  }

  private renderNotice(): void {
    this.notices.render(isFiltering(this.filter) && this.trajectory !== null && this.visible.length === 0);
  }
}

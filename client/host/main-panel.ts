// The "ToolSandbox" panel (viewType toolsandbox.panel): one webview beside the editor that shows
// live runs and replays, plus every trajectory editor opened from the explorer. It remembers the
// trajectory it showed (workspace state), so after a reload the serializer brings it back.
import * as vscode from "vscode";
import type { TrajectoryFeed } from "./feed.js";
import { PanelView, panelWebviewOptions, type PanelViewHost } from "./panel-view.js";

export const PANEL_VIEW_TYPE = "toolsandbox.panel";
const LAST_TRAJECTORY_KEY = "toolsandbox.panel.trajectory";

interface MainPanelHost extends PanelViewHost {
  readonly workspaceState: vscode.Memento;
  /** The feed of a saved trajectory file, or null (with the reason logged) when it cannot be read. */
  loadFeed(path: string): Promise<TrajectoryFeed | null>;
}

export class PanelViews implements vscode.Disposable {
  private main: PanelView | null = null;
  /** Every live view: the main panel and the trajectory editors. */
  private readonly views = new Set<PanelView>();
  /** The view the user last focused. */
  private lastActive: PanelView | null = null;

  constructor(private readonly host: MainPanelHost) {}

  register(): vscode.Disposable {
    return vscode.window.registerWebviewPanelSerializer(PANEL_VIEW_TYPE, {
      deserializeWebviewPanel: async (panel: vscode.WebviewPanel) => {
        const view = this.adoptMain(panel);
        const path = this.host.workspaceState.get<unknown>(LAST_TRAJECTORY_KEY);
        const feed = typeof path === "string" ? await this.host.loadFeed(path) : null;
        if (feed) view.show(feed);
      },
    });
  }

  /** Shows the feed in the main panel (created beside the editor if needed), optionally at a message. */
  open(feed: TrajectoryFeed | null, options: { readonly reveal?: number | null; readonly preserveFocus?: boolean } = {}): PanelView {
    let view = this.main;
    if (view === null) {
      const panel = vscode.window.createWebviewPanel(
        PANEL_VIEW_TYPE,
        feed?.title ?? "ToolSandbox",
        { viewColumn: vscode.ViewColumn.Beside, preserveFocus: options.preserveFocus ?? true },
        panelWebviewOptions(this.host.extensionUri),
      );
      view = this.adoptMain(panel);
    } else {
      view.panel.reveal(undefined, options.preserveFocus ?? true);
    }
    if (feed !== null && view.feed !== feed) {
      view.show(feed);
      void this.host.workspaceState.update(LAST_TRAJECTORY_KEY, feed.path);
    }
    if (options.reveal !== undefined && options.reveal !== null) view.reveal(options.reveal);
    return view;
  }

  /** A trajectory editor's webview joins the views (reveal and re-score reach it too). */
  adoptEditor(panel: vscode.WebviewPanel): PanelView {
    return this.track(new PanelView(panel, this.host));
  }

  /** Every view showing this trajectory file. */
  showing(path: string): PanelView[] {
    return [...this.views].filter((v) => v.feed?.path === path);
  }

  get mainView(): PanelView | null {
    return this.main;
  }

  /** The trajectory of the view the user last focused, if it is still open. */
  get activeFeed(): TrajectoryFeed | null {
    return this.lastActive?.feed ?? null;
  }

  dispose(): void {
    for (const view of [...this.views]) view.panel.dispose();
  }

  private adoptMain(panel: vscode.WebviewPanel): PanelView {
    const view = this.track(new PanelView(panel, this.host));
    this.main = view;
    view.onDispose(() => {
      if (this.main === view) this.main = null;
    });
    return view;
  }

  private track(view: PanelView): PanelView {
    this.views.add(view);
    if (view.panel.active) this.lastActive = view;
    const focus = view.panel.onDidChangeViewState(() => {
      if (view.panel.active) this.lastActive = view;
    });
    view.onDispose(() => {
      focus.dispose();
      this.views.delete(view);
      if (this.lastActive === view) this.lastActive = null;
    });
    return view;
  }
}

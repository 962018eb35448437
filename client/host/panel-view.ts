// One webview showing one trajectory at a time: the main panel and every trajectory editor are
// each a PanelView. It writes the page (engine/panel/html.ts, a fresh nonce per render, the
// bundle linked from dist/), sends the feed's lines once the page says it is ready, forwards each
// new line, and checks every request the page makes before acting on it.
import * as vscode from "vscode";
import { createNonce, panelHtml } from "../../engine/panel/html.js";
import { inBatches } from "./panel-batches.js";
import type { NodeKind } from "../../engine/panel/protocol.js";
import type { TrajectoryFeed } from "./feed.js";
import { dispatchViewRequest } from "./view-requests.js";

export interface PanelViewHost {
  readonly extensionUri: vscode.Uri;
  readonly log: vscode.LogOutputChannel;
  /** The panel asked to see a milestone or minefield of the trajectory it shows. */
  revealNode(feed: TrajectoryFeed, kind: NodeKind, id: string): void;
}

/** The webview options every panel page needs: scripts on, local files only from dist/. */
export function panelWebviewOptions(extensionUri: vscode.Uri): vscode.WebviewOptions {
  return { enableScripts: true, enableCommandUris: false, localResourceRoots: [vscode.Uri.joinPath(extensionUri, "dist")] };
}

export class PanelView implements vscode.Disposable {
  private feedValue: TrajectoryFeed | null = null;
  private unsubscribe: (() => void) | null = null;
  /** The page has said "ready" since it was last (re)loaded; until then nothing is posted. */
  private ready = false;
  /** A reveal asked for before the page was ready. */
  private pendingReveal: number | null = null;
  private readonly disposables: vscode.Disposable[] = [];
  private disposed = false;
  private readonly onDisposeCallbacks: (() => void)[] = [];

  constructor(
    readonly panel: vscode.WebviewPanel,
    private readonly host: PanelViewHost,
  ) {
    panel.webview.options = panelWebviewOptions(host.extensionUri);
    this.disposables.push(
      panel.webview.onDidReceiveMessage((raw: unknown) => this.receive(raw)),
      // Without retainContextWhenHidden a hidden page is torn down; it reloads and says ready again.
      panel.onDidChangeViewState(() => {
        if (!panel.visible) this.ready = false;
      }),
      panel.onDidDispose(() => this.dispose()),
    );
    this.render();
  }

  get feed(): TrajectoryFeed | null {
    return this.feedValue;
  }

  /** Shows another trajectory (or the same one again, from its first line). */
  show(feed: TrajectoryFeed): void {
    this.unsubscribe?.();
    this.feedValue = feed;
    this.panel.title = feed.title;
    this.unsubscribe = feed.subscribe((message) => {
      if (this.ready) void this.panel.webview.postMessage(message);
    });
    if (this.ready) this.sendSnapshot();
  }

  /** Selects message `index` in the page, now or as soon as it is ready. */
  reveal(index: number): void {
    if (this.ready) void this.panel.webview.postMessage({ type: "reveal", index });
    else this.pendingReveal = index;
  }

  onDispose(callback: () => void): void {
    this.onDisposeCallbacks.push(callback);
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.unsubscribe?.();
    for (const d of this.disposables.splice(0)) d.dispose();
    for (const callback of this.onDisposeCallbacks.splice(0)) callback();
  }

  private render(): void {
    const webview = this.panel.webview;
    const dist = vscode.Uri.joinPath(this.host.extensionUri, "dist");
    webview.html = panelHtml({
      title: "ToolSandbox trajectory",
      nonce: createNonce(),
      assets: {
        kind: "linked",
        scriptUri: webview.asWebviewUri(vscode.Uri.joinPath(dist, "webview.js")).toString(),
        styleUri: webview.asWebviewUri(vscode.Uri.joinPath(dist, "webview.css")).toString(),
        cspSource: webview.cspSource,
      },
    });
  }

  private sendSnapshot(): void {
    if (!this.feedValue) return;
    for (const message of inBatches(this.feedValue.snapshot())) void this.panel.webview.postMessage(message);
    if (this.pendingReveal !== null) {
      void this.panel.webview.postMessage({ type: "reveal", index: this.pendingReveal });
      this.pendingReveal = null;
    }
  }

  private receive(raw: unknown): void {
    const refused = dispatchViewRequest(raw, {
      ready: () => {
        this.ready = true;
        this.sendSnapshot();
      },
      openLink: (url) => void vscode.env.openExternal(vscode.Uri.parse(url, true)),
      openFile: (path) => {
        // Only a file the run itself names (its end's detail: a command agent's logs), never any path a page asks for.
        if (this.feedValue?.namesFile(path) === true) void vscode.window.showTextDocument(vscode.Uri.file(path), { preview: true });
        else this.host.log.warn(`ignored a request of the panel to open a file its run does not name: ${path}`);
      },
      revealNode: (kind, id) => {
        if (this.feedValue) this.host.revealNode(this.feedValue, kind, id);
      },
      runControl: (action) => {
        if (!this.feedValue?.control(action)) this.host.log.info(`run-control "${action}" ignored: no run is going in this panel`);
      },
      selected: () => undefined,
      play: (request) => {
        if (!this.feedValue?.play(request)) this.host.log.info(`${request.type} ignored: no one is playing the run in this panel`);
      },
      // The empty panel's buttons: the same commands as the palette's (their own checks apply).
      command: (command) => {
        if (command === "compare-reference") {
          if (this.feedValue) void vscode.commands.executeCommand("toolsandbox.compareWithReference", vscode.Uri.file(this.feedValue.path));
          return;
        }
        void vscode.commands.executeCommand(command === "run" ? "toolsandbox.runScenario" : "toolsandbox.replayTrajectory");
      },
    });
    if (refused !== null) this.host.log.warn(`ignored a message from the panel: ${refused}`);
  }
}

// *.trajectory.jsonl files open from the explorer in the panel's view (viewType
// toolsandbox.trajectory): the same page, the same messages, read-only. Opening a trajectory also
// puts its results on its scenario's lines when that scenario is open.
import * as vscode from "vscode";
import type { TrajectoryFeed } from "./feed.js";
import type { PanelViews } from "./main-panel.js";

const TRAJECTORY_EDITOR_VIEW_TYPE = "toolsandbox.trajectory";

interface TrajectoryEditorHost {
  readonly views: PanelViews;
  /** Reads the file again (it may have changed since it was last shown) and attaches its scenario. */
  openSaved(path: string): Promise<TrajectoryFeed | null>;
}

export class TrajectoryEditorProvider implements vscode.CustomReadonlyEditorProvider {
  constructor(private readonly host: TrajectoryEditorHost) {}

  static register(host: TrajectoryEditorHost): vscode.Disposable {
    return vscode.window.registerCustomEditorProvider(TRAJECTORY_EDITOR_VIEW_TYPE, new TrajectoryEditorProvider(host), {
      // A trajectory editor is cheap to rebuild from its file; hidden ones keep no page alive.
      webviewOptions: { retainContextWhenHidden: false },
      supportsMultipleEditorsPerDocument: true,
    });
  }

  openCustomDocument(uri: vscode.Uri): vscode.CustomDocument {
    return { uri, dispose: () => undefined };
  }

  async resolveCustomEditor(document: vscode.CustomDocument, panel: vscode.WebviewPanel): Promise<void> {
    const view = this.host.views.adoptEditor(panel);
    const feed = await this.host.openSaved(document.uri.fsPath);
    if (feed) view.show(feed);
  }
}

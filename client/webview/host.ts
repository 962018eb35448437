// The host API: everything the panel needs from whatever embeds it. The panel is the same app in
// VS Code (a webview talking to the extension over postMessage) and in an exported HTML file (a
// page that carries its trajectory inside). Hosts pass messages through as `unknown`: the panel
// validates every one itself, so no host can forget to.
import type { ViewRequest } from "../../engine/panel/protocol.js";

export interface HostCapabilities {
  /** The host can show a milestone or minefield in the scenario editor. */
  readonly revealInEditor: boolean;
  /** The host can run a scenario and open a trajectory (the empty panel's buttons). */
  readonly commands: boolean;
}

export interface PanelHost {
  readonly capabilities: HostCapabilities;
  /** Starts delivering the host's messages (trajectory lines and commands) to `receive`. */
  connect(receive: (message: unknown) => void): void;
  /** Sends a request to the host. Fire and forget: the host answers, if at all, with messages. */
  request(request: ViewRequest): void;
  /** View state saved by an earlier instance of the panel (VS Code keeps it while the tab is hidden). */
  savedState(): unknown;
  saveState(state: unknown): void;
}

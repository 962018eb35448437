// The host inside a VS Code webview: messages arrive as window "message" events posted by the
// webview's outer frame, requests go out through acquireVsCodeApi().postMessage. Events from
// anywhere else (another frame, a window this page opened) are dropped before validation.
import type { PanelHost } from "../host.js";
import type { ViewRequest } from "../../../engine/panel/protocol.js";

interface VsCodeApi {
  postMessage(message: unknown): void;
  getState(): unknown;
  setState(state: unknown): void;
}

/** The VS Code host, or null when the page does not run in a webview. */
export function vscodeHost(): PanelHost | null {
  const acquire = (globalThis as { acquireVsCodeApi?: unknown }).acquireVsCodeApi;
  if (typeof acquire !== "function") return null;
  // acquireVsCodeApi may be called once per page; keep the one instance.
  const api = (acquire as () => VsCodeApi)();
  return {
    capabilities: { revealInEditor: true, commands: true },
    connect(receive) {
      // VS Code deletes window.parent inside a webview (the page cannot reach the host frame); the
      // host frame that posts to it then is only recognisable by its origin, which is the page's.
      const parent: unknown = window.parent;
      window.addEventListener("message", (event: MessageEvent<unknown>) => {
        if (parent ? event.source !== parent : event.origin !== window.location.origin) return;
        receive(event.data);
      });
      api.postMessage({ type: "ready" } satisfies ViewRequest);
    },
    request: (request) => api.postMessage(request),
    savedState: () => api.getState(),
    saveState: (state) => api.setState(state),
  };
}

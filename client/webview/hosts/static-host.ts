// The host of an exported HTML file (and of the browser tests): the trajectory is embedded in the
// page as <script type="application/json" id="trajectory-data">, a JSON list of trajectory lines.
// Links open in a new browser tab, after the same allowlist check the VS Code host makes.
import type { PanelHost } from "../host.js";
import { isAllowedLink } from "../links.js";
import { EMBEDDED_DATA_ID } from "../../../engine/panel/protocol.js";

const isExtraMessage = (line: unknown): boolean =>
  typeof line === "object" && line !== null && (line as { type?: unknown }).type === "dialogtool";

/** The static host, or null when the page carries no embedded trajectory. */
export function staticHost(): PanelHost | null {
  const element = document.getElementById(EMBEDDED_DATA_ID);
  if (element === null || element.tagName !== "SCRIPT" || element.getAttribute("type") !== "application/json") return null;
  return {
    capabilities: { revealInEditor: false, commands: false },
    connect(receive) {
      let lines: unknown;
      try {
        lines = JSON.parse(element.textContent ?? "");
      } catch (e) {
        console.warn(`toolsandbox panel: the embedded trajectory is not valid JSON (${String(e)})`);
        lines = null;
      }
      // Host messages other than trajectory lines (DialogTool's scores) ride after the lines and are posted after them.
      const extra = Array.isArray(lines) ? lines.filter(isExtraMessage) : [];
      receive({ type: "lines", lines: Array.isArray(lines) ? lines.filter((l) => !isExtraMessage(l)) : lines });
      for (const message of extra) receive(message);
    },
    request(request) {
      if (request.type === "open-link" && isAllowedLink(request.url)) window.open(request.url, "_blank", "noopener,noreferrer");
    },
    savedState: () => null,
    saveState: () => undefined,
  };
}

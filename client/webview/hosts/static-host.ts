// The host of an exported HTML file (and of the browser tests): the trajectory is embedded in the
// page as <script type="application/json" id="trajectory-data">, a JSON list of trajectory lines.
// A long run's lines come in several such lists (engine/panel/html.ts): the first before the
// panel's script, the rest after it, read one by one as the browser's parser reaches them, so the
// panel draws the first messages while the rest of the page is still being read.
// Links open in a new browser tab, after the same allowlist check the VS Code host makes.
import type { PanelHost } from "../host.js";
import { isAllowedLink } from "../links.js";
import { EMBEDDED_DATA_ID, embeddedChunkId } from "../../../engine/panel/protocol.js";

const isExtraMessage = (line: unknown): boolean =>
  typeof line === "object" && line !== null && (line as { type?: unknown }).type === "dialogtool";

const isDataElement = (element: Element | null): element is HTMLScriptElement =>
  element !== null && element.tagName === "SCRIPT" && element.getAttribute("type") === "application/json";

/** A count the page writer put on the first element; `fallback` when it is absent or not a whole number. */
function countAttribute(element: Element, name: string, fallback: number): number {
  const n = Number(element.getAttribute(name) ?? Number.NaN);
  return Number.isSafeInteger(n) && n >= 1 ? n : fallback;
}

/** The static host, or null when the page carries no embedded trajectory. */
export function staticHost(): PanelHost | null {
  const first = document.getElementById(EMBEDDED_DATA_ID);
  if (!isDataElement(first)) return null;
  return {
    capabilities: { revealInEditor: false, commands: false },
    connect(receive) {
      const chunks = countAttribute(first, "data-chunks", 1);
      const total = countAttribute(first, "data-lines", 0);
      const chunk = (k: number): Element | null => (k === 0 ? first : document.getElementById(embeddedChunkId(k)));
      // Host messages other than trajectory lines (DialogTool's scores) ride among the lines and are posted after all of them.
      const extra: unknown[] = [];
      let next = 0;
      let loaded = 0;
      let done = false;
      const read = (element: Element): void => {
        let lines: unknown;
        try {
          lines = JSON.parse(element.textContent ?? "");
        } catch (e) {
          console.warn(`toolsandbox panel: the embedded trajectory is not valid JSON (${String(e)})`);
          lines = null;
        }
        // Read once; removing a later chunk keeps the page from holding the run twice (the first stays: it says what the page is).
        if (element !== first) element.remove();
        if (Array.isArray(lines)) {
          extra.push(...lines.filter(isExtraMessage));
          lines = lines.filter((l) => !isExtraMessage(l));
          loaded += (lines as unknown[]).length;
        }
        receive({ type: "lines", lines });
      };
      // Chunk k is whole once the parser has started the next one, or finished the page; the
      // first is whole before the script (which the page puts after it) runs.
      const whole = (k: number): boolean => k === 0 || (k + 1 < chunks && chunk(k + 1) !== null) || document.readyState !== "loading";
      const drain = (): void => {
        if (done) return;
        while (next < chunks) {
          const element = chunk(next);
          if (!isDataElement(element) || !whole(next)) break;
          read(element);
          next++;
          // Short of the total even when every line is in: the last word comes after DialogTool's scores.
          if (next < chunks) receive({ type: "loading", loaded: Math.max(0, Math.min(loaded, total - 1)), total });
        }
        if (next < chunks && document.readyState === "loading") return;
        observer?.disconnect();
        document.removeEventListener("DOMContentLoaded", drain);
        if (next < chunks) console.warn(`toolsandbox panel: the page holds ${next} of its ${chunks} trajectory chunks`);
        for (const message of extra.splice(0)) receive(message);
        // The last word: the run is all there (the panel stops saying it is loading).
        if (chunks > 1) receive({ type: "loading", loaded: total, total });
        done = true;
      };
      const observer = chunks > 1 && document.readyState === "loading" ? new MutationObserver(drain) : null;
      observer?.observe(document.body, { childList: true });
      if (observer) document.addEventListener("DOMContentLoaded", drain);
      // Said before the first lines, so the first drawing already says the rest is on its way.
      if (chunks > 1) receive({ type: "loading", loaded: 0, total });
      drain();
    },
    request(request) {
      if (request.type === "open-link" && isAllowedLink(request.url)) window.open(request.url, "_blank", "noopener,noreferrer");
    },
    savedState: () => null,
    saveState: () => undefined,
  };
}

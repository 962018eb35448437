// A line of text with the file paths in it made clickable (engine/panel/paths-in-text.ts). The page
// renders text only, so a path is a button that asks the host to open it.
import { pathSpans } from "../../../engine/panel/paths-in-text.js";
import { button } from "./dom.js";

/** `text` as text and, for each path in it, a button that opens the file. */
export function withPathLinks(text: string, open: (path: string) => void): (Node | string)[] {
  const parts: (Node | string)[] = [];
  let at = 0;
  for (const { path, start } of pathSpans(text)) {
    if (start > at) parts.push(text.slice(at, start));
    parts.push(button(path, { class: "path-link", title: `Open ${path}`, attrs: { "data-path": path } }, () => open(path)));
    at = start + path.length;
  }
  if (at < text.length) parts.push(text.slice(at));
  return parts;
}

// Content as text: search matches wrapped in <mark>, http(s) links as anchors that ask the host to
// open them, JSON with its tokens coloured. Every piece of content becomes a text node.
import type { JsonValue } from "../../../engine/base/json.js";
import { splitLinks } from "../links.js";
import { append, el } from "./dom.js";

/** Appends `text`, wrapping each case-insensitive occurrence of `query` in <mark>. */
export function appendHighlighted(parent: Node, text: string, query: string): void {
  const needle = query.trim().toLowerCase();
  if (needle === "") {
    append(parent, text);
    return;
  }
  const haystack = text.toLowerCase();
  let from = 0;
  for (let at = haystack.indexOf(needle); at !== -1; at = haystack.indexOf(needle, from)) {
    if (at > from) append(parent, text.slice(from, at));
    append(parent, el("mark", { text: text.slice(at, at + needle.length) }));
    from = at + needle.length;
  }
  if (from < text.length) append(parent, text.slice(from));
}

/** Text with highlighted matches and clickable http(s) links; a click goes to `openLink`, never navigates. */
export function appendRichText(parent: Node, text: string, query: string, openLink: (url: string) => void): void {
  for (const part of splitLinks(text)) {
    if (part.kind === "text") {
      appendHighlighted(parent, part.text, query);
      continue;
    }
    const link = el("a", { attrs: { href: part.text, rel: "noopener noreferrer" }, title: `Open ${part.text}` });
    appendHighlighted(link, part.text, query);
    link.addEventListener("click", (event) => {
      event.preventDefault();
      openLink(part.text);
    });
    append(parent, link);
  }
}

// Strings (keys are strings followed by a colon), numbers, and the three literals of pretty JSON.
const JSON_TOKEN = /("(?:[^"\\]|\\.)*")(\s*:)?|(-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)|\b(true|false|null)\b/g;

/** Pretty-printed JSON, tokens in coloured spans, matches highlighted. */
export function jsonBlock(value: JsonValue, query: string): HTMLPreElement {
  const text = JSON.stringify(value, null, 2) ?? "null";
  const pre = el("pre", { class: "code json" });
  let from = 0;
  for (const match of text.matchAll(JSON_TOKEN)) {
    const at = match.index ?? 0;
    if (at > from) appendHighlighted(pre, text.slice(from, at), query);
    const [whole, string, colon, number, literal] = match;
    const kind =
      string !== undefined
        ? colon !== undefined
          ? "key"
          : "string"
        : number !== undefined
          ? "number"
          : literal !== undefined
            ? "literal"
            : "";
    const token = el("span", { class: `tok-${kind}` });
    appendHighlighted(token, string ?? whole, query);
    pre.appendChild(token);
    if (colon !== undefined) appendHighlighted(pre, colon, query);
    from = at + whole.length;
  }
  if (from < text.length) appendHighlighted(pre, text.slice(from), query);
  return pre;
}

/**
 * An identifier (a scenario name such as `send_message_with_contact_content_cellular_off`) as text
 * that may wrap after its `_`, `-`, `.` and `/` separators, so a narrow panel breaks it between
 * words rather than between letters. The <wbr> elements add no text: copying gives the name.
 */
export function appendIdentifier(parent: Node, name: string): void {
  let from = 0;
  for (const separators of name.matchAll(/[_\-./]+/g)) {
    const end = (separators.index ?? 0) + separators[0].length;
    if (end === name.length) break;
    append(parent, name.slice(from, end), el("wbr"));
    from = end;
  }
  append(parent, name.slice(from));
}

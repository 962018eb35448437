// Links in model and tool output. Only http and https links are ever offered, and only the host
// opens them (the panel never navigates): both sides call isAllowedLink, so a view that was
// tricked into asking for javascript:, file: or command: URIs is refused by the host as well.

const ALLOWED_PROTOCOLS = new Set(["http:", "https:"]);
const MAX_LINK_LENGTH = 2048;

export function isAllowedLink(text: string): boolean {
  if (text.length > MAX_LINK_LENGTH) return false;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return false;
  }
  // Credentials in a link ("https://bank.example@evil.example") only serve to mislead.
  return ALLOWED_PROTOCOLS.has(url.protocol) && url.username === "" && url.password === "";
}

type TextPart = { readonly kind: "text"; readonly text: string } | { readonly kind: "link"; readonly text: string };

// Stops at whitespace, quotes and brackets so a link inside a Python repr or JSON string ends
// where the string does; trailing punctuation is trimmed below.
const LINK_PATTERN = /\bhttps?:\/\/[^\s"'<>()[\]{}`]+/gi;

/** Splits text into plain parts and http(s) links that pass isAllowedLink. */
export function splitLinks(text: string): TextPart[] {
  const parts: TextPart[] = [];
  let last = 0;
  for (const match of text.matchAll(LINK_PATTERN)) {
    const start = match.index ?? 0;
    const link = match[0].replace(/[.,;:!?]+$/, "");
    if (!isAllowedLink(link)) continue;
    if (start > last) parts.push({ kind: "text", text: text.slice(last, start) });
    parts.push({ kind: "link", text: link });
    last = start + link.length;
  }
  if (last < text.length) parts.push({ kind: "text", text: text.slice(last) });
  return parts;
}

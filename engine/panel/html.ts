// The HTML page around the panel, for both of its homes: a VS Code webview (the script and the
// stylesheet linked by webview URIs) and an exported file (both inlined, the trajectory embedded).
// Either way the page carries a Content Security Policy that runs only scripts bearing this
// render's nonce, allows no inline script or style without it, and no network access at all.
// Runs in the extension host and the CLI (node), never in the panel itself.
import { EMBEDDED_DATA_ID, embeddedChunkId, ROOT_ELEMENT_ID } from "./protocol.js";

interface LinkedAssets {
  readonly kind: "linked";
  /** webview.asWebviewUri(...) of dist/webview.js and dist/webview.css, as strings. */
  readonly scriptUri: string;
  readonly styleUri: string;
  /** webview.cspSource: the origin the webview serves local resources from. */
  readonly cspSource: string;
}

interface InlineAssets {
  readonly kind: "inline";
  readonly script: string;
  readonly style: string;
}

interface PanelPage {
  readonly title: string;
  /** From createNonce(), fresh for every render. */
  readonly nonce: string;
  readonly assets: LinkedAssets | InlineAssets;
  /** Trajectory lines to embed for the static host; absent when the host will post them. */
  readonly lines?: readonly unknown[];
}

/** A nonce of 128 random bits from the platform's CSPRNG, base64url (no characters to escape anywhere). */
export function createNonce(): string {
  const bytes = new Uint8Array(16);
  globalThis.crypto.getRandomValues(bytes);
  let binary = "";
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

const NONCE_PATTERN = /^[A-Za-z0-9_-]{16,}$/;

export function contentSecurityPolicy(nonce: string, assets: LinkedAssets | InlineAssets): string {
  const styles = assets.kind === "linked" ? assets.cspSource : `'nonce-${nonce}'`;
  const images = assets.kind === "linked" ? `${assets.cspSource} data:` : "data:";
  return [
    "default-src 'none'",
    `script-src 'nonce-${nonce}'`,
    `style-src ${styles}`,
    `img-src ${images}`,
    "font-src 'none'",
    "connect-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
    // Chromium (and so VS Code) then refuses every string-to-HTML sink, innerHTML included.
    "require-trusted-types-for 'script'",
    "trusted-types 'none'",
  ].join("; ");
}

export function panelHtml(page: PanelPage): string {
  if (!NONCE_PATTERN.test(page.nonce)) throw new Error("the nonce must be at least 16 base64url characters (use createNonce)");
  const { assets, nonce } = page;
  const n = escapeAttribute(nonce);
  const style =
    assets.kind === "linked"
      ? `<link rel="stylesheet" href="${escapeAttribute(assets.styleUri)}">`
      : `<style nonce="${n}">${inlineText(assets.style, "style")}</style>`;
  const script =
    assets.kind === "linked"
      ? `<script nonce="${n}" src="${escapeAttribute(assets.scriptUri)}"></script>`
      : `<script nonce="${n}">${inlineText(assets.script, "script")}</script>`;
  const [first, rest] = page.lines === undefined ? ["", ""] : embeddedChunks(page.lines);
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${escapeAttribute(contentSecurityPolicy(nonce, assets))}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${escapeText(page.title)}</title>
${style}
</head>
<body>
<div id="${ROOT_ELEMENT_ID}"></div>
${first}${script}
${rest}</body>
</html>
`;
}

/** Lines per embedded chunk: small enough that the first one is read and drawn in a few milliseconds. */
const CHUNK_LINES = 1000;

/**
 * The embedded lines as JSON lists of up to CHUNK_LINES lines each: the first chunk (which goes
 * before the panel's script) and the rest (which go after it). The browser parses a long page in
 * slices, so the panel draws the first chunk while the parser is still reading the others (a page
 * of 100,000 messages is some 50 MB, more than half a second of parsing alone). The first element
 * says how many chunks and lines there are; a page of one chunk is written as before, without them.
 */
function embeddedChunks(lines: readonly unknown[]): [string, string] {
  const chunks: string[] = [];
  for (let start = 0; start === 0 || start < lines.length; start += CHUNK_LINES)
    chunks.push(embedJson(lines.slice(start, start + CHUNK_LINES)));
  const counts = chunks.length === 1 ? "" : ` data-chunks="${chunks.length}" data-lines="${lines.length}"`;
  const element = (id: string, json: string, extra = ""): string => `<script type="application/json" id="${id}"${extra}>${json}</script>\n`;
  return [
    element(EMBEDDED_DATA_ID, chunks[0]!, counts),
    chunks
      .slice(1)
      .map((json, i) => element(embeddedChunkId(i + 1), json))
      .join(""),
  ];
}

/**
 * JSON that can sit inside <script type="application/json">: "<", ">" and "&" become \u escapes so
 * no string in it can close the element or open a comment, and U+2028/U+2029 are escaped too (they
 * end lines in older JavaScript parsers). Each escape is still the same JSON string.
 */
export function embedJson(value: unknown): string {
  const text = JSON.stringify(value);
  if (text === undefined) throw new Error("the value cannot be written as JSON");
  return text.replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

function escapeText(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

/** For double-quoted attribute values (the only kind this file writes). */
function escapeAttribute(text: string): string {
  return escapeText(text).replace(/"/g, "&quot;");
}

/** Our own bundle inlined in a <script>/<style>: it must not contain the end tag (esbuild escapes it in strings). */
function inlineText(text: string, tag: "script" | "style"): string {
  if (new RegExp(`</${tag}`, "i").test(text) || /<!--/.test(text))
    throw new Error(`the ${tag} bundle contains </${tag} or <!--, so it cannot be inlined`);
  return text;
}

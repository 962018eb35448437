// The panel's HTML page (engine/panel/html.ts), the same for the extension's webview and
// `replay --html`: embedded JSON that no payload can break out of, fresh nonces, and a CSP that
// allows only the page's own nonce-bearing scripts and styles.
import { test } from "node:test";
import assert from "node:assert/strict";
import { contentSecurityPolicy, createNonce, embedJson, panelHtml } from "../../engine/panel/html.js";
import { PAYLOADS } from "../webview/trajectories.js";

const INLINE = { kind: "inline", script: "console.log(1)", style: "body{}" } as const;

test("embedded JSON cannot close its script element and still parses to the same value", () => {
  const value = { payloads: PAYLOADS, separators: "a\u2028b\u2029c" };
  const text = embedJson(value);
  assert.doesNotMatch(text, /[<>&\u2028\u2029]/);
  assert.deepEqual(JSON.parse(text), value);
});

test("nonces are 128-bit, base64url, and fresh on every call", () => {
  const nonces = new Set(Array.from({ length: 200 }, () => createNonce()));
  assert.equal(nonces.size, 200);
  for (const n of nonces) assert.match(n, /^[A-Za-z0-9_-]{22}$/);
});

test("the page's CSP allows only nonce-bearing scripts and styles, no inline or eval, no network", () => {
  const nonce = createNonce();
  const html = panelHtml({ title: "<t>", nonce, assets: INLINE, lines: [] });
  const csp = contentSecurityPolicy(nonce, INLINE);
  assert.ok(html.includes(`<meta http-equiv="Content-Security-Policy" content="${csp}">`));
  assert.match(csp, /^default-src 'none'; /);
  assert.match(csp, new RegExp(`script-src 'nonce-${nonce}'(;|$)`));
  assert.match(csp, new RegExp(`style-src 'nonce-${nonce}'(;|$)`));
  assert.match(csp, /connect-src 'none'/);
  assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval|\*/);
  // Every script and style element carries the nonce, except the JSON data block (never executed).
  const tags = html.match(/<(script|style)\b[^>]*>/g) ?? [];
  assert.deepEqual(
    tags.filter((t) => !t.includes(`nonce="${nonce}"`)),
    ['<script type="application/json" id="trajectory-data">'],
  );
  assert.match(html, /<title>&lt;t&gt;<\/title>/);

  // In a webview the bundle is linked from the webview's own origin, under the same nonce.
  const linked = {
    kind: "linked",
    scriptUri: "https://file+.vscode-resource.vscode-cdn.net/ext/dist/webview.js",
    styleUri: "https://file+.vscode-resource.vscode-cdn.net/ext/dist/webview.css",
    cspSource: "https://*.vscode-cdn.net",
  } as const;
  const page = panelHtml({ title: "t", nonce, assets: linked });
  assert.match(page, new RegExp(`<script nonce="${nonce}" src="${linked.scriptUri.replace(/[.+]/g, "\\$&")}"></script>`));
  assert.match(contentSecurityPolicy(nonce, linked), /style-src https:\/\/\*\.vscode-cdn\.net;/);
  assert.doesNotMatch(page, /trajectory-data/);
  assert.throws(() => panelHtml({ title: "t", nonce: "abc", assets: INLINE }), /nonce/);
  assert.throws(() => panelHtml({ title: "t", nonce, assets: { ...INLINE, script: "x='</script>'" } }), /cannot be inlined/);
});

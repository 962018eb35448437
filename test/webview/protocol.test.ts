// The panel's boundary without a browser: what the host may send and what the panel may ask for.
// The HTML page around it (CSP, nonce, embedded JSON): test/panel/html.test.ts.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync } from "node:fs";
import { isAllowedLink, splitLinks } from "../../client/webview/links.js";
import { parseHostMessage, parseViewRequest } from "../../client/webview/validate/host-messages.js";
import { readLines, SAMPLES, samplePath } from "./trajectories.js";

test("every line of every saved sample passes the panel's guards", () => {
  const files = readdirSync(SAMPLES).filter((f) => f.endsWith(".trajectory.jsonl"));
  assert.ok(files.length > 20);
  for (const file of files) {
    const lines = readLines(`${SAMPLES}/${file}`);
    const checked = parseHostMessage({ type: "lines", lines });
    assert.ok(checked.ok && checked.value.type === "lines", file);
    assert.deepEqual(checked.value.rejected, [], file);
    assert.equal(checked.value.lines.length, lines.length, file);
  }
});

test("a line with a wrong field is rejected with the path to it; the rest of a batch is kept", () => {
  const lines = readLines(samplePath("cellular_off_adapted"));
  const message = lines.find((l) => l.type === "message")!;
  const bad = { ...message, message: { ...(message.type === "message" ? message.message : {}), sender: "<img src=x>" } };
  const single = parseHostMessage(bad);
  assert.equal(single.ok, false);
  assert.match(!single.ok ? single.error : "", /^\/message\/sender must be one of: system, user, agent, execution_environment$/);

  const batch = parseHostMessage({ type: "lines", lines: [lines[0], bad, ...lines.slice(1)] });
  assert.ok(batch.ok && batch.value.type === "lines");
  assert.equal(batch.value.lines.length, lines.length);
  assert.deepEqual(batch.value.rejected, ["/lines/1/message/sender must be one of: system, user, agent, execution_environment"]);
});

test("the guards reject what a hostile host could send instead of data", () => {
  const cases: [unknown, RegExp][] = [
    [null, /must be an object/],
    ["<script>", /must be an object/],
    [{ type: "reveal", index: -1 }, /\/index must be a whole number/],
    [{ type: "reveal", index: 1.5 }, /\/index must be a whole number/],
    [{ type: "live", state: "hacked" }, /\/state must be one of: running, paused, finished/],
    [{ type: "eval", code: "alert(1)" }, /\/type is not a trajectory line type: "eval"/],
    [{ type: "world", index: 3, changes: [{ op: "drop", table: "CONTACT", position: 0 }] }, /\/changes\/0\/op must be one of/],
    [
      { type: "world", index: 3, changes: [{ op: "insert", table: "CONTACT", position: 0, row: { name: { html: "<b>" } } }] },
      /\/changes\/0\/row\/name must be a finite number/,
    ],
    [{ type: "header", format: "other", version: 1 }, /\/format must be "toolsandbox-trajectory"/],
  ];
  for (const [value, error] of cases) {
    const checked = parseHostMessage(value);
    assert.equal(checked.ok, false, JSON.stringify(value));
    assert.match(!checked.ok ? checked.error : "", error);
  }
  // JSON nested without end (a tool result crafted to exhaust the stack) is refused, not walked.
  let deep: unknown = "x";
  for (let i = 0; i < 200; i++) deep = [deep];
  const lines = readLines(samplePath("cellular_off_adapted"));
  const message = lines.find((l) => l.type === "message" && l.message.tool_trace !== null);
  assert.ok(message && message.type === "message");
  const nested = { ...message, message: { ...message.message, tool_trace: [{ tool_name: "t", arguments: {}, result: deep }] } };
  const checked = parseHostMessage(nested);
  assert.equal(checked.ok, false);
  assert.match(!checked.ok ? checked.error : "", /nested deeper than 64 levels/);
});

test("the host accepts only the panel's requests, and links only over http and https", () => {
  assert.deepEqual(parseViewRequest({ type: "open-link", url: "https://example.com/a?b=1" }), {
    ok: true,
    value: { type: "open-link", url: "https://example.com/a?b=1" },
  });
  assert.deepEqual(parseViewRequest({ type: "run-control", action: "step" }), { ok: true, value: { type: "run-control", action: "step" } });
  assert.deepEqual(parseViewRequest({ type: "reveal-node", kind: "minefield", id: "x" }), {
    ok: true,
    value: { type: "reveal-node", kind: "minefield", id: "x" },
  });
  for (const url of [
    "javascript:alert(1)",
    "file:///etc/passwd",
    "command:workbench.action.terminal.new",
    "vscode://x",
    "data:text/html,<script>",
    "https://user:pw@example.com/",
    "not a url",
  ]) {
    const checked = parseViewRequest({ type: "open-link", url });
    assert.equal(checked.ok, false, url);
  }
  assert.equal(parseViewRequest({ type: "run-control", action: "rm -rf" }).ok, false);
  assert.equal(parseViewRequest({ type: "execute", command: "x" }).ok, false);
});

test("links in text are found only for http(s), and end where the surrounding quote or bracket does", () => {
  assert.equal(isAllowedLink("http://example.com"), true);
  assert.equal(isAllowedLink("JAVASCRIPT:alert(1)"), false);
  assert.deepEqual(splitLinks(`see 'https://example.com/x?q=1', then javascript:alert(1) or (http://a.example/b).`), [
    { kind: "text", text: "see '" },
    { kind: "link", text: "https://example.com/x?q=1" },
    { kind: "text", text: "', then javascript:alert(1) or (" },
    { kind: "link", text: "http://a.example/b" },
    { kind: "text", text: ")." },
  ]);
});

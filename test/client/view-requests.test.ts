// The host acts only on requests the panel may make, in the shapes it may make them: a page
// showing hostile model output cannot open other links, run commands or send made-up controls.
import { test } from "node:test";
import assert from "node:assert/strict";
import { dispatchViewRequest, type ViewRequestHandlers } from "../../client/host/view-requests.js";

function recorder(): { calls: unknown[][]; handlers: ViewRequestHandlers } {
  const calls: unknown[][] = [];
  return {
    calls,
    handlers: {
      ready: () => calls.push(["ready"]),
      openLink: (url) => calls.push(["openLink", url]),
      revealNode: (kind, id) => calls.push(["revealNode", kind, id]),
      runControl: (action) => calls.push(["runControl", action]),
      selected: (index) => calls.push(["selected", index]),
      command: (command) => calls.push(["command", command]),
    },
  };
}

test("each valid request reaches its handler", () => {
  const { calls, handlers } = recorder();
  for (const request of [
    { type: "ready" },
    { type: "open-link", url: "https://example.com/docs?a=1" },
    { type: "reveal-node", kind: "minefield", id: "guessed_coordinates" },
    { type: "run-control", action: "step" },
    { type: "selected", index: 4 },
    { type: "command", command: "open" },
    { type: "run-control", action: "stop" },
  ]) {
    assert.equal(dispatchViewRequest(request, handlers), null);
  }
  assert.deepEqual(calls, [
    ["ready"],
    ["openLink", "https://example.com/docs?a=1"],
    ["revealNode", "minefield", "guessed_coordinates"],
    ["runControl", "step"],
    ["selected", 4],
    ["command", "open"],
    ["runControl", "stop"],
  ]);
});

test("links other than http/https, unknown requests and wrong shapes are refused with a reason", () => {
  const { calls, handlers } = recorder();
  const refused = [
    { type: "open-link", url: "javascript:alert(1)" },
    { type: "open-link", url: "command:workbench.action.terminal.new" },
    { type: "open-link", url: "file:///etc/passwd" },
    { type: "open-link", url: "https://user:pw@example.com/" },
    { type: "run-control", action: "rm -rf /" },
    { type: "reveal-node", kind: "tool", id: "x" },
    { type: "selected", index: -1 },
    { type: "execute", command: "x" },
    // The empty panel's buttons name one of two commands; no other command id passes.
    { type: "command", command: "workbench.action.terminal.new" },
    { type: "command" },
    // An inherited "type" is not the message's own: refused, not read as "ready".
    Object.create({ type: "ready" }) as unknown,
    "ready",
    null,
  ].map((r) => dispatchViewRequest(r, handlers));
  assert.deepEqual(calls, []);
  assert.ok(refused.every((r) => typeof r === "string" && r.length > 0));
});

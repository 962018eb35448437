// The protocol's error codes from the built server, over raw stdio: -32002 before `initialize`,
// -32700 for a body that is not JSON, -32602 for unusable params (rename without `newName`
// among them), -32800 for a cancelled request, and requests after `shutdown` refused.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { requireServerBuild, positionOf, SERVER } from "./client.js";
import { RawClient } from "./raw-client.js";

const TEXT = readFileSync("sample-scenarios/modify_contact_with_message_recency_adapted.scenario.yaml", "utf8");
const URI = "file:///tmp/toolsandbox-errors/contact.scenario.yaml";
const ID_AT = positionOf(TEXT, "  - id: ", 0, "  - id: ".length);

let client: RawClient;
before(() => {
  requireServerBuild();
  client = RawClient.start([SERVER, "--stdio"]);
});
after(() => client.kill());

const hover = (id: number, params: Record<string, unknown> = { textDocument: { uri: URI }, position: ID_AT }) =>
  RawClient.message({ id, method: "textDocument/hover", params });

test("a request before initialize is answered -32002, and the server then initializes", async () => {
  client.write(hover(1));
  assert.equal((await client.response(1)).error?.code, -32002);
  client.write(
    RawClient.message({ id: 2, method: "initialize", params: { processId: null, rootUri: null, capabilities: {} } }),
    RawClient.message({ method: "initialized", params: {} }),
    RawClient.message({
      method: "textDocument/didOpen",
      params: { textDocument: { uri: URI, languageId: "toolsandbox-scenario", version: 1, text: TEXT } },
    }),
  );
  assert.ok((await client.response(2)).result, "initialize answered");
  client.write(hover(3));
  const answered = await client.response(3);
  assert.equal(answered.error, undefined, JSON.stringify(answered));
});

test("a body that is not JSON is answered -32700, and the next message is read", async () => {
  client.write(RawClient.frame('{"jsonrpc": "2.0", "id": 4, "method": "textDocument/hover", "params": {'));
  const error = await client.response(null);
  assert.equal(error.error?.code, -32700, JSON.stringify(error));
  client.write(hover(5));
  assert.equal((await client.response(5)).error, undefined);
});

test("unusable params are answered -32602 with what is wrong, not JavaScript's error", async () => {
  client.write(
    hover(6, { textDocument: { uri: URI } }),
    hover(7, { textDocument: {}, position: ID_AT }),
    hover(8, { textDocument: { uri: URI }, position: { line: -1, character: "x" } }),
    RawClient.message({ id: 9, method: "textDocument/rename", params: { textDocument: { uri: URI }, position: ID_AT } }),
    RawClient.message({ id: 10, method: "textDocument/codeAction", params: { textDocument: { uri: URI }, range: {} } }),
  );
  for (const id of [6, 7, 8, 9, 10]) {
    const { error } = await client.response(id);
    assert.equal(error?.code, -32602, `request ${id}: ${JSON.stringify(error)}`);
    assert.doesNotMatch(error.message, /TypeError|Cannot read|undefined/, `request ${id}`);
  }
  assert.match((await client.response(9)).error!.message, /newName/);
});

test("a request cancelled before its answer is answered -32800", async () => {
  client.write(
    RawClient.message({ id: 11, method: "textDocument/completion", params: { textDocument: { uri: URI }, position: ID_AT } }),
    RawClient.message({ method: "$/cancelRequest", params: { id: 11 } }),
  );
  const answer = await client.response(11);
  assert.equal(answer.error?.code, -32800, JSON.stringify(answer));
});

test("after shutdown, requests are refused (-32600)", async () => {
  client.write(RawClient.message({ id: 12, method: "shutdown" }));
  assert.equal((await client.response(12)).error, undefined);
  client.write(hover(13));
  assert.equal((await client.response(13)).error?.code, -32600);
});

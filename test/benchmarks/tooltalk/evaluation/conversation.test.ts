// Reading ToolTalk-format conversation files (engine/benchmarks/tooltalk/evaluation/conversation.ts
// and conversation-files.ts): a minimal file reads; each problem is one line with the file, line,
// column and JSON path. How the 78 published files read: test/conformance/tooltalk/tooltalk/.
import { test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { loadConversationFile, loadConversationFolder } from "../../../../engine/benchmarks/tooltalk/evaluation/conversation-files.js";
import { parseConversation } from "../../../../engine/benchmarks/tooltalk/evaluation/conversation.js";
import { JsonInputError } from "../../../../engine/base/json-reader.js";

function errorOf(run: () => unknown): JsonInputError {
  try {
    run();
  } catch (error) {
    assert.ok(error instanceof JsonInputError, String(error));
    return error;
  }
  assert.fail("expected a JsonInputError");
}

const VALID = {
  name: "x",
  conversation_id: "1",
  suites_used: ["Alarm"],
  apis_used: ["AddAlarm"],
  user: { username: "u", email: "u@x.com", phone: "123-456-7890", name: "U", password: "p" },
  metadata: { location: "Here", timestamp: "2023-09-11 09:00:00" },
  conversation: [
    { index: 0, role: "user", text: "hi" },
    { index: 1, role: "assistant", text: "hello" },
  ],
};

test("a well-formed minimal conversation reads, with a null scenario", () => {
  const conversation = parseConversation(JSON.stringify(VALID), "mini.json");
  assert.equal(conversation.scenario, null);
  assert.deepEqual(conversation.turns[1], { role: "assistant", text: "hello", apis: [], position: 1, source_index: 1 });
});

test("a wrong value is reported with the file, line, column and JSON path", () => {
  const bad = structuredClone(VALID) as { conversation: Record<string, unknown>[] };
  bad.conversation[1] = { index: 1, role: "system", text: "hello" };
  const text = JSON.stringify(bad, null, 2);
  const error = errorOf(() => parseConversation(text, "bad.json"));
  const line = text.split("\n").findIndex((l) => l.includes('"system"')) + 1;
  assert.match(
    error.message,
    new RegExp(`^bad\\.json:${line}:\\d+: \\$\\.conversation\\[1\\]\\.role: expected "user" or "assistant", found "system"$`),
  );
  assert.equal(error.path, "$.conversation[1].role");
});

test("a missing key is reported at the object that lacks it; a wrong type names what was found", () => {
  const noTimestamp = structuredClone(VALID) as { metadata: Record<string, unknown> };
  delete noTimestamp.metadata["timestamp"];
  assert.match(
    errorOf(() => parseConversation(JSON.stringify(noTimestamp), "a.json")).message,
    /^a\.json:1:\d+: \$\.metadata\.timestamp: expected a string, found nothing$/,
  );

  const badCall = structuredClone(VALID) as { conversation: Record<string, unknown>[] };
  badCall.conversation[1] = {
    index: 1,
    role: "assistant",
    text: "ok",
    apis: [{ request: { api_name: 3, parameters: {} }, response: null, exception: null }],
  };
  assert.match(
    errorOf(() => parseConversation(JSON.stringify(badCall), "b.json")).message,
    /\$\.conversation\[1\]\.apis\[0\]\.request\.api_name: expected a string, found number 3$/,
  );

  const badTime = structuredClone(VALID) as { metadata: Record<string, unknown> };
  badTime.metadata["timestamp"] = "2023-09-11T09:00";
  assert.match(
    errorOf(() => parseConversation(JSON.stringify(badTime), "c.json")).message,
    /\$\.metadata\.timestamp: expected a time as YYYY-MM-DD HH:MM:SS/,
  );

  const onlyUser = structuredClone(VALID) as { conversation: unknown[] };
  onlyUser.conversation = [{ index: 0, role: "user", text: "hi" }];
  assert.match(
    errorOf(() => parseConversation(JSON.stringify(onlyUser), "d.json")).message,
    /\$\.conversation: the conversation has no assistant turn/,
  );
});

test("invalid JSON is reported as such, with a position", () => {
  const error = errorOf(() => parseConversation('{\n  "name": "x",\n  "conversation_id": }', "broken.json"));
  assert.match(error.message, /^broken\.json:3:\d+: invalid JSON: /);
});

test("a folder loads only its .json files, and a file loads on its own", () => {
  const folder = mkdtempSync(join(tmpdir(), "tooltalk-"));
  writeFileSync(join(folder, "b.json"), JSON.stringify({ ...VALID, name: "b" }));
  writeFileSync(join(folder, "a.json"), JSON.stringify({ ...VALID, name: "a" }));
  writeFileSync(join(folder, "notes.txt"), "not a conversation");
  assert.deepEqual(
    loadConversationFolder(folder).map((c) => c.name),
    ["a", "b"],
  );
  assert.equal(loadConversationFile(join(folder, "b.json")).file, join(folder, "b.json"));
});

import { test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import {
  conversationFileNames,
  loadConversationFile,
  loadConversationFolder,
} from "../../../../engine/benchmarks/tooltalk/evaluation/conversation-files.js";
import { parseConversation } from "../../../../engine/benchmarks/tooltalk/evaluation/conversation.js";
import { JsonInputError } from "../../../../engine/base/json-reader.js";
import { jsonSyntaxErrorOffset } from "../../../../engine/base/json-syntax.js";
import type { ToolTalkConversation } from "../../../../engine/benchmarks/tooltalk/evaluation/types.js";
import { toolTalkDataRoot } from "../published-data.js";

const DATA = toolTalkDataRoot();
const easy = loadConversationFolder(join(DATA, "easy"));
const hard = loadConversationFolder(join(DATA, "tooltalk"));
const all = [...easy, ...hard];

function byFile(name: string): ToolTalkConversation {
  const found = all.find((c) => c.file.endsWith(`/${name}`));
  assert.ok(found, name);
  return found;
}

function errorOf(run: () => unknown): JsonInputError {
  try {
    run();
  } catch (error) {
    assert.ok(error instanceof JsonInputError, String(error));
    return error;
  }
  assert.fail("expected a JsonInputError");
}

test("all 78 published conversations read: 28 easy and 50 hard, in sorted file order", () => {
  assert.equal(easy.length, 28);
  assert.equal(hard.length, 50);
  const names = hard.map((c) => c.file.split("/").pop() ?? "");
  assert.deepEqual(names, [...names].sort());
  assert.deepEqual(conversationFileNames(join(DATA, "easy")).slice(0, 2), ["AddAlarm-easy.json", "AddReminder-easy.json"]);
  // Statistics of peers.md A.2: 28 + 238 ground-truth calls, one of which raises.
  const calls = (c: ToolTalkConversation) => c.turns.flatMap((t) => (t.role === "assistant" ? t.apis : []));
  assert.equal(easy.flatMap(calls).length, 28);
  assert.equal(hard.flatMap(calls).length, 238);
  assert.deepEqual(
    all
      .flatMap(calls)
      .filter((c) => c.exception !== null)
      .map((c) => [c.request.api_name, c.exception]),
    [["UserLogin", "The password is incorrect."]],
  );
});

test("turns follow array order, not the index field (golden_conversation_1 numbers them 6, 8, 7, 8)", () => {
  const golden = byFile("golden_conversation_1.json");
  assert.deepEqual(golden.turns.map((t) => [t.position, t.source_index, t.role]).slice(6), [
    [6, 6, "user"],
    [7, 8, "assistant"],
    [8, 7, "user"],
    [9, 8, "assistant"],
  ]);
  assert.deepEqual(
    golden.normalisations.filter((n) => n.kind === "index-order").map((n) => n.path),
    ["$.conversation[7].index", "$.conversation[8].index", "$.conversation[9].index", "$.conversation[10].index"],
  );
});

test("turns without an index read with source_index null (Alarm-Messages-Reminder-GetReminder-2)", () => {
  const conversation = byFile("Alarm-Messages-Reminder-GetReminder-2.json");
  assert.ok(conversation.turns.every((t) => t.source_index === null));
  assert.deepEqual(
    conversation.turns.map((t) => t.position),
    [0, 1, 2, 3, 4, 5].slice(0, conversation.turns.length),
  );
  assert.equal(conversation.normalisations.filter((n) => n.kind === "missing-index").length, 6);
});

test("user turns after the last reply are set apart: 42 conversations end with one", () => {
  const ending = all.filter((c) => c.trailing_user_turns.length > 0);
  assert.equal(ending.length, 42);
  assert.ok(all.every((c) => c.turns.at(-1)?.role === "assistant"));
  const golden = byFile("golden_conversation_1.json");
  assert.equal(golden.trailing_user_turns[0]?.position, 10);
  assert.ok(golden.normalisations.some((n) => n.kind === "trailing-user-turns" && n.path === "$.conversation[10]"));
});

test("the AddReminder responses stored under alarm_id read as reminder_id", () => {
  const conversation = byFile("Alarm-Reminder-Weather-AddReminder-1.json");
  const responses = conversation.turns
    .flatMap((t) => (t.role === "assistant" ? t.apis : []))
    .filter((c) => c.request.api_name === "AddReminder");
  assert.deepEqual(
    responses.map((c) => c.response),
    [{ reminder_id: "5bff-dd80" }, { reminder_id: "5bff-dd80" }],
  );
  assert.equal(conversation.normalisations.filter((n) => n.kind === "response-key").length, 2);
  // Nowhere else does an AddReminder response carry anything but reminder_id.
  const others = all
    .flatMap((c) => c.turns.flatMap((t) => (t.role === "assistant" ? t.apis : [])))
    .filter((c) => c.request.api_name === "AddReminder");
  assert.ok(others.every((c) => typeof c.response === "object" && c.response !== null && Object.keys(c.response).join() === "reminder_id"));
});

test("golden files 1-3 have no scenario and read as null; the user block keeps its optional keys", () => {
  assert.deepEqual(
    all.filter((c) => c.scenario === null).map((c) => c.file.split("/").pop()),
    ["golden_conversation_1.json", "golden_conversation_2.json", "golden_conversation_3.json"],
  );
  assert.equal(all.filter((c) => c.user.session_token !== undefined).length, 64);
  assert.equal(all.filter((c) => c.user.verification_code !== undefined).length, 1);
  assert.equal(byFile("golden_conversation_1.json").metadata.username, undefined);
});

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

test("the syntax scanner places the first error and accepts every published file", () => {
  const cases: [string, number | null][] = [
    ['{"a": }', 6],
    ['{"a": 1,}', 8],
    ["[1, 2", 5],
    ['{"a": tru}', 6],
    ['{"a": "x\ny"}', 8],
    ["[01]", 2],
    ['{"a": [1, {"b": null}], "c": -1.5e3, "d": "\\u00e9"}', null],
    ["{} x", 3],
  ];
  for (const [text, offset] of cases) assert.equal(jsonSyntaxErrorOffset(text), offset, text);
  for (const c of all) assert.equal(jsonSyntaxErrorOffset(readFileSync(c.file, "utf8")), null, c.file);
});

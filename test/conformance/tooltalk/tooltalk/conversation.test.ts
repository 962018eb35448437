// ToolTalk's 78 published conversations as our reader reads them: counts, order, and the files'
// quirks. Reading and its errors on small files of our own: test/benchmarks/tooltalk/evaluation/conversation.test.ts.
import { test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { readFileSync } from "node:fs";
import { conversationFileNames, loadConversationFolder } from "../../../../engine/benchmarks/tooltalk/evaluation/conversation-files.js";
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

test("the syntax scanner accepts every published file", () => {
  for (const c of all) assert.equal(jsonSyntaxErrorOffset(readFileSync(c.file, "utf8")), null, c.file);
});

import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { requireBuild, lines, removeTempDirs, runCli, tempDir } from "./harness.js";

const SUITE = "test/fixtures/scenarios/suite";
let out = "";

after(removeTempDirs);
before(() => {
  requireBuild();
  out = tempDir("replay");
  const r = runCli(["run", SUITE, "--out", out]);
  assert.equal(r.status, 0, r.stderr);
});

test("replay prints each message with its route and the row diff after a world change", () => {
  const r = runCli(["replay", join(out, "text_with_cellular_off.trajectory.jsonl")]);
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.stderr, "");
  const text = r.stdout;
  assert.match(text, /^scenario +text_with_cellular_off$/m);
  assert.match(text, /^\[0\] system → agent {2}\(scripted\)$/m);
  assert.match(text, /^ {4}call set_cellular_service_status \{"on":true\} {2}\(id /m);
  // The first send fails while cellular is off: the exception is shown.
  assert.match(text, /^ {4}! ConnectionError: /m);
  // Turning cellular on is an update: changed column with old -> new.
  assert.match(text, /^ {6}~ SETTING device_id="[0-9a-f-]+": cellular false → true$/m);
  // Sending adds a row to MESSAGING, with the timestamp also in the scenario's local time.
  assert.match(
    text,
    /^ {6}\+ MESSAGING message_id="[^"]+": .*content="See you at rehearsal", creation_timestamp=\d+(\.\d+)? \(2026-03-01T12:00:00-05:00\)$/m,
  );
  assert.match(text, /^end +end_conversation after \d+ messages, 7 turns$/m);
});

test("replay shows removed rows and a modified row moved to the end", () => {
  const r = runCli(["replay", join(out, "reminder_and_contacts.trajectory.jsonl")]);
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /^ {6}- CONTACT person_id="a22e1984-6c6c-530c-8831-c3ea3b5138e7": name="John Petrucci", /m);
  assert.match(
    r.stdout,
    /^ {6}~ CONTACT person_id="9e137f06-916a-5310-8174-cf0b7e9f7054": relationship "friend" → "bandmate", moved from row \d to row \d$/m,
  );
  assert.match(
    r.stdout,
    /^ {6}\+ REMINDER reminder_id=.*content="Call the venue".*reminder_timestamp=\d+(\.\d+)? \(2026-07-05T17:00:00\+09:00\)/m,
  );
});

test("a truncated trajectory replays what it has and warns on stderr", () => {
  // A run killed while writing its end event: the evaluation line after it never got written.
  const saved = readFileSync(join(out, "text_with_cellular_off.trajectory.jsonl"), "utf8").trimEnd().split("\n");
  assert.match(saved.at(-1)!, /^\{"type":"evaluation"/);
  const text = `${saved.slice(0, -1).join("\n")}\n`;
  const file = join(tempDir("truncated"), "cut.trajectory.jsonl");
  writeFileSync(file, text.slice(0, text.length - 20));
  const r = runCli(["replay", file]);
  assert.equal(r.status, 0);
  const total = text.trimEnd().split("\n").length;
  assert.deepEqual(lines(r.stderr), [
    `toolsandbox: ${file}:${total}: warning: the last line is incomplete, so the run was cut short; read the ${total - 1} complete lines before it`,
  ]);
  assert.match(r.stdout, /^end +none: the run did not finish/m);
});

test("a corrupt line in the middle is exit 4 with the line number, one line", () => {
  const text = readFileSync(join(out, "text_with_cellular_off.trajectory.jsonl"), "utf8").split("\n");
  text[4] = text[4]!.slice(0, 30);
  const file = join(tempDir("corrupt"), "bad.trajectory.jsonl");
  writeFileSync(file, text.join("\n"));
  const r = runCli(["replay", file]);
  assert.equal(r.status, 4);
  assert.equal(r.stdout, "");
  const err = lines(r.stderr);
  assert.equal(err.length, 1);
  assert.match(err[0]!, new RegExp(`^toolsandbox: ${file.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}:5: invalid JSON`));
});

test("a missing trajectory is exit 3", () => {
  const r = runCli(["replay", "nowhere.trajectory.jsonl"]);
  assert.equal(r.status, 3);
  assert.deepEqual(lines(r.stderr), ["toolsandbox: nowhere.trajectory.jsonl: no such file or directory"]);
});

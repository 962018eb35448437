import { after, test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { TrajectoryError } from "../../engine/trajectory/errors.js";
import { parseTrajectory, readTrajectoryFile } from "../../engine/trajectory/reader.js";
import { checkLine } from "../../engine/trajectory/schema.js";
import { serializeLine, TrajectoryWriter, UnwritableValueError } from "../../engine/trajectory/writer.js";
import { syntheticHeader, syntheticRun } from "./synthetic.js";

const dir = mkdtempSync(join(tmpdir(), "toolsandbox-reader-"));
after(() => rmSync(dir, { recursive: true, force: true }));

function writeSynthetic(name: string): { path: string; run: ReturnType<typeof syntheticRun> } {
  const run = syntheticRun();
  const path = join(dir, `${name}.trajectory.jsonl`);
  const writer = TrajectoryWriter.create(path, syntheticHeader());
  for (const e of run.events) writer.write(e);
  writer.close();
  return { path, run };
}

/** The file's text with line `n` (1-based) replaced. */
function withLine(text: string, n: number, replacement: string): string {
  const lines = text.split("\n");
  lines[n - 1] = replacement;
  return lines.join("\n");
}

function expectError(text: string, line: number | null, pattern: RegExp): void {
  assert.throws(
    () => parseTrajectory(text, "t.trajectory.jsonl"),
    (e: unknown) => {
      assert.ok(e instanceof TrajectoryError, `expected a TrajectoryError, got ${String(e)}`);
      assert.equal(e.line, line);
      assert.match(e.reason, pattern);
      assert.ok(!e.message.includes("\n"), "the error is one line");
      return true;
    },
  );
}

test("a written file reads back as the same header, events and messages", () => {
  const { path, run } = writeSynthetic("round-trip");
  const t = readTrajectoryFile(path);
  assert.deepEqual(t.header, syntheticHeader());
  assert.deepEqual(t.events, run.events);
  assert.deepEqual(t.messages, run.messages);
  assert.equal(t.endReason, "end_conversation");
  assert.deepEqual(t.warnings, []);
});

test("every written line matches the trajectory schema", () => {
  const { path } = writeSynthetic("schema");
  const lines = readFileSync(path, "utf8").trimEnd().split("\n");
  assert.equal(lines.length, 1 + syntheticRun().events.length);
  for (const [i, line] of lines.entries()) {
    const result = checkLine(JSON.parse(line));
    assert.ok(result.ok, `line ${i + 1}: ${result.ok ? "" : result.error}`);
  }
});

test("the world rebuilt from the file equals the episode's world at every message index", () => {
  const { path, run } = writeSynthetic("world");
  const t = readTrajectoryFile(path);
  for (let i = 0; i <= run.messages.length; i++) {
    assert.deepEqual(t.worldAt(i), run.world.at(i), `world at message ${i}`);
  }
  // The changed rows really are there (not two equally empty worlds).
  assert.equal(t.worldAt(3).SETTING![0]!.cellular, false);
  assert.equal(t.worldAt(4).SETTING![0]!.cellular, true);
  assert.equal(t.worldAt(6).CONTACT!.at(-1)!.name, "Homer S");
  assert.deepEqual([t.worldAt(7).CONTACT!.at(-1)!.name, t.worldAt(7).CONTACT!.at(-1)!.relationship], ["Fredrik Thordendal", "bandmate"]);
  assert.equal(t.worldAt(7).MESSAGING!.at(-1)!.message_id, "m-new");
});

test("a last line cut short is dropped with a warning and the rest is kept", () => {
  const { path, run } = writeSynthetic("truncated");
  const text = readFileSync(path, "utf8");
  const cut = text.slice(0, text.length - 15); // inside the end event, no trailing newline
  const t = parseTrajectory(cut, "t.trajectory.jsonl");
  assert.equal(t.events.length, run.events.length - 1);
  assert.equal(t.end, null);
  // One warning: the cut-short line already says the run did not finish.
  assert.equal(t.warnings.length, 1);
  assert.match(t.warnings[0]!.message, /last line is incomplete, so the run was cut short/);
  assert.equal(t.warnings[0]!.line, run.events.length + 1);
});

test("a file without its end event (a killed run) reads with a warning", () => {
  const { path, run } = writeSynthetic("killed");
  const lines = readFileSync(path, "utf8").split("\n");
  const text = `${lines.slice(0, 6).join("\n")}\n`;
  const t = parseTrajectory(text, "t.trajectory.jsonl");
  assert.equal(t.messages.length, 4);
  assert.deepEqual(t.messages, run.messages.slice(0, 4));
  assert.deepEqual(t.warnings, [{ line: null, message: "the run did not finish (there is no end event)" }]);
});

test("invalid JSON in the middle is an error naming its line", () => {
  const { path } = writeSynthetic("corrupt");
  const text = readFileSync(path, "utf8");
  expectError(withLine(text, 4, '{"type": "message", "mess'), 4, /^invalid JSON/);
  expectError(withLine(text, 3, ""), 3, /^empty line$/);
});

test("a line that breaks the schema is an error naming the field", () => {
  const { path } = writeSynthetic("schema-error");
  const text = readFileSync(path, "utf8");
  const line3 = JSON.parse(text.split("\n")[2]!) as { message: Record<string, unknown> };
  line3.message.sender = "robot";
  expectError(withLine(text, 3, JSON.stringify(line3)), 3, /\/message\/sender must be one of: system, user, agent, execution_environment/);
  expectError(withLine(text, 5, '{"type":"score","value":1}'), 5, /unknown "type": "score"/);
  // A schema error on the last line is corruption, not truncation.
  const last = text.trimEnd().split("\n").length;
  expectError(withLine(text.trimEnd(), last, '{"type":"end","reason":"timeout","message_count":12}'), last, /\/reason must be one of/);
});

test("events that do not fit together are errors naming their line", () => {
  const { path } = writeSynthetic("order");
  const text = readFileSync(path, "utf8");
  const lines = text.split("\n");
  // Two messages swapped: indices out of order.
  expectError(withLine(withLine(text, 3, lines[3]!), 4, lines[2]!), 3, /message index 2 is out of order \(expected 1\)/);
  // A world change whose old values do not match the world it applies to.
  const world = JSON.parse(lines[5]!) as { changes: { old: Record<string, unknown> }[] };
  world.changes[0]!.old.wifi = false;
  expectError(withLine(text, 6, JSON.stringify(world)), 6, /old values differ/);
  // The end event must count the messages there are.
  const end = lines.length - 1;
  expectError(
    withLine(text, end, '{"type":"end","reason":"end_conversation","message_count":3}'),
    end,
    /counts 3 messages but the file has 12/,
  );
});

test("the header must be a version 1 ToolSandbox trajectory", () => {
  const { path } = writeSynthetic("header");
  const text = readFileSync(path, "utf8");
  const header = JSON.parse(text.split("\n")[0]!) as Record<string, unknown>;
  expectError(withLine(text, 1, JSON.stringify({ ...header, version: 2 })), 1, /version 2 is not supported \(this build reads version 1\)/);
  expectError(withLine(text, 1, JSON.stringify({ ...header, format: "other" })), 1, /not a ToolSandbox trajectory/);
  expectError(withLine(text, 1, JSON.stringify({ ...header, run: { agent: "scripted" } })), 1, /^header: \/run is missing "user"/);
  expectError("", null, /empty/);
  expectError('{"type":"message"}\n', 1, /not a trajectory header/);
});

test("lines are byte-deterministic and refuse numbers JSON cannot hold", () => {
  const header = syntheticHeader();
  assert.equal(serializeLine(header), serializeLine(structuredClone(header)));
  assert.throws(() => serializeLine({ type: "end", reason: "max_messages", message_count: Number.NaN }), /cannot write NaN/);
  // Deep in a value, beside ordinary nulls, and named by the property that holds it.
  const deep = { type: "end", reason: "max_messages", detail: null, extra: { rows: [null, { x: Number.NEGATIVE_INFINITY }] } };
  assert.throws(
    () => serializeLine(deep as unknown as Parameters<typeof serializeLine>[0]),
    (e: unknown) => e instanceof UnwritableValueError && e.value === "-Infinity" && e.property === "x",
  );
  // A line with nulls and no such number is written as JSON.stringify writes it.
  const plain = { type: "end", reason: "max_messages", detail: null, message_count: 3 } as const;
  assert.equal(serializeLine(plain as unknown as Parameters<typeof serializeLine>[0]), `${JSON.stringify(plain)}\n`);
});

test("the file is complete after every write (nothing is buffered in the process)", () => {
  const run = syntheticRun();
  const path = join(dir, "flush.trajectory.jsonl");
  const writer = TrajectoryWriter.create(path, syntheticHeader());
  writer.write(run.events[0]!);
  writer.write(run.events[1]!);
  // Read while the writer is still open, as a crash would leave it.
  const t = readTrajectoryFile(path);
  assert.equal(t.messages.length, 2);
  writer.close();
  // Creating it again replaces the old run instead of appending to it.
  TrajectoryWriter.create(path, syntheticHeader()).close();
  assert.equal(readFileSync(path, "utf8"), serializeLine(syntheticHeader()));
});

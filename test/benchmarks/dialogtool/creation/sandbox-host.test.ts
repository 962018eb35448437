// The host's side of the sandbox on its own, against stand-in children that behave as model code
// would make the real one behave if it got hold of the child's JavaScript: lines out of order,
// answers to calls not asked, a child that does not exit. No Pyodide is loaded: each stand-in is a
// small script started with the sandbox's own command line, writing to the protocol's descriptor.
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import {
  defaultSandboxPaths,
  MAX_LINE_BYTES,
  runInSandbox,
  type SandboxRun,
} from "../../../../engine/benchmarks/dialogtool/creation/sandbox.js";
import { checkOutcome, oneLine, readChildMessage } from "../../../../engine/benchmarks/dialogtool/creation/sandbox-protocol.js";

const dir = mkdtempSync(join(tmpdir(), "toolsandbox-host-"));
after(() => rmSync(dir, { recursive: true, force: true }));

const CALLS = [
  { id: "a", arguments: {}, world: {} },
  { id: "b", arguments: {}, world: {} },
];
const LIMITS = { loadSeconds: 10, callSeconds: 2, wasmMemoryMb: 512, jsHeapMb: 256, memoryMb: 1024 };
const RESULT = (id: string): string => JSON.stringify({ type: "call", id, outcome: { kind: "returned", result: 1, world: {} } });

/** A stand-in child: says ready, waits for the job, then writes `lines` to descriptor 3 and runs `then`. */
function standIn(name: string, lines: readonly string[], then = "process.exit(0);"): Promise<SandboxRun> {
  const script = join(dir, `${name}.cjs`);
  writeFileSync(
    script,
    `const fs = require("fs");
const say = (line) => fs.writeSync(3, line + "\\n");
say(JSON.stringify({ type: "ready" }));
process.stdin.once("data", () => {
  for (const line of ${JSON.stringify(lines)}) say(line);
  ${then}
});
`,
  );
  return runInSandbox("def f(world):\n    return 1\n", "f", CALLS, { ...defaultSandboxPaths(), childScript: script }, LIMITS);
}

describe("the sandbox's host", () => {
  it("accepts the one order the job allows: defined, a result per call in turn, done", async () => {
    const run = await standIn("in-order", ['{"type":"defined"}', RESULT("a"), RESULT("b"), '{"type":"done"}']);
    assert.equal(run.stopped, null);
    assert.deepEqual([...run.calls.keys()], ["a", "b"]);
    assert.equal(run.calls.get("b")?.kind, "returned");
  });

  it("kills a child that answers a call it was not asked: a protocol violation, and no answer of it counts past it", async () => {
    const run = await standIn("unasked", ['{"type":"defined"}', RESULT("b"), RESULT("a")], "setInterval(() => {}, 1000);");
    assert.equal(run.stopped, 'killed: protocol violation (expected the result of "a", got the result of "b")');
    assert.deepEqual(run.calls.get("a"), { kind: "not_run", reason: run.stopped });
    assert.deepEqual(run.calls.get("b"), { kind: "not_run", reason: `not run: ${run.stopped}` });
  });

  it("kills a child that sends a second definition, a second result, an early done, junk or a line over 1 MiB", async () => {
    const twice = await standIn("defined-twice", ['{"type":"defined"}', '{"type":"defined"}'], "setInterval(() => {}, 1000);");
    assert.equal(twice.stopped, 'killed: protocol violation (expected the result of "a", got "defined")');
    const again = await standIn("result-twice", ['{"type":"defined"}', RESULT("a"), RESULT("a")], "setInterval(() => {}, 1000);");
    assert.equal(again.stopped, 'killed: protocol violation (expected the result of "b", got the result of "a")');
    assert.equal(again.calls.get("a")?.kind, "returned", "the answer before the violation stands");
    const early = await standIn("early-done", ['{"type":"defined"}', '{"type":"done"}'], "setInterval(() => {}, 1000);");
    assert.equal(early.stopped, 'killed: protocol violation (expected the result of "a", got "done")');
    const junk = await standIn("junk", ['{"type":"defined"}', "hello"], "setInterval(() => {}, 1000);");
    assert.equal(junk.stopped, 'killed: protocol violation (expected the result of "a", got a line that is not a protocol message)');
    const long = await standIn("long-line", ['{"type":"defined"}', "x".repeat(1_200_000)], "setInterval(() => {}, 1000);");
    assert.equal(long.stopped, "killed: protocol violation (a line over 1 MiB)");
  });

  it("reads a line of exactly 1 MiB and kills at one byte more, counted in bytes", async () => {
    // A result whose string fills the line to `bytes` (newline not counted); "é" is two bytes in UTF-8.
    const resultOf = (bytes: number, fill: string): string => {
      const empty = RESULT("a").replace('"result":1', '"result":""');
      const room = bytes - Buffer.byteLength(empty);
      const unit = Buffer.byteLength(fill);
      const line = empty.replace('"result":""', `"result":"${fill.repeat(Math.floor(room / unit))}${"x".repeat(room % unit)}"`);
      assert.equal(Buffer.byteLength(line), bytes);
      return line;
    };
    const exact = await standIn("line-exact", ['{"type":"defined"}', resultOf(MAX_LINE_BYTES, "x"), RESULT("b"), '{"type":"done"}']);
    assert.equal(exact.stopped, null);
    assert.equal(exact.calls.get("a")?.kind, "returned");
    const over = await standIn("line-over", ['{"type":"defined"}', resultOf(MAX_LINE_BYTES + 1, "x")], "setInterval(() => {}, 1000);");
    assert.equal(over.stopped, "killed: protocol violation (a line over 1 MiB)");
    const wide = await standIn("line-over-utf8", ['{"type":"defined"}', resultOf(MAX_LINE_BYTES + 1, "é")], "setInterval(() => {}, 1000);");
    assert.equal(wide.stopped, "killed: protocol violation (a line over 1 MiB)", "two-byte characters count as two");
  });

  it("kills a child that does not exit within a second of done, and counts none of its answers", async () => {
    const started = performance.now();
    const run = await standIn(
      "lingers",
      ['{"type":"defined"}', RESULT("a"), RESULT("b"), '{"type":"done"}'],
      "setInterval(() => {}, 1000);",
    );
    const seconds = (performance.now() - started) / 1000;
    assert.equal(run.stopped, "killed: the sandbox did not exit within 1 s of its last message");
    assert.ok(seconds < 1 + 2 + 1, `ended ${seconds.toFixed(1)} s after it started`);
    assert.deepEqual(
      [...run.calls.values()].map((r) => r.kind),
      ["not_run", "not_run"],
    );
  });

  it("kills a child that sends its messages and then nothing, at the step's limit", async () => {
    const run = await standIn("silent", ['{"type":"defined"}', RESULT("a")], "setInterval(() => {}, 1000);");
    assert.equal(run.stopped, "killed: a call took longer than 2 s");
    assert.deepEqual(run.calls.get("b"), { kind: "not_run", reason: "killed: a call took longer than 2 s" });
  });
});

describe("the checks of what the child sends", () => {
  it("refuses numbers JavaScript cannot hold exactly, and exception names that are not Python identifiers", () => {
    const returned = (text: string) =>
      readChildMessage(`{"type":"call","id":"x","outcome":{"kind":"returned","result":${text},"world":{}}}`);
    assert.deepEqual(returned(`1${"0".repeat(400)}`), {
      type: "call",
      id: "x",
      outcome: { kind: "rejected", reason: "the result holds a number that is not finite" },
    });
    assert.equal(returned("[9007199254740991, -9007199254740991]")?.type, "call");
    assert.deepEqual(returned("9007199254740991"), {
      type: "call",
      id: "x",
      outcome: { kind: "returned", result: 9007199254740991, world: {} },
    });
    assert.deepEqual(checkOutcome({ kind: "returned", result: 1, world: { n: -1e300 } }), {
      kind: "rejected",
      reason: "the world after the call holds a number past the exactly representable range (2^53 - 1): -1e+300",
    });
    const raised = (exception: string) => checkOutcome({ kind: "raised", exception, message: "m\nsecond" });
    assert.deepEqual(raised("NoDataError"), { kind: "raised", exception: "NoDataError", message: "m second" });
    assert.equal(raised("Ошибка")?.kind, "raised", "Python identifiers may be any letters");
    for (const bad of ["Value\nError", "", "1Error", "a.b", "E".repeat(101)]) assert.equal(raised(bad)?.kind, "rejected", bad);
    assert.equal(oneLine("a\r\nb\u2028c\u0085d"), "a b c d");
    assert.equal(
      oneLine("exe.\u202Etxt \u2066x\u2069 \u200F\u061C\u202A"),
      "exe.\\u202Etxt \\u2066x\\u2069 \\u200F\\u061C\\u202A",
      "bidirectional controls show as escapes",
    );
    const load = readChildMessage(JSON.stringify({ type: "load_failed", reason: "ValueError: \u202Efdp.exe" }));
    assert.deepEqual(load, { type: "load_failed", reason: "ValueError: \\u202Efdp.exe" });
  });
});

// datetime.strptime for ToolTalk's formats, pinned by CPython 3.11.7's own answers: each case was
// produced with
//   python3 -c "from datetime import datetime; print(datetime.strptime(TEXT, FORMAT).isoformat())"
// or, when it raised, type(e).__name__ and str(e).
import { test } from "node:test";
import assert from "node:assert/strict";
import { strptime } from "../../../engine/packs/tooltalk/tools/strptime.js";
import { naiveFields } from "../../../engine/tools/python-datetime.js";
import { ToolError } from "../../../engine/tools/types.js";

const CASES: readonly (readonly [string, string, string, string])[] = [
  ["25:00:00", "%H:%M:%S", "ValueError", "time data '25:00:00' does not match format '%H:%M:%S'"],
  ["12:00:00 pm", "%H:%M:%S", "ValueError", "unconverted data remains:  pm"],
  ["7:5:3", "%H:%M:%S", "ok", "1900-01-01T07:05:03"],
  ["07:05:60", "%H:%M:%S", "ValueError", "second must be in 0..59"],
  ["", "%H:%M:%S", "ValueError", "time data '' does not match format '%H:%M:%S'"],
  ["12:00", "%H:%M:%S", "ValueError", "time data '12:00' does not match format '%H:%M:%S'"],
  ["2023-02-30 10:00:00", "%Y-%m-%d %H:%M:%S", "ValueError", "day is out of range for month"],
  ["2023-02-28 10:00:61", "%Y-%m-%d %H:%M:%S", "ValueError", "second must be in 0..59"],
  ["2023-2-8   1:0:6", "%Y-%m-%d %H:%M:%S", "ok", "2023-02-08T01:00:06"],
  ["2023-02-28\t10:00:00", "%Y-%m-%d %H:%M:%S", "ok", "2023-02-28T10:00:00"],
  ["0000-02-28 10:00:00", "%Y-%m-%d %H:%M:%S", "ValueError", "year 0 is out of range"],
  ["2024-02-29 23:59:59", "%Y-%m-%d %H:%M:%S", "ok", "2024-02-29T23:59:59"],
  ["2023-02- 8 10:00:00", "%Y-%m-%d %H:%M:%S", "ok", "2023-02-08T10:00:00"],
  ["2023-09-11T10:00:00", "%Y-%m-%d %H:%M:%S", "ValueError", "time data '2023-09-11T10:00:00' does not match format '%Y-%m-%d %H:%M:%S'"],
  ["2023-09-11 10:00:00.5", "%Y-%m-%d %H:%M:%S", "ValueError", "unconverted data remains: .5"],
  ["٢٠٢٣-09-11 10:00:00", "%Y-%m-%d %H:%M:%S", "ok", "2023-09-11T10:00:00"],
  ["2023-13-01 10:00:00", "%Y-%m-%d %H:%M:%S", "ValueError", "time data '2023-13-01 10:00:00' does not match format '%Y-%m-%d %H:%M:%S'"],
  ["2023-09-11", "%Y-%m-%d", "ok", "2023-09-11T00:00:00"],
  ["2023-9-1x", "%Y-%m-%d", "ValueError", "unconverted data remains: x"],
  ["12:00:00\n", "%H:%M:%S", "ValueError", "unconverted data remains: \n"],
  ["24:00:00", "%H:%M:%S", "ValueError", "time data '24:00:00' does not match format '%H:%M:%S'"],
  ["2023-09-11 10:00:00", "%Y-%m-%d", "ValueError", "unconverted data remains:  10:00:00"],
  ["2023-10-31 9:30:00", "%Y-%m-%d %H:%M:%S", "ok", "2023-10-31T09:30:00"],
];

function outcome(text: string, format: string): [string, string] {
  try {
    const f = naiveFields(strptime(text, format));
    const two = (n: number) => String(n).padStart(2, "0");
    return ["ok", `${String(f.year).padStart(4, "0")}-${two(f.month)}-${two(f.day)}T${two(f.hour)}:${two(f.minute)}:${two(f.second)}`];
  } catch (e) {
    assert.ok(e instanceof ToolError);
    return [e.pyType, e.message];
  }
}

test("strptime accepts and refuses what CPython does, with its error texts", () => {
  for (const [text, format, kind, expected] of CASES) assert.deepEqual(outcome(text, format), [kind, expected], JSON.stringify(text));
});

test("strptime refuses a value that is not a string: None by name, anything else by its type", () => {
  // datetime.strptime(None, "%H:%M:%S") and datetime.strptime(5, "%H:%M:%S")
  assert.deepEqual(outcome(null as unknown as string, "%H:%M:%S"), ["TypeError", "strptime() argument 1 must be str, not None"]);
  assert.deepEqual(outcome(5 as unknown as string, "%H:%M:%S"), ["TypeError", "strptime() argument 1 must be str, not int"]);
});

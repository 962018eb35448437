import { test } from "node:test";
import assert from "node:assert/strict";
import { pyFloatRepr, pyRepr, pyStrRepr } from "../../engine/python/repr.js";

test("floats print with Python's shortest digits and switch to exponent form outside [1e-4, 1e16)", () => {
  const cases: [number, string][] = [
    [1700000000, "1700000000.0"],
    [0.1, "0.1"],
    [0.1 + 0.2, "0.30000000000000004"],
    [1718000000.123456, "1718000000.123456"],
    [1e16, "1e+16"],
    [1.5e16, "1.5e+16"],
    [1e15, "1000000000000000.0"],
    [9999999999999998, "9999999999999998.0"],
    [1e-5, "1e-05"],
    [1.25e-7, "1.25e-07"],
    [0.0001, "0.0001"],
    [0.00012, "0.00012"],
    [123.456, "123.456"],
    [-122.009102, "-122.009102"],
    [1e300, "1e+300"],
    [5e-324, "5e-324"],
    [1.7976931348623157e308, "1.7976931348623157e+308"],
    [0, "0.0"],
    [-0, "-0.0"],
    [Infinity, "inf"],
    [-Infinity, "-inf"],
    [NaN, "nan"],
  ];
  for (const [x, expected] of cases) assert.equal(pyFloatRepr(x), expected, `repr(${x})`);
});

test("strings use single quotes unless the text has a single quote and no double quote", () => {
  assert.equal(pyStrRepr("Homer S"), "'Homer S'");
  assert.equal(pyStrRepr("How's it going"), `"How's it going"`);
  assert.equal(pyStrRepr(`say "hi"`), `'say "hi"'`);
  assert.equal(pyStrRepr(`it's "quoted"`), `'it\\'s "quoted"'`);
  assert.equal(pyStrRepr(""), "''");
});

test("strings escape backslashes, control characters and non-printable code points like Python", () => {
  assert.equal(pyStrRepr("a\\b"), "'a\\\\b'");
  assert.equal(pyStrRepr("line1\nline2\ttab\rcr"), "'line1\\nline2\\ttab\\rcr'");
  assert.equal(pyStrRepr("\x00\x1b\x7f"), "'\\x00\\x1b\\x7f'");
  assert.equal(pyStrRepr("caf\u00e9 \u4e2d\u6587 \u{1F600}"), "'caf\u00e9 \u4e2d\u6587 \u{1F600}'");
  assert.equal(pyStrRepr("nb\u00a0sp"), "'nb\\xa0sp'");
  assert.equal(pyStrRepr("zero\u200bwidth"), "'zero\\u200bwidth'");
  assert.equal(pyStrRepr("line\u2028sep"), "'line\\u2028sep'");
  assert.equal(pyStrRepr("\u{E0001}"), "'\\U000e0001'");
  assert.equal(pyStrRepr("lone \ud800"), "'lone \\ud800'");
});

test("scalars and containers print as Python literals", () => {
  assert.equal(pyRepr(null), "None");
  assert.equal(pyRepr(true), "True");
  assert.equal(pyRepr(false), "False");
  assert.equal(pyRepr(42), "42");
  assert.equal(pyRepr(-7), "-7");
  assert.equal(pyRepr(2.5), "2.5");
  assert.equal(pyRepr(1e21), "1000000000000000000000");
  assert.equal(pyRepr([]), "[]");
  assert.equal(pyRepr({}), "{}");
  assert.equal(pyRepr([1, "x", null, [true]]), "[1, 'x', None, [True]]");
  assert.equal(pyRepr({ a: 1, b: "x" }), "{'a': 1, 'b': 'x'}");
  assert.equal(pyRepr({ z: 1, a: 2 }), "{'z': 1, 'a': 2}", "insertion order, not sorted");
  assert.equal(pyRepr({ "it's": "v" }), `{"it's": 'v'}`);
});

test("a schema decides whether an integral number is a float or an int", () => {
  assert.equal(pyRepr(1700000000, { type: "number" }), "1700000000.0");
  assert.equal(pyRepr(1700000000, { type: "integer" }), "1700000000");
  assert.equal(pyRepr(1700000000.5, { type: "integer" }), "1700000000.5", "a fraction can only be a float");
  assert.equal(pyRepr(3, { type: ["number", "null"] }), "3.0");
  assert.equal(pyRepr(null, { type: ["number", "null"] }), "None");
  assert.equal(pyRepr(1e16, { type: "number" }), "1e+16");
  assert.equal(pyRepr(1e16, { type: "integer" }), "10000000000000000");
});

test("schemas reach nested values through properties, items, additionalProperties and anyOf", () => {
  const location = { type: "object", properties: { latitude: { type: "number" }, longitude: { type: "number" } } };
  assert.equal(pyRepr({ latitude: 37, longitude: -122 }, location), "{'latitude': 37.0, 'longitude': -122.0}");
  const rows = {
    type: "array",
    items: { type: "object", properties: { n: { type: "integer" }, t: { type: "number" } } },
  };
  assert.equal(
    pyRepr(
      [
        { n: 1, t: 2 },
        { n: 3, t: 4.5 },
      ],
      rows,
    ),
    "[{'n': 1, 't': 2.0}, {'n': 3, 't': 4.5}]",
  );
  assert.equal(pyRepr({ a: 1, b: 2 }, { type: "object", additionalProperties: { type: "number" } }), "{'a': 1.0, 'b': 2.0}");
  const optionalFloat = { anyOf: [{ type: "null" }, { type: "number" }] };
  assert.equal(pyRepr(5, optionalFloat), "5.0");
  assert.equal(pyRepr(null, optionalFloat), "None");
  const stringOrInt = { anyOf: [{ type: "string" }, { type: "integer" }] };
  assert.equal(pyRepr(5, stringOrInt), "5");
  assert.equal(pyRepr("5", stringOrInt), "'5'");
  // A property the schema does not describe falls back to the value's own form.
  assert.equal(pyRepr({ x: 2, y: 2.5 }, { type: "object", properties: {} }), "{'x': 2, 'y': 2.5}");
});

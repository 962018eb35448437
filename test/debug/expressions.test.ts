// The debugger's expression language (conditions, Watch, the console): what each form means,
// and that nothing in it runs as code.
import { strict as assert } from "node:assert";
import { test } from "node:test";
import { ExpressionError, type ExprValue, formatValue, parseExpression } from "../../engine/debug/expressions.js";
import { parseArguments } from "../../engine/tools/call-line.js";

const scope: Record<string, ExprValue> = {
  SETTING: [{ cellular: false, wifi: true }],
  CONTACT: [
    { name: "Fredrik Thordendal", age: 52 },
    { name: "Homer S", age: 39 },
  ],
  message: { sender: "agent", recipient: "user", content: "hi", tool_call: { name: "search_contacts", arguments: { name: "Fredrik" } } },
  index: 12,
};
const resolve = (name: string): ExprValue | undefined => scope[name];
const value = (text: string): string => formatValue(parseExpression(text).evaluate(resolve));
const holds = (text: string): boolean => parseExpression(text).holds(resolve);

test("table.column reads the column of every row: one row prints as its value, comparisons hold for any row", () => {
  assert.equal(value("SETTING.cellular"), "false");
  assert.equal(holds("SETTING.cellular == false"), true);
  assert.equal(value("CONTACT.name"), '["Fredrik Thordendal", "Homer S"]');
  assert.equal(holds('CONTACT.name == "Homer S"'), true);
  assert.equal(holds('CONTACT.name != "Homer S"'), false, "!= is the negation of ==: no row has the value");
  assert.equal(holds("CONTACT.age > 50"), true);
  assert.equal(holds("CONTACT.age > 60"), false);
  assert.equal(value("CONTACT[1].name"), '"Homer S"');
  assert.equal(value("CONTACT.length"), "2");
});

test("message fields, &&, ||, ! and parentheses", () => {
  assert.equal(holds('message.sender == "agent" && message.recipient == "user"'), true);
  assert.equal(holds('message.sender == "user" || index >= 12'), true);
  assert.equal(holds('!(message.sender == "agent")'), false);
  assert.equal(value("message.tool_call.arguments.name"), '"Fredrik"');
  assert.equal(holds("index < 12.5 && index > -1"), true);
  assert.equal(holds("'single' == \"single\""), true);
  assert.equal(holds("None == null && True == true"), true, "Python's spellings are accepted");
});

test("mistakes are one-line errors naming the column or the name", () => {
  assert.throws(() => parseExpression("SETTING.cellular =="), /ends where a value should follow/);
  assert.throws(
    () => parseExpression("a = 1"),
    (e: Error) => e instanceof ExpressionError && /column 3/.test(e.message),
  );
  assert.throws(() => parseExpression('"open'), /not closed/);
  assert.throws(() => value("NOPE.x"), /unknown name "NOPE"/);
  assert.throws(() => value("SETTING.nonsense"), /no column "nonsense"/);
  assert.throws(() => value("message.nope"), /has no field "nope" \(it has: sender/);
});

test("nothing is run as code: calls, assignments and property tricks do not parse", () => {
  for (const text of ["process.exit(1)", "constructor.constructor('x')()", "a; b", "`x`", "x => x", "SETTING['cellular'] = 1"]) {
    assert.throws(() => parseExpression(text), ExpressionError, text);
  }
  assert.throws(() => value("message.constructor"), /has no field "constructor"/);
});

test("console tool arguments: keyword arguments with Python or JSON literals", () => {
  assert.deepEqual(parseArguments('name="Fredrik", on=True, n=3, x=None, tags=["a", \'b\'], o={"k": 1}'), {
    name: "Fredrik",
    on: true,
    n: 3,
    x: null,
    tags: ["a", "b"],
    o: { k: 1 },
  });
  assert.deepEqual(parseArguments(""), {});
  assert.throws(() => parseArguments("Fredrik"), /expected "="/);
  assert.throws(() => parseArguments("a=1, a=2"), /given twice/);
});

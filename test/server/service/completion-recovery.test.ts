// Issue 39, item 9: completion keeps working while a line's indentation is broken mid-typing.
// Enter after `now: ...` in an editor indenting by 4 put `timezone:` under `now`, a YAML syntax
// error; the server then offered nothing. Read from the line structure, that key is `now`'s
// sibling, so the time zones are offered there as on a well-indented line.
import { test } from "node:test";
import assert from "node:assert/strict";
import { completion } from "../../../server/service/completion.js";
import { withCursor } from "./cursor.js";

const HEAD = `name: demo
user: { goal: g, opening: o }
`;

const labels = (text: string): string[] => {
  const { doc, position } = withCursor(text);
  return completion(doc, position).items.map((i) => i.label);
};

test("`timezone:` indented under `now:` inside `clock:` still completes time zones", () => {
  for (const indent of ["    ", "      "]) {
    const typed = labels(
      `${HEAD}clock:\n  now: 2026-05-20T08:30:00\n${indent}timezone: Europe/Be$0\nworld:\n  SETTING: { cellular: false }\n`,
    );
    assert.ok(typed.includes("Europe/Berlin"), `indent ${indent.length}: ${typed.slice(0, 8).join(", ")}`);
    const empty = labels(`${HEAD}clock:\n  now: 2026-05-20T08:30:00\n${indent}timezone: $0\n`);
    assert.ok(empty.includes("Europe/Berlin") && empty.includes("America/New_York"), `indent ${indent.length}: ${empty.length} items`);
  }
  // The same answer as on the well-indented line.
  const wellIndented = labels(`${HEAD}clock:\n  now: 2026-05-20T08:30:00\n  timezone: $0\n`);
  assert.deepEqual(labels(`${HEAD}clock:\n  now: 2026-05-20T08:30:00\n    timezone: $0\n`), wellIndented);
});

test("a key indented under a key with a scalar gets its sibling keys, and `cellular:` under `wifi: true` its booleans", () => {
  const keys = labels(`${HEAD}clock:\n  now: 2026-05-20T08:30:00\n    ti$0: x\n`);
  assert.ok(keys.includes("timezone"), keys.join(", "));
  assert.ok(!keys.includes("now"), "a key already written is not offered again");
  const booleans = labels(`${HEAD}world:\n  SETTING:\n    wifi: true\n      cellular: $0\n`);
  assert.deepEqual(booleans.sort(), ["false", "true"]);
});

test("a top-level key being typed at column 0 is offered (VS Code asks as you type: quick suggestions in strings)", () => {
  const typed = labels(`${HEAD}mil$0`);
  assert.ok(typed.includes("milestones"), typed.join(", "));
  assert.ok(!typed.includes("name"), "keys already present are left out");
});

test("a key with only an anchor on its line still owns the mapping indented under it", () => {
  const { doc, position } = withCursor(`${HEAD}world:\n  SETTING: &start\n    wi$0\n`);
  assert.deepEqual(doc.pathAt(doc.offsetAt(position)).path, ["world", "SETTING"]);
  const { doc: broken, position: at } = withCursor(`${HEAD}world:\n  SETTING: { cellular: false }\n    CONTACT$0\n`);
  assert.deepEqual(broken.pathAt(broken.offsetAt(at)).path, ["world"], "a key with a value on its line does not");
});

import { test } from "node:test";
import assert from "node:assert/strict";
import { YamlSource } from "../../engine/scenario/yaml-source.js";

const slice = (src: YamlSource, [a, b]: readonly [number, number]) => src.text.slice(a, b);

test("a syntax error is ranged from where it starts to the end of that line, in one line", () => {
  const src = new YamlSource('name: x\nuser: "unterminated\nreference: []\n', "f.yaml");
  assert.equal(src.syntaxDiagnostics.length, 1);
  const d = src.syntaxDiagnostics[0]!;
  assert.equal(d.code, "yaml-syntax");
  assert.equal(d.range.start.line, d.range.end.line);
  assert.ok(!d.message.includes("\n"));
  assert.doesNotMatch(d.message, /at line \d+/);
});

test("an unclosed bracket at the end of input is underlined where it opens", () => {
  const src = new YamlSource("a: 1\nb: {c: 1\n\n", "f.yaml");
  const d = src.syntaxDiagnostics[0]!;
  assert.equal(d.range.start.line, 1);
  assert.equal(slice(src, d.offset), "{c: 1");
});

test("an unclosed bracket followed by more keys is reported on its own line, not the next", () => {
  const src = new YamlSource("a:\n  b: [x, y\n  c: 1\n", "f.yaml");
  const d = src.syntaxDiagnostics[0]!;
  assert.equal(d.range.start.line, 1);
  assert.equal(slice(src, d.offset), "[x, y");
});

test("a cascade of parser errors on one line is reported once", () => {
  const src = new YamlSource("- a\nb: 1\n", "f.yaml");
  assert.equal(src.syntaxDiagnostics.length, 1);
  assert.match(src.syntaxDiagnostics[0]!.message, /indentation/);
});

test("duplicate keys, tabs and extra documents have their own wording", () => {
  const dup = new YamlSource("name: a\nname: b\n", "f.yaml").syntaxDiagnostics[0]!;
  assert.equal(dup.code, "yaml-duplicate-key");
  assert.match(dup.message, /Duplicate key "name"/);
  assert.equal(dup.range.start.line, 1);
  assert.match(new YamlSource("a:\n\tb: 1\n", "f.yaml").syntaxDiagnostics[0]!.message, /Tabs/);
  assert.match(new YamlSource("a: 1\n---\nb: 2\n", "f.yaml").syntaxDiagnostics[0]!.message, /one YAML document/);
});

test("an alias without its anchor is a diagnostic, not an exception", () => {
  const src = new YamlSource("a: *missing\n", "f.yaml");
  const d = src.syntaxDiagnostics[0]!;
  assert.match(d.message, /Unknown alias "\*missing"/);
  assert.equal(slice(src, d.offset), "*missing");
});

test("paths locate keys and values, through aliases, never past the first line", () => {
  const text = "base: &b\n  x: 1\nlist:\n  - id: first\n  - id: second\n    after: [first]\nref: *b\nblock: |\n  one\n  two\n";
  const src = new YamlSource(text, "f.yaml");
  assert.equal(slice(src, src.rangeOf(["list", 1, "id"])), "second");
  assert.equal(slice(src, src.rangeOf(["list", 1, "after"], "key")), "after");
  assert.equal(slice(src, src.rangeOf(["list", 1, "after", 0])), "first");
  assert.equal(slice(src, src.rangeOf(["ref", "x"])), "1");
  assert.equal(slice(src, src.rangeOf(["block"])), "|");
  // A missing key falls back to the deepest node that exists: here the second item's key.
  assert.equal(slice(src, src.rangeOf(["list", 1, "nope"])), "id: second");
  assert.equal(slice(src, src.rangeOf(["list", 0, "id", "deeper"])), "id");
});

test("positions are 0-based lines and characters", () => {
  const src = new YamlSource("a: 1\nbb: 2\n", "f.yaml");
  assert.deepEqual(src.position(5), { line: 1, character: 0 });
  assert.deepEqual(src.position(9), { line: 1, character: 4 });
});

import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Diagnostic } from "../../engine/base/diagnostics.js";
import { checkScenarioText } from "../../engine/scenario/resolve.js";
import { loadScenarioFile } from "../../engine/scenario/load.js";

// The language server calls checkScenarioText on every keystroke, so half-typed files are the
// normal case: it must always answer with diagnostics, never throw, and answer fast.
const FIXTURES = join(__dirname, "fixtures");
const full = readFileSync(join(FIXTURES, "full.scenario.yaml"), "utf8");
const mistakes = readFileSync(join(FIXTURES, "twenty-mistakes.scenario.yaml"), "utf8");

/** Every diagnostic's range lies in the text, on one line, and agrees with its offsets. */
function assertWellFormed(text: string, diagnostics: readonly Diagnostic[]): void {
  const lineStarts = [0, ...[...text.matchAll(/\n/g)].map((m) => m.index + 1)];
  for (const d of diagnostics) {
    const [start, end] = d.offset;
    assert.ok(start >= 0 && start <= end && end <= text.length, `offsets of ${d.code}`);
    assert.equal(d.range.start.line, d.range.end.line, `${d.code} stays on one line`);
    assert.equal(lineStarts[d.range.start.line]! + d.range.start.character, start, `${d.code} start agrees with its offset`);
    assert.ok(d.message.length > 0 && !d.message.includes("\n"));
    assert.match(d.code, /^[a-z]+(-[a-z]+)*$/);
  }
}

test("every truncation of a valid file gives diagnostics without throwing", () => {
  const cuts = new Set<number>();
  for (const m of full.matchAll(/\n/g)) {
    cuts.add(m.index);
    cuts.add(Math.max(0, m.index - 7));
  }
  for (const cut of [...cuts].sort((a, b) => a - b)) {
    const text = full.slice(0, cut);
    const result = checkScenarioText(text, "cut.yaml");
    assertWellFormed(text, result.diagnostics);
    if (result.scenario === null)
      assert.ok(
        result.diagnostics.some((d) => d.severity === "error"),
        `cut at ${cut}`,
      );
  }
});

test("random edits never make the checker throw", () => {
  let seed = 42;
  const random = (n: number) => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed % n;
  };
  const inserts = [":", "-", " ", "\n", "[", "]", "{", "}", '"', "'", "#", "&a", "*a", "!", "|", ">", "\t", "0", "null", "?"];
  for (const source of [full, mistakes]) {
    for (let i = 0; i < 150; i++) {
      let text = source;
      for (let k = 0; k < 3; k++) {
        const at = random(text.length);
        text =
          random(2) === 0
            ? text.slice(0, at) + inserts[random(inserts.length)]! + text.slice(at)
            : text.slice(0, at) + text.slice(at + 1 + random(5));
      }
      assertWellFormed(text, checkScenarioText(text, "edit.yaml").diagnostics);
    }
  }
});

test("hostile or odd inputs are diagnostics too", () => {
  const bomb = `a: &a [x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]\nc: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b]\nd: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c]\ne: [*d, *d, *d, *d, *d, *d, *d, *d, *d]\n`;
  const inputs = [
    "[",
    "{",
    ":",
    "- - -",
    "!!binary x",
    "\u0000",
    "a: !!int nope",
    "x".repeat(100000),
    "[".repeat(500),
    `${"- ".repeat(500)}x`,
    bomb,
    "42",
    '"just a string"',
    "[]",
    "name: [unclosed\n  - x",
  ];
  for (const text of inputs) {
    const result = checkScenarioText(text, "odd.yaml");
    assert.equal(result.scenario, null);
    assert.ok(result.diagnostics.length > 0, JSON.stringify(text.slice(0, 20)));
    assertWellFormed(text, result.diagnostics);
  }
});

test("loadScenarioFile reads and checks a file, and turns an unreadable path into a diagnostic", () => {
  const ok = loadScenarioFile(join(FIXTURES, "full.scenario.yaml"));
  assert.equal(ok.scenario?.name, "full_example");
  const missing = loadScenarioFile(join(FIXTURES, "nope.scenario.yaml"));
  assert.equal(missing.scenario, null);
  assert.deepEqual(
    missing.diagnostics.map((d) => [d.code, d.severity, d.message]),
    [["file-not-found", "error", "Cannot read the scenario file: no such file."]],
  );
  assert.equal(missing.diagnostics[0]!.file, join(FIXTURES, "nope.scenario.yaml"));
  const directory = loadScenarioFile(FIXTURES);
  assert.equal(directory.diagnostics[0]!.code, "file-unreadable");
});

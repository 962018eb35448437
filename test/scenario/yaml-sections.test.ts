// The section-by-section parse the language server uses gives what a whole-text parse gives:
// for valid YAML the same nodes at the same ranges, value and check; for invalid YAML, errors too,
// on samples edited at random (seeded) one version after another.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { isNode, visit, type Document } from "yaml";
import { checkScenarioSource } from "../../engine/scenario/resolve.js";
import { YamlSource } from "../../engine/scenario/yaml-source.js";
import { SectionedParser } from "../../engine/scenario/yaml-sections.js";

const SAMPLES = join(__dirname, "..", "..", "sample-scenarios");
const FILES = readdirSync(SAMPLES)
  .filter((f) => f.endsWith(".scenario.yaml"))
  .sort();

function nodes(doc: Document.Parsed): string[] {
  const out: string[] = [];
  visit(doc.contents ?? doc, (key, node) => {
    if (isNode(node)) out.push(`${String(key)} ${node.range?.join(",")} ${"value" in node ? String(node.value) : ""}`);
  });
  return out;
}

function assertSame(text: string, parser: SectionedParser, what: string): void {
  const whole = new YamlSource(text, "t.scenario.yaml");
  const sectioned = new YamlSource(text, "t.scenario.yaml", parser.parse(text));
  // With a syntax error, the whole parse may stop where sections go on (more errors, fuller trees):
  // the language server then checks the whole parse (document.ts), so only "has errors" must agree.
  assert.equal(sectioned.syntaxDiagnostics.length === 0, whole.syntaxDiagnostics.length === 0, `${what}: has syntax errors`);
  if (whole.syntaxDiagnostics.length > 0) return;
  assert.deepEqual(sectioned.value, whole.value, `${what}: value`);
  assert.deepEqual(nodes(sectioned.doc), nodes(whole.doc), `${what}: nodes`);
  assert.deepEqual(checkScenarioSource(sectioned).diagnostics, checkScenarioSource(whole).diagnostics, `${what}: check`);
}

/** A small seeded generator, so a failure names an edit that can be replayed. */
function random(seed: number): () => number {
  let s = seed;
  return () => (s = (s * 1103515245 + 12345) % 2147483648) / 2147483648;
}

const EDITS: readonly ((text: string, at: number) => string)[] = [
  (t, at) => `${t.slice(0, at)}x${t.slice(at)}`,
  (t, at) => `${t.slice(0, at)}${t.slice(at + 1)}`,
  (t, at) => `${t.slice(0, at)}\n${t.slice(at)}`,
  (t, at) => `${t.slice(0, at)}: ${t.slice(at)}`,
  (t, at) => `${t.slice(0, at)}"${t.slice(at)}`,
  (t, at) => `${t.slice(0, at)}[${t.slice(at)}`,
  (t, at) => {
    // Duplicate the line `at` is on (a duplicated top-level key among them).
    const start = t.lastIndexOf("\n", at - 1) + 1;
    const end = t.indexOf("\n", at);
    const line = t.slice(start, end < 0 ? t.length : end + 1);
    return `${t.slice(0, start)}${line}${line}${t.slice(start)}`;
  },
];

test("edited samples parse by section exactly as whole", () => {
  const next = random(18);
  for (const file of FILES) {
    const original = readFileSync(join(SAMPLES, file), "utf8");
    const parser = new SectionedParser();
    assertSame(original, parser, file);
    let text = original;
    for (let i = 0; i < 12; i++) {
      const edit = Math.floor(next() * EDITS.length);
      const at = Math.floor(next() * text.length);
      text = EDITS[edit]!(text, at);
      assertSame(text, parser, `${file} after edit ${i} (kind ${edit} at ${at})`);
      // Every few edits, go back to the clean text (an undo): reused sections move back.
      if (i % 4 === 3) {
        text = original;
        assertSame(text, parser, `${file} undone after edit ${i}`);
      }
    }
  }
});

test("a duplicated top-level key and cross-section constructs parse as whole", () => {
  const parser = new SectionedParser();
  const base = "name: a\ndescription: b\nuser:\n  goal: g\n  opening: o\nreference:\n  - agent: Done.\n";
  for (const text of [
    `${base}name: again\n`,
    `name: a\ndescription: "open\nuser: x\n`,
    `name: a\ndescription: [a,\nuser: x\n`,
    `name: &n a\ndescription: *n\nuser: x\n`,
    `# c\n\nname: a\n# mid\nuser:\n  goal: g\n`,
    "name: a\r\ndescription: b\r\nuser:\r\n  goal: g\r\n",
    `--- \nname: a\nuser: b\n`,
    `- a\nname: b\n`,
  ]) {
    assertSame(text, parser, JSON.stringify(text));
  }
});

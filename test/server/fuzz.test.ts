// 10,000 mutated versions of the sample scenarios (characters deleted and inserted, the text cut
// short, lines swapped, duplicated or dropped; a seeded generator, so a failure reproduces)
// through the language service: diagnostics, completion, hover, navigation, outline, folding and
// quick fixes at random positions. Every call returns a well-formed answer and nothing throws.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { Diagnostic, Range } from "vscode-languageserver";
import { TextDocument } from "vscode-languageserver-textdocument";
import { SeededRandom } from "../../engine/episode/random.js";
import { codeActions } from "../../server/service/code-actions.js";
import { completion } from "../../server/service/completion.js";
import { definition } from "../../server/service/definition.js";
import { documentDiagnostics } from "../../server/service/diagnostics.js";
import { getScenarioDocument, type ScenarioDocument } from "../../server/service/document.js";
import { hover } from "../../server/service/hover.js";
import { references } from "../../server/service/references.js";
import { prepareRename } from "../../server/service/rename.js";
import { documentSymbols, foldingRanges } from "../../server/service/symbols.js";

const VERSIONS = 10_000;
const SEED = 20_261_121;
const SAMPLES = readdirSync("sample-scenarios")
  .filter((f) => f.endsWith(".scenario.yaml"))
  .sort()
  .map((f) => readFileSync(join("sample-scenarios", f), "utf8"));

/** Pieces that matter to YAML and to the scenario format, so mutations reach the odd corners. */
const FRAGMENTS = [
  ":",
  ": ",
  "- ",
  "-",
  "[",
  "]",
  "{",
  "}",
  ",",
  '"',
  "'",
  "#",
  "\n",
  "  ",
  "    ",
  "\t",
  "&a ",
  "*a",
  "<<: *a",
  "|",
  ">-",
  "? ",
  "!!str ",
  "%YAML 1.2\n",
  "---\n",
  "...\n",
  "after: [",
  "after: []",
  "id: ",
  "kind: ",
  "table: ",
  "tool: ",
  "reference: ",
  "constraints:\n",
  "target:\n  - ",
  "milestones:\n  - id: x\n",
  "calls:\n  - tool: ",
  "arguments: {",
  "null",
  "~",
  "1e999",
  "-0",
  "0x1F",
  "2026-13-45T25:61:00",
  "now - 1d",
  "tomorrow 25:00",
  "SANDBOX",
  "CONTACT",
  "search_contacts",
  "é",
  "🙂",
  "\u0000",
];

class Mutator {
  constructor(private readonly random: SeededRandom) {}

  int(below: number): number {
    return below <= 0 ? 0 : this.random.nextUint32() % below;
  }

  pick<T>(items: readonly T[]): T {
    const item = items[this.int(items.length)];
    if (item === undefined) throw new Error("pick from an empty list");
    return item;
  }

  /** One mutation of `text`, and its name (for the failure message). */
  mutate(text: string): [string, string] {
    const at = this.int(text.length + 1);
    switch (this.int(7)) {
      case 0: {
        const length = 1 + this.int(20);
        return [text.slice(0, at) + text.slice(at + length), `delete ${length} at ${at}`];
      }
      case 1: {
        const fragment = this.pick(FRAGMENTS);
        return [text.slice(0, at) + fragment + text.slice(at), `insert ${JSON.stringify(fragment)} at ${at}`];
      }
      case 2: {
        // A word of the document itself, elsewhere: ids, keys and values out of place.
        const words = text.match(/[A-Za-z_][\w-]*/g) ?? ["x"];
        const word = this.pick(words);
        return [text.slice(0, at) + word + text.slice(at), `insert word ${word} at ${at}`];
      }
      case 3:
        return [text.slice(0, at), `truncate at ${at}`];
      default: {
        const lines = text.split("\n");
        const i = this.int(lines.length);
        const j = this.int(lines.length);
        const [a = "", b = ""] = [lines[i], lines[j]];
        const kind = this.int(3);
        if (kind === 0) {
          lines[i] = b;
          lines[j] = a;
          return [lines.join("\n"), `swap lines ${i + 1} and ${j + 1}`];
        }
        if (kind === 1) {
          lines.splice(i, 0, a);
          return [lines.join("\n"), `duplicate line ${i + 1}`];
        }
        lines.splice(i, 1);
        return [lines.join("\n"), `drop line ${i + 1}`];
      }
    }
  }

  position(doc: TextDocument): { line: number; character: number } {
    return doc.positionAt(this.int(doc.getText().length + 1));
  }
}

/** A range inside the document, start before end. */
function assertRangeInside(range: Range, doc: TextDocument, what: string): void {
  const start = doc.offsetAt(range.start);
  const end = doc.offsetAt(range.end);
  // offsetAt clamps; a range outside the text would not survive the round trip.
  assert.deepEqual(doc.positionAt(start), range.start, `${what}: start ${JSON.stringify(range.start)} is inside the text`);
  assert.deepEqual(doc.positionAt(end), range.end, `${what}: end ${JSON.stringify(range.end)} is inside the text`);
  assert.ok(start <= end, `${what}: the range starts before it ends`);
}

/** Every request the editor can make on this version, each answer checked for its shape. */
function exercise(doc: ScenarioDocument, textDocument: TextDocument, mutator: Mutator): void {
  const diagnostics: Diagnostic[] = documentDiagnostics(doc);
  for (const d of diagnostics) {
    assertRangeInside(d.range, textDocument, `diagnostic ${String(d.code)}`);
    assert.equal(d.range.start.line, d.range.end.line, `diagnostic ${String(d.code)} stays on one line`);
    assert.ok((typeof d.message === "string" ? d.message : d.message.value).length > 0, "a diagnostic says something");
  }

  for (let i = 0; i < 3; i++) {
    const list = completion(doc, mutator.position(textDocument));
    assert.ok(Array.isArray(list.items));
    for (const item of list.items) {
      if (item.textEdit && "range" in item.textEdit) assertRangeInside(item.textEdit.range, textDocument, `completion ${item.label}`);
    }
  }

  const position = mutator.position(textDocument);
  const shown = hover(doc, position);
  if (shown?.range) assertRangeInside(shown.range, textDocument, "hover");
  const target = definition(doc, position);
  if (target) assertRangeInside(target.range, textDocument, "definition");
  for (const location of references(doc, position)) assertRangeInside(location.range, textDocument, "reference");
  const prepared = prepareRename(doc, position);
  if (prepared) assertRangeInside(prepared.range, textDocument, "prepareRename");

  for (const symbol of documentSymbols(doc)) assertRangeInside(symbol.range, textDocument, `symbol ${symbol.name}`);
  for (const fold of foldingRanges(doc))
    assert.ok(fold.startLine <= fold.endLine && fold.endLine < textDocument.lineCount, "folding range");

  for (const d of diagnostics.slice(0, 3)) assert.ok(Array.isArray(codeActions(doc, d.range, [d])));
  const start = mutator.position(textDocument);
  assert.ok(Array.isArray(codeActions(doc, { start, end: start }, [])));
}

test(`${VERSIONS} mutated samples through every service function: well-formed answers, no exception`, () => {
  const mutator = new Mutator(SeededRandom.fromSeed(SEED));
  const uri = "file:///fuzz/mutated.scenario.yaml";
  const started = performance.now();
  let text = "";
  let steps: string[] = [];
  for (let version = 1; version <= VERSIONS; version++) {
    // Mostly a fresh sample with a few mutations; sometimes keep mutating the previous version,
    // the way an edit session drifts further from a valid file.
    if (version === 1 || mutator.int(4) !== 0) {
      text = mutator.pick(SAMPLES);
      steps = [];
    }
    for (let n = 1 + mutator.int(3); n > 0; n--) {
      const [next, step] = mutator.mutate(text);
      text = next;
      steps.push(step);
    }
    const textDocument = TextDocument.create(uri, "toolsandbox-scenario", version, text);
    try {
      exercise(getScenarioDocument(textDocument), textDocument, mutator);
    } catch (e) {
      const reason = e instanceof Error ? e.message : String(e);
      assert.fail(`version ${version} (seed ${SEED}; ${steps.join(", ")}): ${reason}\n--- text ---\n${text}`);
    }
  }
  const seconds = (performance.now() - started) / 1000;
  console.log(`fuzz: ${VERSIONS} versions in ${seconds.toFixed(1)} s`);
});

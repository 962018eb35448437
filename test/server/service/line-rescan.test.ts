// The line structure after an edit, computed from the previous one (rescanLines), equals a scan
// of the whole new text, on samples edited at random (seeded) one version after another.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { YamlSource } from "../../../engine/scenario/yaml-source.js";
import { rescanLines, scanLines, type LineStructure } from "../../../server/service/line-structure.js";

const SAMPLES = join(__dirname, "..", "..", "..", "sample-scenarios");
const FILES = readdirSync(SAMPLES)
  .filter((f) => f.endsWith(".scenario.yaml"))
  .sort();

function random(seed: number): () => number {
  let s = seed;
  return () => (s = (s * 1103515245 + 12345) % 2147483648) / 2147483648;
}

const INSERTS = ["x", "\n", ": ", "\n  - ", "\nworld:\n", '"', "[", "]", "\n    kind: snapshot\n", "#"];

test("the line structure rescanned after edits equals a whole scan", () => {
  const next = random(20);
  for (const file of FILES) {
    let text = readFileSync(join(SAMPLES, file), "utf8");
    let previous: { text: string; structure: LineStructure } = { text, structure: scanLines(text, new YamlSource(text, file).doc) };
    for (let i = 0; i < 40; i++) {
      const at = Math.floor(next() * text.length);
      const remove = next() < 0.3 ? Math.floor(next() * 40) : 0;
      text = `${text.slice(0, at)}${INSERTS[Math.floor(next() * INSERTS.length)]}${text.slice(at + remove)}`;
      const doc = new YamlSource(text, file).doc;
      const rescanned = rescanLines(previous, text, doc);
      assert.deepEqual(rescanned, scanLines(text, doc), `${file} after edit ${i} at ${at}`);
      previous = { text, structure: rescanned };
    }
  }
});

// Every service function answers on any text (half-typed, invalid YAML, wrong types anywhere)
// without throwing, within a few milliseconds on the sample scenarios. The protocol-level fuzz
// test drives 10,000 mutations through the server; this one exercises the pure functions.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { Position } from "vscode-languageserver";
import { codeActions } from "../../../server/service/code-actions.js";
import { completion } from "../../../server/service/completion.js";
import { definition } from "../../../server/service/definition.js";
import { documentDiagnostics } from "../../../server/service/diagnostics.js";
import type { ScenarioDocument } from "../../../server/service/document.js";
import { onServiceError } from "../../../server/service/guard.js";
import { hover } from "../../../server/service/hover.js";
import { references } from "../../../server/service/references.js";
import { prepareRename, rename } from "../../../server/service/rename.js";
import { documentSymbols, foldingRanges } from "../../../server/service/symbols.js";
import { scenarioDoc } from "./cursor.js";

const SAMPLES = join(__dirname, "../../../sample-scenarios");
const samples = readdirSync(SAMPLES)
  .filter((f) => f.endsWith(".scenario.yaml"))
  .sort()
  .map((f) => readFileSync(join(SAMPLES, f), "utf8"));

/** A deterministic generator (no Math.random): the same mutations every run. */
function lcg(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

function mutate(text: string, random: () => number): string {
  const lines = text.split("\n");
  const at = Math.floor(random() * text.length);
  switch (Math.floor(random() * 6)) {
    case 0:
      return text.slice(0, at); // truncated while typing
    case 1:
      return text.slice(0, at) + text.slice(at + 1 + Math.floor(random() * 20));
    case 2:
      return text.slice(0, at) + ["- ", ": ", "[", "{", '"', "\t", "\n  ", "*a", "&a ", "? "][Math.floor(random() * 10)] + text.slice(at);
    case 3: {
      const i = Math.floor(random() * lines.length);
      const j = Math.floor(random() * lines.length);
      [lines[i], lines[j]] = [lines[j] ?? "", lines[i] ?? ""];
      return lines.join("\n");
    }
    case 4: {
      const i = Math.floor(random() * lines.length);
      lines[i] = (lines[i] ?? "").replace(/:\s.*$/, ": [1, {a: b}]");
      return lines.join("\n");
    }
    default:
      return lines.filter((_l, i) => i % 7 !== Math.floor(random() * 7)).join("\n");
  }
}

function everyRequest(doc: ScenarioDocument, position: Position): void {
  const range = { start: position, end: position };
  const diagnostics = documentDiagnostics(doc);
  assert.ok(Array.isArray(completion(doc, position).items));
  hover(doc, position, null);
  definition(doc, position);
  assert.ok(Array.isArray(references(doc, position)));
  prepareRename(doc, position);
  rename(doc, position, "renamed_id");
  assert.ok(Array.isArray(documentSymbols(doc)));
  assert.ok(Array.isArray(foldingRanges(doc)));
  assert.ok(Array.isArray(codeActions(doc, range, diagnostics)));
}

/** Runs `body` failing on any exception the service caught and turned into an empty answer. */
function strictly(body: () => void): void {
  const caught: string[] = [];
  onServiceError((feature, error) => caught.push(`${feature}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`));
  try {
    body();
  } finally {
    onServiceError(null);
  }
  assert.deepEqual(caught, [], "no service function may fail internally");
}

test("no request throws (or fails internally) on mutated sample scenarios", () =>
  strictly(() => {
    const random = lcg(20260115);
    for (let n = 0; n < 150; n++) {
      const sample = samples[n % samples.length] ?? "";
      const doc = scenarioDoc(mutate(sample, random));
      const lineCount = doc.textDocument.lineCount;
      for (let k = 0; k < 3; k++) {
        const line = Math.floor(random() * lineCount);
        everyRequest(doc, { line, character: Math.floor(random() * 40) });
      }
    }
  }));

test("positions past the end and degenerate documents are answered", () =>
  strictly(() => {
    for (const text of [
      "",
      "\n\n",
      "---\n---\n",
      "- a\n- b\n",
      "42",
      "[",
      "{a: ",
      "name: &x [*x]",
      "a: *missing\n",
      "\t\t",
      "\u0000",
      "# only a comment\n",
    ]) {
      const doc = scenarioDoc(text);
      everyRequest(doc, { line: 0, character: 0 });
      everyRequest(doc, { line: 50, character: 200 });
    }
  }));

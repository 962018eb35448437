// Test documents with a cursor marker: `$0` marks where the cursor is (as in a snippet).
import { TextDocument } from "vscode-languageserver-textdocument";
import type { Position } from "vscode-languageserver";
import { getScenarioDocument, type ScenarioDocument } from "../../../server/service/document.js";
import { snippetToText } from "../../../server/service/snippets.js";

const CURSOR = "$0";

let counter = 0;

/** A parsed document from text without a marker (a fresh uri each time, so no cache is shared). */
export function scenarioDoc(text: string): ScenarioDocument {
  counter++;
  return getScenarioDocument(TextDocument.create(`file:///test/doc${counter}.scenario.yaml`, "toolsandbox-scenario", 1, text));
}

/** The document with the marker removed, and the cursor position where the marker was. */
export function withCursor(textWithMarker: string): { doc: ScenarioDocument; position: Position; offset: number } {
  const offset = textWithMarker.indexOf(CURSOR);
  if (offset < 0) throw new Error("the test document has no $0 cursor marker");
  const text = textWithMarker.slice(0, offset) + textWithMarker.slice(offset + CURSOR.length);
  const doc = scenarioDoc(text);
  return { doc, position: doc.textDocument.positionAt(offset), offset };
}

/** The text a list of edits produces (edits on a single document, applied from the end). */
export function applyEdits(text: string, edits: readonly { range: { start: Position; end: Position }; newText: string }[]): string {
  const doc = TextDocument.create("file:///apply", "yaml", 1, text);
  return TextDocument.applyEdits(doc, [...edits]);
}

/** The document text after accepting a completion item (snippet placeholders replaced by their defaults). */
export function accept(doc: ScenarioDocument, item: { textEdit?: unknown; insertTextFormat?: number }): string {
  const edit = item.textEdit as { range: { start: Position; end: Position }; newText: string } | undefined;
  if (!edit || !("range" in edit)) throw new Error("the completion item has no text edit");
  const newText = item.insertTextFormat === 2 ? snippetToText(edit.newText) : edit.newText;
  return applyEdits(doc.text, [{ range: edit.range, newText }]);
}

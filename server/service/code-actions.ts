// Quick fixes for the checker's diagnostics, driven by their stable code and data: replace with
// the suggested key, value, tool or id (data.suggestion); add the missing `after:` of an
// unconnected milestone (data.insert); insert a missing required key, argument or column; write
// a minimal valid scenario into an empty file; and the strength findings' edits (strength-fixes.ts).
import { CodeActionKind, type CodeAction, type Diagnostic, type Range, type TextEdit } from "vscode-languageserver";
import { isMap, isScalar, type YAMLMap } from "yaml";
import type { PathSegment } from "../../engine/scenario/yaml-source.js";
import { readTag, yamlScalar } from "./completion-support.js";
import type { ScenarioDocument } from "./document.js";
import { deref, propertiesOf, requiredOf, schemaAt, typesOf, type Schema } from "./schema-nav.js";
import { guarded } from "./guard.js";
import { SCHEMA_NOT_FOUND } from "./schema-modeline.js";
import { SKELETON_SNIPPET, snippetToText } from "./snippets.js";
import { strengthFixActions } from "./strength-fixes.js";

/** What the client can apply: `snippetEdits` = snippet text edits in a workspace edit (LSP 3.18). */
export interface CodeActionSupport {
  readonly snippetEdits: boolean;
}

export function codeActions(
  doc: ScenarioDocument,
  range: Range,
  diagnostics: readonly Diagnostic[],
  support: CodeActionSupport = { snippetEdits: false },
): CodeAction[] {
  void range; // the client sends the diagnostics that touch the range; each is answered on its own
  const actions: CodeAction[] = [];
  for (const diagnostic of diagnostics) actions.push(...guarded("codeActions", [], () => actionsFor(doc, diagnostic, support)));
  return actions;
}

function actionsFor(doc: ScenarioDocument, d: Diagnostic, support: CodeActionSupport): CodeAction[] {
  const code = typeof d.code === "string" ? d.code : null;
  const data = typeof d.data === "object" && d.data !== null ? (d.data as Record<string, unknown>) : {};
  const suggestion = typeof data.suggestion === "string" ? data.suggestion : null;
  const insert = typeof data.insert === "string" ? data.insert : null;
  if (code === "empty-file") return [skeletonAction(doc, d)];
  if (code === SCHEMA_NOT_FOUND) return [removeLineAction(doc, d)];
  if (code === "milestone-unconnected" && insert !== null) return afterActions(doc, d, insert);
  if (code === "strength-survivor" || code === "strength-refused-variant") return strengthFixActions(doc, d);
  if (suggestion !== null) return [replaceAction(doc, d, suggestion)];
  if (insert !== null && (code === "schema-required" || code === "missing-argument" || code === "missing-column")) {
    const action = insertKeyAction(doc, d, code, insert, support);
    return action ? [action] : [];
  }
  return [];
}

function quickFix(doc: ScenarioDocument, title: string, d: Diagnostic, edits: TextEdit[], preferred: boolean): CodeAction {
  return {
    title,
    kind: CodeActionKind.QuickFix,
    diagnostics: [d],
    edit: { changes: { [doc.uri]: edits } },
    ...(preferred ? { isPreferred: true } : {}),
  };
}

/** Deletes the `$schema` modeline: the extension gives scenario files its bundled schema without it. */
function removeLineAction(doc: ScenarioDocument, d: Diagnostic): CodeAction {
  const line = d.range.start.line;
  const range = { start: { line, character: 0 }, end: { line: line + 1, character: 0 } };
  return quickFix(doc, "Remove the $schema line (the extension supplies the schema)", d, [{ range, newText: "" }], true);
}

/** Replace the flagged text with the suggestion, keeping the quotes it was written with. */
function replaceAction(doc: ScenarioDocument, d: Diagnostic, suggestion: string): CodeAction {
  const current = doc.textDocument.getText(d.range);
  const quote = /^["']/.exec(current)?.[0];
  const text = quote ? `${quote}${suggestion}${quote}` : yamlScalar(suggestion, false);
  return quickFix(doc, `Change to "${suggestion}"`, d, [{ range: d.range, newText: text }], true);
}

/** `after: [...]` (and, as a second choice, `after: []`) on a new line under the node's `id:`. */
function afterActions(doc: ScenarioDocument, d: Diagnostic, insert: string): CodeAction[] {
  const line = d.range.start.line;
  const lineText = doc.textDocument.getText({ start: { line, character: 0 }, end: { line: line + 1, character: 0 } }).replace(/\r?\n$/, "");
  const keyColumn = /^(\s*(?:-\s+)*)\S/.exec(lineText)?.[1]?.length ?? d.range.start.character;
  const at = { line, character: lineText.length };
  const edit = (text: string): TextEdit => ({ range: { start: at, end: at }, newText: `\n${" ".repeat(keyColumn)}${text}` });
  const actions = [quickFix(doc, `Add \`${insert}\``, d, [edit(insert)], true)];
  if (insert !== "after: []") actions.push(quickFix(doc, "Add `after: []` (it stands alone)", d, [edit("after: []")], false));
  return actions;
}

/** Writes the skeleton after whatever comments the empty file has (a schema modeline stays first). */
function skeletonAction(doc: ScenarioDocument, d: Diagnostic): CodeAction {
  const text = doc.text;
  const end = doc.textDocument.positionAt(text.length);
  const separator = text.length === 0 || text.endsWith("\n") ? "" : "\n";
  const skeleton = snippetToText(SKELETON_SNIPPET.body);
  return quickFix(doc, "Create a scenario skeleton", d, [{ range: { start: end, end }, newText: separator + skeleton }], true);
}

/**
 * Adds `key:` to the mapping the diagnostic points at. The range starts either at the key whose
 * value is that mapping, or at the mapping itself (a list item, the root); the mapping chosen is
 * the one that lacks the key (and, for a schema error, whose schema requires it).
 */
function insertKeyAction(doc: ScenarioDocument, d: Diagnostic, code: string, key: string, support: CodeActionSupport): CodeAction | null {
  const offset = doc.offsetAt(d.range.start);
  const candidates = mapsAt(doc, offset).filter(({ map }) => !map.items.some((p) => isScalar(p.key) && p.key.value === key));
  const tag = readTag(doc);
  const chosen =
    code === "schema-required"
      ? candidates.find(({ path }) => schemaAt(path, tag).branches.some((b) => requiredOf(b).includes(key)))
      : (candidates.find(({ viaKey }) => viaKey === (code === "missing-argument")) ?? candidates[0]);
  if (!chosen) return null;
  const property = code === "schema-required" ? propertySchema(doc, chosen.path, key) : null;
  const edit = insertIntoMap(doc, chosen.map, key, property);
  if (edit === null) return null;
  // An empty text (`opening: ""`) is itself an error: where the client takes snippets, each one
  // is a placeholder to type over instead.
  if (support.snippetEdits && edit.newText.includes('""')) {
    let n = 0;
    const snippet = edit.newText.replace(/[\\$}]/g, (c) => `\\${c}`).replace(/""/g, () => `"\${${++n}:${key}}"`);
    const snippetEdit = { range: edit.range, snippet: { kind: "snippet" as const, value: snippet } };
    return {
      title: `Add "${key}"`,
      kind: CodeActionKind.QuickFix,
      diagnostics: [d],
      edit: { documentChanges: [{ textDocument: { uri: doc.uri, version: doc.version }, edits: [snippetEdit] }] },
      isPreferred: true,
    };
  }
  return quickFix(doc, `Add "${key}"`, d, [edit], true);
}

interface MapCandidate {
  readonly path: PathSegment[];
  readonly map: YAMLMap;
  /** Found as the value of a key starting at the offset (rather than as a mapping starting there). */
  readonly viaKey: boolean;
}

/** Mappings the offset may designate: the value of a key starting there, and a mapping starting there. */
function mapsAt(doc: ScenarioDocument, offset: number): MapCandidate[] {
  const out: MapCandidate[] = [];
  const walk = (node: unknown, path: PathSegment[], depth: number): void => {
    if (depth > 64) return;
    if (isMap(node)) {
      if (node.range?.[0] === offset) out.push({ path, map: node, viaKey: false });
      for (const pair of node.items) {
        if (!isScalar(pair.key)) continue;
        const childPath = [...path, String(pair.key.value)];
        if (pair.key.range?.[0] === offset && isMap(pair.value)) out.push({ path: childPath, map: pair.value, viaKey: true });
        if (coversOffset(pair.value, offset)) walk(pair.value, childPath, depth + 1);
      }
    } else if (node !== null && typeof node === "object" && "items" in node && Array.isArray(node.items)) {
      node.items.forEach((item: unknown, i: number) => {
        if (coversOffset(item, offset)) walk(item, [...path, i], depth + 1);
      });
    }
  };
  const root = doc.source.doc.contents;
  if (coversOffset(root, offset)) walk(root, [], 0);
  return out;
}

function coversOffset(node: unknown, offset: number): boolean {
  if (node === null || typeof node !== "object" || !("range" in node) || !Array.isArray(node.range)) return false;
  const [start, end] = node.range as number[];
  return start !== undefined && end !== undefined && offset >= start && offset <= end;
}

function propertySchema(doc: ScenarioDocument, mapPath: readonly PathSegment[], key: string): Schema | null {
  for (const branch of schemaAt(mapPath, readTag(doc)).branches) {
    const found = propertiesOf(branch).find(([name]) => name === key);
    if (found) return found[1];
  }
  return null;
}

/** `key: <placeholder>` as a new last entry of a block mapping, or before the `}` of a flow one. */
function insertIntoMap(doc: ScenarioDocument, map: YAMLMap, key: string, property: Schema | null): TextEdit | null {
  const [start, end] = map.range ?? [0, 0];
  if (map.flow) {
    const close = doc.text.lastIndexOf("}", end);
    if (close < start) return null;
    let stop = close;
    while (stop > start + 1 && /\s/.test(doc.text[stop - 1] ?? "")) stop--;
    const empty = map.items.length === 0;
    const at = doc.textDocument.positionAt(stop);
    const value = placeholder(property, 0, true);
    return { range: { start: at, end: at }, newText: `${empty ? " " : ", "}${key}: ${value}` };
  }
  const firstKey = map.items[0]?.key;
  const keyStart = isScalar(firstKey) && firstKey.range ? firstKey.range[0] : start;
  const column = doc.textDocument.positionAt(keyStart).character;
  let stop = Math.min(end, doc.text.length);
  while (stop > start && /\s/.test(doc.text[stop - 1] ?? "")) stop--;
  const at = doc.textDocument.positionAt(stop);
  const value = placeholder(property, column, false);
  return { range: { start: at, end: at }, newText: `\n${" ".repeat(column)}${key}:${value.startsWith("\n") ? "" : " "}${value}` };
}

/** A value to start from: nested required keys for a mapping, `[]` for a list, `""` for text. */
function placeholder(property: Schema | null, column: number, flow: boolean, depth = 0): string {
  const schema = deref(property);
  const types = typesOf(schema);
  if (schema === null) return '""';
  if (schema.const !== undefined) return JSON.stringify(schema.const);
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return yamlScalar(String(schema.enum[0]), false);
  if (types.includes("object") || schema.properties !== undefined) {
    const required = requiredOf(schema);
    if (flow || depth > 2 || required.length === 0) return "{}";
    const props = new Map(propertiesOf(schema));
    const pad = " ".repeat(column + 2);
    return required
      .map((name) => {
        const value = placeholder(props.get(name) ?? null, column + 2, false, depth + 1);
        return `\n${pad}${name}:${value.startsWith("\n") ? "" : " "}${value}`;
      })
      .join("");
  }
  if (types.includes("array")) return "[]";
  if (types.includes("integer") || types.includes("number")) return "0";
  if (types.includes("boolean")) return "false";
  return '""';
}

// Quick fixes for the strength findings (docs/strength.md) whose fix is correct by construction;
// the engine says which in the finding's data (engine/strength/blame.ts, `StrengthEdit`):
//
// - `drop-after`: an `after` edge refused a right agent that runs two independent steps in the
//   other order. The edge comes out of the milestone's list; where no milestone writes `after`
//   (the implicit chain), every milestone gets its list written out, the edge left out. A node
//   that nothing follows any more gets `after: []`, which means what no `after` meant, so the
//   checker does not call it unconnected.
// - `call-minefield`: an insufficient-information scenario let an agent call the tool instead of
//   asking. A minefield on an agent's call that names the tool is added.
//
// - A survivor also gets "Open Surviving Run": a command of the extension (client/host/
//   surviving-run.ts) that plays the mutant and opens its run in the replay panel.
//
// Each edit is made only where the document has the plain shape it expects (block mappings, ids
// as plain scalars); anywhere else the finding keeps its words and offers no action.
import { CodeActionKind, type CodeAction, type Diagnostic, type TextEdit } from "vscode-languageserver";
import { isMap, isScalar, isSeq, type Pair, type YAMLMap, type YAMLSeq } from "yaml";
import { type SurvivorRef, survivorRefOf } from "../../engine/strength/survivor-run.js";
import { yamlScalar } from "./completion-support.js";
import type { ScenarioDocument } from "./document.js";

export function strengthFixActions(doc: ScenarioDocument, d: Diagnostic): CodeAction[] {
  const data = typeof d.data === "object" && d.data !== null ? (d.data as Record<string, unknown>) : {};
  const text = (key: string): string | null => (typeof data[key] === "string" ? (data[key] as string) : null);
  const milestone = text("milestone");
  const edge = text("edge");
  const tool = text("tool");
  let fix: { title: string; edits: TextEdit[] } | null = null;
  if (data.kind === "drop-after" && milestone !== null && edge !== null) fix = dropAfter(doc, milestone, edge);
  if (data.kind === "call-minefield" && tool !== null) fix = callMinefield(doc, tool);
  const actions: CodeAction[] = [];
  if (fix !== null)
    actions.push({
      title: fix.title,
      kind: CodeActionKind.QuickFix,
      diagnostics: [d],
      edit: { changes: { [doc.uri]: fix.edits } },
      isPreferred: true,
    });
  const survivor = d.code === "strength-survivor" ? survivorRefOf(d.data) : null;
  if (survivor !== null) actions.push(openSurvivingRunAction(doc.uri, survivor, d));
  return actions;
}

/** The extension's command that plays the surviving mutant again and opens its run in the replay panel. */
const OPEN_SURVIVING_RUN_COMMAND = "toolsandbox.openSurvivingRun";

function openSurvivingRunAction(uri: string, survivor: SurvivorRef, d: Diagnostic): CodeAction {
  return {
    title: "Open Surviving Run",
    kind: CodeActionKind.QuickFix,
    diagnostics: [d],
    command: { title: "Open Surviving Run", command: OPEN_SURVIVING_RUN_COMMAND, arguments: [uri, survivor] },
  };
}

/** A section's nodes as block mappings, each with its plain `id`; null where the shape is anything else. */
function blockNodes(
  doc: ScenarioDocument,
  section: "milestones" | "minefields",
): { seq: YAMLSeq; nodes: { map: YAMLMap; id: string }[] } | null {
  const { node } = doc.source.locate([section]);
  if (!isSeq(node) || node.flow) return null;
  const nodes: { map: YAMLMap; id: string }[] = [];
  for (const item of node.items) {
    if (!isMap(item) || item.flow) return null;
    const id = item.get("id", true);
    if (!isScalar(id) || typeof id.value !== "string") return null;
    nodes.push({ map: item, id: id.value });
  }
  return { seq: node, nodes };
}

const pairOf = (map: YAMLMap, key: string): Pair | undefined => map.items.find((p) => isScalar(p.key) && p.key.value === key);

/** The plain string items of an `after` list; null when it is anything else. */
function afterList(pair: Pair): string[] | null {
  if (!isSeq(pair.value)) return null;
  const ids: string[] = [];
  for (const item of pair.value.items) {
    if (!isScalar(item) || typeof item.value !== "string") return null;
    ids.push(item.value);
  }
  return ids;
}

const flowList = (ids: readonly string[]): string => `[${ids.map((id) => yamlScalar(id, false)).join(", ")}]`;

/** `key: value` on a new line under the node's `id:` line, at the column of its keys. */
function lineUnderId(doc: ScenarioDocument, map: YAMLMap, line: string): TextEdit | null {
  const id = pairOf(map, "id");
  if (!id || !isScalar(id.key) || !id.key.range || !isScalar(id.value) || !id.value.range) return null;
  const column = doc.textDocument.positionAt(id.key.range[0]).character;
  const idLine = doc.textDocument.positionAt(id.value.range[1]).line;
  const lineText = doc.textDocument.getText({ start: { line: idLine, character: 0 }, end: { line: idLine + 1, character: 0 } });
  const at = { line: idLine, character: lineText.replace(/\r?\n$/, "").length };
  return { range: { start: at, end: at }, newText: `\n${" ".repeat(column)}${line}` };
}

/** The `after` list's value rewritten as `[ids]`, from just after its colon. */
function rewriteAfter(doc: ScenarioDocument, pair: Pair, ids: readonly string[]): TextEdit | null {
  if (!isScalar(pair.key) || !pair.key.range || !isSeq(pair.value) || !pair.value.range) return null;
  const colon = doc.text.indexOf(":", pair.key.range[1]);
  let end = pair.value.range[1];
  while (end > colon && /\s/.test(doc.text[end - 1] ?? "")) end--;
  if (colon < 0 || colon >= end) return null;
  return { range: { start: doc.textDocument.positionAt(colon + 1), end: doc.textDocument.positionAt(end) }, newText: ` ${flowList(ids)}` };
}

function dropAfter(doc: ScenarioDocument, milestone: string, edge: string): { title: string; edits: TextEdit[] } | null {
  const section = blockNodes(doc, "milestones");
  if (section === null) return null;
  const { nodes } = section;
  const index = nodes.findIndex((n) => n.id === milestone);
  if (index < 0) return null;
  const explicit = nodes.some((n) => pairOf(n.map, "after") !== undefined);
  const edits: (TextEdit | null)[] = [];
  if (explicit) {
    const target = nodes[index]!;
    const pair = pairOf(target.map, "after");
    const ids = pair ? afterList(pair) : null;
    if (!pair || ids === null || !ids.includes(edge)) return null;
    edits.push(
      rewriteAfter(
        doc,
        pair,
        ids.filter((id) => id !== edge),
      ),
    );
    // The edge's source may have been followed by this milestone only.
    const source = nodes.find((n) => n.id === edge);
    const followed = nodes.some((n) => {
      const after = n === target ? undefined : pairOf(n.map, "after");
      return after !== undefined && (afterList(after) ?? []).includes(edge);
    });
    if (source && !followed && pairOf(source.map, "after") === undefined) edits.push(lineUnderId(doc, source.map, "after: []"));
  } else {
    // The implicit chain: each node after the one before it. Written out, without the edge.
    if (nodes[index - 1]?.id !== edge) return null;
    nodes.forEach((n, i) => {
      const parents = i === 0 || i === index ? [] : [nodes[i - 1]!.id];
      edits.push(lineUnderId(doc, n.map, `after: ${flowList(parents)}`));
    });
  }
  if (edits.some((e) => e === null)) return null;
  const title = explicit
    ? `Drop ${edge} from the after list of milestone ${milestone}`
    : `Write the milestones' after lists out, leaving ${edge} out of ${milestone}'s`;
  return { title, edits: edits as TextEdit[] };
}

function callMinefield(doc: ScenarioDocument, tool: string): { title: string; edits: TextEdit[] } | null {
  const root = doc.source.doc.contents;
  if (!isMap(root) || root.flow) return null;
  const milestones = blockNodes(doc, "milestones");
  const existing = pairOf(root, "minefields");
  const minefields = existing ? blockNodes(doc, "minefields") : null;
  if (existing && minefields === null) return null;
  // Appended to a list that writes no `after`, the new minefield would join its implicit chain
  // and count only after the others: only a list with explicit edges (or none at all) takes it.
  const explicit = minefields?.nodes.some((n) => pairOf(n.map, "after") !== undefined) ?? false;
  if (minefields && minefields.nodes.length > 0 && !explicit) return null;
  const taken = new Set([...(milestones?.nodes ?? []), ...(minefields?.nodes ?? [])].map((n) => n.id));
  let id = `called_${tool}`;
  for (let n = 2; taken.has(id); n++) id = `called_${tool}_${n}`;

  const itemSeq = minefields?.seq.items.length ? minefields.seq : (milestones?.seq ?? null);
  const dash = dashColumn(doc, itemSeq?.items[0]);
  const at = (n: number): string => " ".repeat(dash + n);
  const item = [
    `${at(0)}- id: ${yamlScalar(id, false)}`,
    ...(explicit ? [`${at(2)}after: []`] : []),
    `${at(2)}constraints:`,
    `${at(4)}- kind: snapshot`,
    `${at(6)}table: SANDBOX`,
    `${at(6)}target:`,
    `${at(8)}- { sender: agent, recipient: execution_environment, content: ${yamlScalar(tool, false)} }`,
    `${at(6)}measures:`,
    `${at(8)}content: { kind: contains }`,
  ].join("\n");
  const title = `Add a minefield on a call to ${tool}`;

  if (minefields && minefields.nodes.length > 0 && minefields.seq.range) {
    let end = minefields.seq.range[1];
    while (end > 0 && /\s/.test(doc.text[end - 1] ?? "")) end--;
    const pos = doc.textDocument.positionAt(end);
    return { title, edits: [{ range: { start: pos, end: pos }, newText: `\n${item}` }] };
  }
  if (existing) return null; // `minefields:` with an empty or flow value: left to the author
  // A new section, before `reference:` (or at the end).
  const reference = pairOf(root, "reference");
  const section = `minefields:\n${item}\n`;
  if (reference && isScalar(reference.key) && reference.key.range) {
    const pos = doc.textDocument.positionAt(reference.key.range[0]);
    if (pos.character !== 0) return null;
    return { title, edits: [{ range: { start: pos, end: pos }, newText: section }] };
  }
  const end = doc.textDocument.positionAt(doc.text.length);
  return { title, edits: [{ range: { start: end, end }, newText: `${doc.text.endsWith("\n") ? "" : "\n"}${section}` }] };
}

/** The column of the `-` before a block list's item, the indentation the new item copies (2 when there is none to copy). */
function dashColumn(doc: ScenarioDocument, item: unknown): number {
  if (!isMap(item) || !item.range) return 2;
  let o = item.range[0] - 1;
  while (o > 0 && doc.text[o] === " ") o--;
  return doc.text[o] === "-" ? doc.textDocument.positionAt(o).character : 2;
}

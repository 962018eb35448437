// Hover: what the word under the cursor is. A tool shows its signature, description, state
// dependencies and errors; a table its key and columns; a column its type and meaning (all from
// the document's world pack); a measure what it does; a milestone id its place in the DAG and its
// last result; any other key what the schema says about it.
import type { Hover, Position } from "vscode-languageserver";
import { packById } from "../../engine/packs/registry.js";
import { isPackId } from "../../engine/packs/types.js";
import { BUILTIN_DEMONSTRATIONS } from "../../engine/scenario/prompts/demonstrations.js";
import type { ColumnMeasure } from "../../engine/scenario/model.js";
import { EXTRACTORS } from "../../engine/scenario/extractors.js";
import { CONSTRAINT_KIND_DOCS, columnMarkdown, MEASURE_DOCS, parameterMarkdown, tableMarkdown, toolMarkdown } from "./catalog-docs.js";
import { readTag } from "./completion-support.js";
import type { ScenarioDocument } from "./document.js";
import { guarded } from "./guard.js";
import { INITIAL_ID } from "./id-table.js";
import { type HoverRun, milestoneMarkdown } from "./milestone-hover.js";
import { scalarAt, type ScalarAt } from "./node-at.js";
import { describe, schemaAt } from "./schema-nav.js";
import { keySlot, valueSlot } from "./slots.js";
import { DIALOG_ACTION_DOCS, isDialogAction } from "../../engine/scenario/dialog-actions.js";
import { isTransactional } from "../../engine/scenario/apps.js";
import { describeWorldValue } from "./world-values.js";

/** `run`: the run whose result a milestone's hover gives (the one the editor shows, else the newest saved). */
export function hover(doc: ScenarioDocument, position: Position, run?: HoverRun | null): Hover | null {
  return guarded("hover", null, () => {
    const at = scalarAt(doc.source, doc.offsetAt(position));
    if (at === null) return null;
    const markdown = at.on === "key" ? keyMarkdown(doc, at) : valueMarkdown(doc, at, run ?? null);
    return markdown === null ? null : { contents: { kind: "markdown", value: markdown }, range: doc.rangeOf(at.start, at.end) };
  });
}

function keyMarkdown(doc: ScenarioDocument, at: ScalarAt): string | null {
  const name = String(at.value);
  const parent = at.path.slice(0, -1);
  const slot = keySlot(doc, parent);
  if (slot?.kind === "column") return columnMarkdown(doc.pack, slot.table, name);
  if (slot?.kind === "world" && doc.pack.schemas.has(name)) return tableMarkdown(doc.pack, name);
  if (slot?.kind === "argument") {
    const parameter = slot.tool.parameters.find((p) => p.name === name);
    return parameter ? parameterMarkdown(slot.tool, parameter) : null;
  }
  const declared = schemaAt(at.path, readTag(doc)).declared;
  const text = describe(declared);
  const title = typeof declared?.title === "string" ? declared.title : null;
  if (text === null && title === null) return null;
  return [`**${name}**${title && title !== name ? ` (${title})` : ""}`, text].filter((p): p is string => p !== null).join("\n\n");
}

function valueMarkdown(doc: ScenarioDocument, at: ScalarAt, run: HoverRun | null): string | null {
  const slot = valueSlot(doc, at.path);
  const text = typeof at.value === "string" ? at.value : null;
  if (slot === null || text === null) return null;
  switch (slot.kind) {
    case "tool": {
      const tool = doc.pack.toolByName(text);
      return tool ? toolMarkdown(tool, isTransactional(doc.pack, tool.name)) : null;
    }
    case "table":
      return tableMarkdown(doc.pack, text);
    case "pack":
      return isPackId(text) ? `**${text}** world pack\n\n${packById(text).title}` : null;
    case "measure":
      return text in MEASURE_DOCS ? `**${text}** measure\n\n${MEASURE_DOCS[text as ColumnMeasure["kind"]]}` : null;
    case "reference":
      if (text === INITIAL_ID)
        return "**initial**\n\nThe world as it was when the user first spoke: the state before the agent did anything.";
      return milestoneMarkdown(doc.ids.nodes[slot.section], slot.section, text, run);
    case "node-id":
    case "after":
      return milestoneMarkdown(doc.ids.nodes[slot.section], slot.section, text, run);
    case "constraint-kind": {
      const doc = CONSTRAINT_KIND_DOCS[text];
      return doc === undefined ? null : `**${text}** constraint\n\n${doc}`;
    }
    case "column-value": {
      const row = describeWorldValue(doc, slot.column, text, { table: slot.table });
      return row === null ? null : `\`${text}\` — ${row}`;
    }
    case "argument-value": {
      const row = describeWorldValue(doc, slot.parameter.name, text, { tool: slot.tool.name });
      return row === null ? null : `\`${text}\` — ${row}`;
    }
    case "demonstration": {
      const demo = BUILTIN_DEMONSTRATIONS[text];
      return demo ? `**Built-in demonstration** \`${text}\`\n\nGoal: ${demo.goal}\n\n${demo.messages.length} messages.` : null;
    }
    case "extractor": {
      const rules = EXTRACTORS[text];
      if (!rules) return null;
      return [`**Extractor** \`${text}\``, ...rules.map((r) => `- \`${r.path}\` → \`{${r.as}}\` (${r.normalize})`)].join("\n");
    }
    case "timezone":
      return null;
    case "dialog-action":
      return isDialogAction(text) ? `**${text}** (DialogTool action)\n\n${DIALOG_ACTION_DOCS[text]}.` : null;
  }
}

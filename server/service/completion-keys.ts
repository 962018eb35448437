// Key completion: the columns of the table a row describes, the arguments of the tool a call
// names, the world pack's tables in the world section, or the keys the schema allows here; never
// a key the mapping already has.
import { CompletionItemKind, type CompletionItem } from "vscode-languageserver";
import type { PathSegment } from "../../engine/scenario/yaml-source.js";
import { columnMarkdown, measuresFor, parameterMarkdown, parameterType, tableColumns, tableMarkdown } from "./catalog-docs.js";
import { existingKeys, readTag, type ItemFactory } from "./completion-support.js";
import type { CursorContext, ScenarioDocument } from "./document.js";
import { deref, describe, propertiesOf, requiredOf, schemaAt, typesOf, asSchema, enumValues, type Schema } from "./schema-nav.js";
import { keySlot } from "./slots.js";
import { escapeSnippet } from "./snippets.js";

/**
 * Keys for the mapping at `mapPath`. `dash` ("- " or "") is put before each key when the key
 * starts a new list entry.
 */
export function keyItems(
  doc: ScenarioDocument,
  ctx: CursorContext,
  mapPath: readonly PathSegment[],
  factory: ItemFactory,
  dash: string,
): CompletionItem[] {
  const existing = existingKeys(doc, mapPath, ctx);
  const slot = keySlot(doc, mapPath);
  if (slot?.kind === "column") {
    return tableColumns(doc.pack, slot.table)
      .filter((c) => !existing.has(c.name))
      .map((c, i) => {
        const markdown = columnMarkdown(doc.pack, slot.table, c.name) ?? c.description;
        const measures = slot.purpose === "measures" ? measuresFor(doc.pack, slot.table, c.name) : null;
        const value = measures ? ` { kind: \${1|${measures.join(",")}|} }` : null;
        return keyItem(factory, c.name, CompletionItemKind.Field, dash, value, `${i}`.padStart(3, "0"), {
          detail: c.type,
          documentation: { kind: "markdown", value: markdown },
        });
      });
  }
  if (slot?.kind === "argument") {
    return slot.tool.parameters
      .filter((p) => !existing.has(p.name))
      .map((p, i) =>
        keyItem(factory, p.name, CompletionItemKind.Variable, dash, null, `${p.required ? 0 : 1}${`${i}`.padStart(3, "0")}`, {
          detail: `${parameterType(p)}${p.required ? " (required)" : ""}`,
          documentation: { kind: "markdown", value: parameterMarkdown(slot.tool, p) },
        }),
      );
  }
  const branches = schemaAt(mapPath, readTag(doc)).branches;
  const seen = new Set<string>();
  const items: CompletionItem[] = slot?.kind === "world" ? worldTableItems(doc, factory, existing, dash) : [];
  for (const branch of branches) {
    const required = new Set(requiredOf(branch));
    propertiesOf(branch).forEach(([name, property], i) => {
      if (existing.has(name) || seen.has(name)) return;
      seen.add(name);
      const description = describe(property) ?? describe(deref(property)) ?? "";
      const body = factory.ctx.inFlow ? null : valueLayout(property, factory.ctx.indent + dash.length);
      items.push(
        keyItem(factory, name, CompletionItemKind.Property, dash, body, `${required.has(name) ? 0 : 1}${`${i}`.padStart(3, "0")}`, {
          ...(required.has(name) ? { detail: "required" } : {}),
          ...(description ? { documentation: { kind: "markdown", value: description } } : {}),
        }),
      );
    });
  }
  return items;
}

/** The world pack's tables, for the world section: a singleton's columns follow on new lines, like a table's changes. */
function worldTableItems(doc: ScenarioDocument, factory: ItemFactory, existing: ReadonlySet<string>, dash: string): CompletionItem[] {
  const layout = factory.ctx.inFlow ? null : `\n${" ".repeat(factory.ctx.indent + dash.length + 2)}$0`;
  return [...doc.pack.schemas.values()]
    .filter((t) => !existing.has(t.name))
    .map((t, i) =>
      keyItem(factory, t.name, CompletionItemKind.Struct, dash, layout, `2${`${i}`.padStart(3, "0")}`, {
        detail: `${doc.pack.id} table`,
        documentation: { kind: "markdown", value: tableMarkdown(doc.pack, t.name) ?? t.description },
      }),
    );
}

/**
 * What follows `key:` for a value of this schema: a new indented line for a mapping or a list of
 * mappings, brackets for a list of words, or nothing (a space) for a scalar.
 */
function valueLayout(property: Schema, indent: number): string | null {
  const types = typesOf(property);
  const pad = " ".repeat(indent + 2);
  if (types.includes("object") && !types.includes("string")) return `\n${pad}$0`;
  if (types.includes("array")) {
    const items = deref(asSchema(property.items));
    const scalarItems = items !== null && (enumValues(items).length > 0 || typesOf(items).some((t) => t === "string" || t === "number"));
    return scalarItems && !items?.properties ? " [$0]" : `\n${pad}- $0`;
  }
  if (property.const === true) return " true";
  return null;
}

function keyItem(
  factory: ItemFactory,
  name: string,
  kind: CompletionItemKind,
  dash: string,
  layout: string | null,
  sort: string,
  extra: Partial<CompletionItem>,
): CompletionItem {
  if (factory.followedByColon) return factory.item(name, kind, { text: dash + name }, { sortText: sort, ...extra });
  const text = layout === null ? `${dash}${name}: ` : `${dash}${escapeSnippet(name)}:${layout}`;
  return factory.item(
    name,
    kind,
    { text, snippet: layout !== null, filterText: dash ? `${dash}${name}` : name },
    { sortText: sort, ...extra },
  );
}

// Value completion: tool and table names of the document's world pack, world ids and other column
// or argument values, measures, milestone ids for `after:` and `reference:`, built-in names, and
// the schema's enums.
import { CompletionItemKind, type CompletionItem } from "vscode-languageserver";
import { BUILTIN_DEMONSTRATIONS } from "../../engine/scenario/prompts/demonstrations.js";
import { EXTRACTORS, EXTRACTOR_NAMES } from "../../engine/scenario/extractors.js";
import type { PathSegment } from "../../engine/scenario/yaml-source.js";
import { packById } from "../../engine/packs/registry.js";
import { PACK_IDS } from "../../engine/packs/types.js";
import { unavailableReason } from "../../engine/scenario/tool-calls.js";
import {
  CONSTRAINT_KIND_DOCS,
  MEASURE_DOCS,
  measuresFor,
  tableColumns,
  tableMarkdown,
  toolMarkdown,
  toolSignature,
} from "./catalog-docs.js";
import { existingListValues, readTag, yamlScalar, type ItemFactory } from "./completion-support.js";
import type { CursorContext, ScenarioDocument } from "./document.js";
import { ancestorsOf, effectiveParents, INITIAL_ID, type IdSection } from "./id-table.js";
import { describe, enumValues, schemaAt, typesOf } from "./schema-nav.js";
import { valueSlot, type ToolPurpose } from "./slots.js";
import { suggestedValues, type SuggestedValue } from "./world-values.js";
import { isSeq, isScalar } from "yaml";
import { DIALOG_ACTION_DOCS, DIALOG_ACTIONS } from "../../engine/scenario/dialog-actions.js";

/** Values for the scalar at `path`; `dash` ("- " or "") starts a new list entry before each. */
export function valueItems(
  doc: ScenarioDocument,
  ctx: CursorContext,
  path: readonly PathSegment[],
  factory: ItemFactory,
  dash = "",
): CompletionItem[] {
  const slot = valueSlot(doc, path);
  const value = (
    text: string | number | boolean,
    kind: CompletionItemKind,
    sort: string,
    extra: Partial<CompletionItem> = {},
  ): CompletionItem => {
    const label = String(text);
    return factory.item(
      label,
      kind,
      { text: dash + yamlScalar(text, factory.inQuotes), filterText: dash ? `${dash}${label}` : label },
      { sortText: sort, ...extra },
    );
  };
  switch (slot?.kind) {
    case "tool":
      return toolItems(doc, path, slot.purpose, value);
    case "table":
      return tableItems(doc, path, slot.sandbox, value);
    case "pack":
      return PACK_IDS.map((id, i) => value(id, CompletionItemKind.EnumMember, `${i}`, { detail: packById(id).title }));
    case "column-value": {
      const column = tableColumns(doc.pack, slot.table).find((c) => c.name === slot.column);
      const role = slot.table === "SANDBOX" && ["sender", "recipient", "visible_to"].includes(slot.column);
      const found = suggestedValues(doc, slot.column, {
        table: slot.table,
        timestamp: column?.column?.timestamp === true,
        boolean: column?.column?.type === "bool" || column?.type === "bool",
        role,
      });
      return worldItems(found, value);
    }
    case "argument-value": {
      const p = slot.parameter;
      return worldItems(
        suggestedValues(doc, p.name, { tool: slot.tool.name, timestamp: p.timestamp === true, boolean: p.type === "boolean" }),
        value,
      );
    }
    case "measure":
      return measuresFor(doc.pack, slot.table, slot.column).map((m, i) =>
        value(m, CompletionItemKind.EnumMember, `${i}`, { documentation: { kind: "markdown", value: MEASURE_DOCS[m] } }),
      );
    case "after":
      return afterItems(doc, slot.section, slot.node, path, value);
    case "reference":
      return referenceItems(doc, slot.section, slot.node, value);
    case "constraint-kind":
      return Object.entries(CONSTRAINT_KIND_DOCS).map(([k, text], i) =>
        value(k, CompletionItemKind.EnumMember, `${i}`, { documentation: { kind: "markdown", value: text } }),
      );
    case "demonstration": {
      const used = existingListValues(doc, path);
      return Object.values(BUILTIN_DEMONSTRATIONS)
        .filter((d) => !used.has(d.name))
        .map((d) => value(d.name, CompletionItemKind.Reference, d.name, { detail: d.goal }));
    }
    case "extractor":
      return EXTRACTOR_NAMES.map((name) => {
        const rules = (EXTRACTORS[name] ?? []).map((r) => `${r.path} → {${r.as}} (${r.normalize})`).join(", ");
        return value(name, CompletionItemKind.Function, name, { detail: rules });
      });
    case "timezone":
      return timezones().map((zone) => value(zone, CompletionItemKind.Value, zone));
    case "dialog-action":
      return DIALOG_ACTIONS.map((a, i) =>
        value(a, CompletionItemKind.EnumMember, `${i}`, {
          detail: DIALOG_ACTION_DOCS[a],
          documentation: { kind: "markdown", value: `DialogTool action: ${DIALOG_ACTION_DOCS[a]}.` },
        }),
      );
    case "node-id":
      return [];
    default:
      return schemaValues(doc, ctx, path, value);
  }
}

type ValueMaker = (
  text: string | number | boolean,
  kind: CompletionItemKind,
  sort: string,
  extra?: Partial<CompletionItem>,
) => CompletionItem;

function worldItems(found: readonly SuggestedValue[], value: ValueMaker): CompletionItem[] {
  return found.map((v, i) =>
    value(
      v.value,
      v.kind === "id" ? CompletionItemKind.Reference : CompletionItemKind.Value,
      `${i}`.padStart(3, "0"),
      v.detail === undefined ? {} : { detail: v.detail, labelDetails: { description: v.detail } },
    ),
  );
}

/**
 * Tools: for allow/deny not those already listed. For a reference call, and for a milestone's or
 * minefield's tool trace, the tools the scenario does not let the agent call come after the others,
 * marked with the reason: kept rather than hidden, because an author writing a milestone before
 * the tools list would otherwise look for a tool that seems not to exist, and the mark says which
 * list to change. (A milestone expecting such a call can never be reached; a minefield on one
 * can never be hit.) A user-only tool in a trace is the user's call, which the lists do not limit.
 */
function toolItems(doc: ScenarioDocument, path: readonly PathSegment[], purpose: ToolPurpose, value: ValueMaker): CompletionItem[] {
  const listed = purpose === "allow" || purpose === "deny" ? existingListValues(doc, path) : new Set<string>();
  const lists = { allow: writtenList(doc, ["tools", "allow"]), deny: writtenList(doc, ["tools", "deny"]) ?? [] };
  const items: CompletionItem[] = [];
  doc.pack.tools.forEach((tool, i) => {
    if (listed.has(tool.name)) return;
    const agentTool = tool.visibleTo.includes("agent");
    if (!agentTool && purpose !== "trace") return;
    const reason = purpose === "call" || (purpose === "trace" && agentTool) ? unavailableReason(tool, lists) : null;
    const mark = purpose === "trace" ? "not allowed in this scenario" : "not offered";
    items.push(
      value(tool.name, CompletionItemKind.Function, `${reason === null ? 0 : 1}${`${i}`.padStart(3, "0")}`, {
        detail: reason === null ? toolSignature(tool) : `${mark}: ${reason}`,
        ...(reason === null ? {} : { labelDetails: { description: mark } }),
        documentation: { kind: "markdown", value: toolMarkdown(tool) },
      }),
    );
  });
  return items;
}

/** The pack's world tables (not those a guardrail list already names), and SANDBOX where a message may be compared. */
function tableItems(doc: ScenarioDocument, path: readonly PathSegment[], sandbox: boolean, value: ValueMaker): CompletionItem[] {
  const listed = typeof path[path.length - 1] === "number" ? existingListValues(doc, path) : new Set<string>();
  const names = [...doc.pack.schemas.keys(), ...(sandbox ? ["SANDBOX"] : [])].filter((name) => !listed.has(name));
  return names.map((name, i) =>
    value(name, CompletionItemKind.Struct, `${i}`.padStart(3, "0"), {
      detail: name === "SANDBOX" ? "the message bus" : `${doc.pack.id} table`,
      documentation: { kind: "markdown", value: tableMarkdown(doc.pack, name) ?? "" },
    }),
  );
}

function writtenList(doc: ScenarioDocument, path: readonly PathSegment[]): string[] | null {
  try {
    const found = doc.source.locate(path);
    if (!found.complete || !isSeq(found.node)) return null;
    return found.node.items.flatMap((item) => (isScalar(item) && typeof item.value === "string" ? [item.value] : []));
  } catch {
    return null;
  }
}

/** Ids of the same section for `after:`: not the node itself, not listed yet, not one that comes after it (a cycle). */
function afterItems(
  doc: ScenarioDocument,
  section: IdSection,
  node: number,
  path: readonly PathSegment[],
  value: ValueMaker,
): CompletionItem[] {
  const nodes = doc.ids.nodes[section];
  const self = nodes.find((n) => n.index === node)?.id ?? null;
  const listed = existingListValues(doc, path);
  const parents = effectiveParents(nodes);
  const items: CompletionItem[] = [];
  for (const n of nodes) {
    if (n.id === null || n.id === self || listed.has(n.id)) continue;
    if (self !== null && ancestorsOf(parents, n.id).has(self)) continue;
    items.push(value(n.id, CompletionItemKind.Reference, `${n.index}`.padStart(4, "0"), nodeDetail(n.description)));
  }
  return items;
}

/** `initial` and the ancestors: the only ids a constraint may refer to (another would be an error). */
function referenceItems(doc: ScenarioDocument, section: IdSection, node: number, value: ValueMaker): CompletionItem[] {
  const nodes = doc.ids.nodes[section];
  const self = nodes.find((n) => n.index === node)?.id ?? null;
  const ancestors = self === null ? new Set<string>() : ancestorsOf(effectiveParents(nodes), self);
  const items = [value(INITIAL_ID, CompletionItemKind.Constant, "0", { detail: "the world when the user first speaks" })];
  for (const n of nodes) {
    if (n.id === null || n.id === self || !ancestors.has(n.id)) continue;
    items.push(value(n.id, CompletionItemKind.Reference, `1${`${n.index}`.padStart(4, "0")}`, nodeDetail(n.description)));
  }
  return items;
}

function nodeDetail(description: string | null): Partial<CompletionItem> {
  return description === null ? {} : { detail: description, labelDetails: { description } };
}

/** Enums, constants and booleans the schema allows at `path`. */
function schemaValues(doc: ScenarioDocument, ctx: CursorContext, path: readonly PathSegment[], value: ValueMaker): CompletionItem[] {
  void ctx;
  const branches = schemaAt(path, readTag(doc)).branches;
  const used = typeof path[path.length - 1] === "number" ? existingListValues(doc, path) : new Set<string>();
  const seen = new Set<string>();
  const items: CompletionItem[] = [];
  for (const branch of branches) {
    const values = [...enumValues(branch)];
    if (typesOf(branch).includes("boolean")) values.push(true, false);
    for (const v of values) {
      if (typeof v !== "string" && typeof v !== "number" && typeof v !== "boolean") continue;
      const label = String(v);
      if (seen.has(label) || used.has(label)) continue;
      seen.add(label);
      const description = describe(branch);
      items.push(
        value(
          v,
          CompletionItemKind.EnumMember,
          `${items.length}`.padStart(3, "0"),
          description ? { documentation: { kind: "markdown", value: description } } : {},
        ),
      );
    }
  }
  return items;
}

let zones: readonly string[] | null = null;

function timezones(): readonly string[] {
  zones ??= [...Intl.supportedValuesOf("timeZone"), "UTC"];
  return zones;
}

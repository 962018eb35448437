// Writes an imported scenario as YAML through the `yaml` library's document API, so any text
// (quotes, colons, `#`, line breaks, leading spaces) comes out correctly quoted; nothing here
// concatenates YAML by hand. Short maps and lists are written in flow style, as the hand-written
// samples are; the key order is fixed, so the same parts always give the same bytes.
import { Document, Scalar, visit, type Node } from "yaml";
import type { JsonObject, JsonValue } from "../../../base/json.js";
import type { Category } from "../../../scenario/model.js";
import type { ConstraintPart, NodePart } from "./parts.js";
import type { ScriptStep } from "./script.js";
import type { KnowledgeFact } from "./user-setup.js";

export interface ScenarioParts {
  /** The `$schema` path for the first-line modeline, relative to the file; null for no modeline. */
  readonly schemaPath: string | null;
  readonly name: string;
  readonly description: string;
  readonly categories: readonly Category[];
  readonly clock: { readonly now: string; readonly timezone: string };
  /** World changes after `pack` and `base`, table by table. */
  readonly world: JsonObject;
  readonly systemPrompt: string;
  readonly user: { readonly goal: string; readonly knowledge: readonly KnowledgeFact[]; readonly opening: string };
  readonly maxMessages: number;
  readonly milestones: readonly NodePart[];
  readonly minefields: readonly NodePart[];
  readonly steps: readonly ScriptStep[];
}

/** Flow style up to this many characters of JSON. */
const FLOW_LIMIT = 90;

function node(doc: Document, value: unknown, flow = false): Node {
  return doc.createNode(value, { flow }) as Node;
}

/**
 * Texts that stay plain inside `{...}` and `[...]` for every YAML reader. PyYAML, for one, ends a
 * plain scalar in flow context at `?`, `,`, `:` or a bracket, where YAML 1.2 would not.
 */
const FLOW_SAFE = /^[\p{L}\p{N} _@.'/+-]*$/u;

function flowSafe(value: JsonValue): boolean {
  if (typeof value === "string") return FLOW_SAFE.test(value);
  if (value === null || typeof value !== "object") return true;
  return (Array.isArray(value) ? value : Object.values(value)).every(flowSafe);
}

/** A short map or list in flow style; a long one in block style, its own items compacted the same way. */
function compact(doc: Document, value: JsonValue): Node | JsonValue {
  if (value === null || typeof value !== "object") return value;
  if (JSON.stringify(value).length <= FLOW_LIMIT && flowSafe(value)) return node(doc, value, true);
  if (Array.isArray(value))
    return node(
      doc,
      value.map((item) => compact(doc, item)),
    );
  return node(doc, Object.fromEntries(Object.entries(value).map(([key, item]) => [key, compact(doc, item)])));
}

function constraintNode(doc: Document, c: ConstraintPart): Node {
  return node(doc, {
    kind: c.kind,
    table: c.table,
    ...(c.reference !== undefined ? { reference: c.reference } : {}),
    target: c.target.map((row) => compact(doc, row)),
    ...(c.measures ? { measures: compact(doc, c.measures) } : {}),
  });
}

function nodePart(doc: Document, n: NodePart): Node {
  return node(doc, {
    id: n.id,
    description: n.description,
    after: node(doc, n.after, true),
    ...(n.exclude ? { guardrails: node(doc, { exclude: n.exclude }, true) } : {}),
    constraints: n.constraints.map((c) => constraintNode(doc, c)),
  });
}

function stepNode(doc: Document, step: ScriptStep): Node {
  switch (step.kind) {
    case "user":
      return node(doc, { user: step.text });
    case "agent":
      return node(doc, { agent: step.text });
    case "call":
      return node(doc, { calls: [node(doc, { tool: step.call.tool, arguments: compact(doc, step.call.arguments) })] });
  }
}

export function scenarioYaml(parts: ScenarioParts): string {
  // Written with YAML 1.1's resolution rules, so every string a YAML 1.1 reader would take for a
  // number, a time or a boolean ("18:00:00", "2023-10-04 00:00:00", "yes") is quoted; the checker
  // reads YAML 1.2, for which the quotes change nothing. No %YAML directive is written.
  const doc = new Document(undefined, { version: "1.1" });
  const root = node(doc, {
    name: parts.name,
    description: parts.description,
    categories: node(doc, parts.categories, true),
    clock: node(doc, parts.clock, true),
    world: node(doc, {
      pack: "tooltalk",
      base: "empty",
      ...Object.fromEntries(Object.entries(parts.world).map(([table, change]) => [table, compact(doc, change)])),
    }),
    agent: node(doc, { system_prompt: parts.systemPrompt }),
    user: node(doc, {
      goal: parts.user.goal,
      knowledge: parts.user.knowledge.map((k) => compact(doc, { ...k })),
      demonstrations: node(doc, [], true),
      opening: parts.user.opening,
    }),
    max_messages: parts.maxMessages,
    milestones: parts.milestones.map((m) => nodePart(doc, m)),
    minefields: parts.minefields.map((m) => nodePart(doc, m)),
    reference: [...parts.steps.map((s) => stepNode(doc, s)), node(doc, { end_conversation: true })],
  });
  if (parts.schemaPath !== null) root.commentBefore = ` yaml-language-server: $schema=${parts.schemaPath}`;
  doc.contents = root;
  // Texts of several lines (system prompts, goals, some messages) read best as literal blocks.
  visit(doc, {
    Scalar(_key, scalar) {
      if (typeof scalar.value === "string" && scalar.value.includes("\n")) scalar.type = Scalar.BLOCK_LITERAL;
    },
  });
  return doc.toString({ lineWidth: 100, flowCollectionPadding: false });
}

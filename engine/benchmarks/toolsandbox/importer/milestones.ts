// Milestones and minefields of an exported scenario in the format's terms: each constraint with
// its similarity function, reference node, target rows and column measures; guardrail choices;
// the graph as `after` lists (nothing written when upstream used its default chain).
import type { JsonObject, JsonValue } from "../../../base/json.js";
import type { ExportedConstraint, ExportedGraph, FunctionSpec, Paired } from "./export-data.js";
import { roleName } from "./conversation.js";
import type { Clock } from "./time-values.js";
import type { ImportWarning } from "./warnings.js";
import { timedRow } from "./world.js";

const KIND_OF_SIMILARITY: Readonly<Record<string, string>> = {
  snapshot_similarity: "snapshot",
  addition_similarity: "addition",
  removal_similarity: "removal",
  update_similarity: "update",
  tool_trace_dependant_similarity: "tool_trace_extract",
};

const MEASURE_OF_SIMILARITY: Readonly<Record<string, string>> = {
  column_exact_match_similarity: "exact",
  column_contains_similarity: "contains",
  column_rouge_l_similarity: "rouge_l",
  column_one_similarity: "any",
  column_close_similarity: "close",
  column_tool_trace_exact_match_similarity: "tool_trace",
};

const ALL_TABLES = ["SANDBOX", "SETTING", "CONTACT", "MESSAGING", "REMINDER"];

export class UnsupportedConstruct extends Error {}

function nodeId(section: "milestones" | "minefields", index: number): string {
  return `${section === "milestones" ? "milestone" : "minefield"}_${index}`;
}

/** A number that is upstream's `float('inf')` (the exporter writes `{"float": "inf"}`). */
function numberValue(v: JsonValue | FunctionSpec | undefined): number | null {
  if (typeof v === "number") return v;
  if (v !== null && typeof v === "object" && !Array.isArray(v) && "float" in v && v.float === "inf") return Number.POSITIVE_INFINITY;
  return null;
}

function measure(column: string, spec: FunctionSpec): JsonObject {
  const kind = MEASURE_OF_SIMILARITY[spec.name];
  if (kind === undefined) throw new UnsupportedConstruct(`column similarity ${spec.name} on ${column}`);
  const atolDict = spec.arguments.atol_dict;
  if (kind === "close") {
    const tolerances =
      atolDict !== null && typeof atolDict === "object" && !Array.isArray(atolDict) ? (atolDict as Record<string, JsonValue>) : {};
    const atol = numberValue(tolerances[column]);
    if (atol === null) throw new UnsupportedConstruct(`column_close_similarity on ${column} without a tolerance for that column`);
    return { kind, atol };
  }
  if (kind === "tool_trace" && atolDict !== undefined && atolDict !== null && typeof atolDict === "object" && !Array.isArray(atolDict)) {
    const atol: JsonObject = {};
    for (const [argument, value] of Object.entries(atolDict as Record<string, JsonValue>)) {
      const n = numberValue(value);
      if (n === null) throw new UnsupportedConstruct(`tool-trace tolerance of ${argument} is not a number`);
      atol[argument] = n;
    }
    return { kind, atol };
  }
  if (Object.keys(spec.arguments).length > 0) throw new UnsupportedConstruct(`arguments of ${spec.name} on ${column}`);
  return { kind };
}

/** A target row: roles in lower case (sender and recipient first), tool traces parsed from their JSON text, timestamps as expressions. */
function targetRow(row: Paired<JsonObject>, clocks: Paired<Clock>, warn: (m: string) => void): JsonObject {
  const timed = timedRow(row, clocks, warn);
  const out: JsonObject = {};
  for (const column of ["sender", "recipient"]) if (column in timed) out[column] = timed[column] ?? null;
  Object.assign(out, timed);
  for (const column of ["sender", "recipient"]) {
    if (column in out) out[column] = roleName(out[column]) ?? out[column] ?? null;
  }
  if (Array.isArray(out.visible_to)) out.visible_to = out.visible_to.map((r) => roleName(r) ?? r);
  if (typeof out.tool_trace === "string") {
    const a = JSON.parse(out.tool_trace) as JsonValue;
    const b = typeof row.b.tool_trace === "string" ? (JSON.parse(row.b.tool_trace) as JsonValue) : a;
    out.tool_trace = JSON.stringify(a) === JSON.stringify(b) ? a : timedTrace(a, b, clocks, warn);
  }
  return out;
}

function timedTrace(a: JsonValue, b: JsonValue, clocks: Paired<Clock>, warn: (m: string) => void): JsonValue {
  const traces = (v: JsonValue): JsonObject[] => (Array.isArray(v) ? (v as JsonObject[]) : [v as JsonObject]);
  const ta = traces(a);
  const tb = traces(b);
  const timed = ta.map((trace, i) => ({
    ...trace,
    arguments: timedRow({ a: (trace.arguments ?? {}) as JsonObject, b: ((tb[i] ?? trace).arguments ?? {}) as JsonObject }, clocks, warn),
  }));
  return Array.isArray(a) ? timed : (timed[0] ?? null);
}

function constraint(
  section: "milestones" | "minefields",
  c: Paired<ExportedConstraint>,
  clocks: Paired<Clock>,
  warn: (m: string) => void,
): JsonObject {
  const kind = KIND_OF_SIMILARITY[c.a.similarity.name];
  if (kind === undefined) throw new UnsupportedConstruct(`snapshot similarity ${c.a.similarity.name}`);
  const out: JsonObject = { kind, table: c.a.table };
  const ref = c.a.referenceIndex;
  if (ref !== null) {
    const reference = ref === -1 ? "initial" : nodeId(section, ref);
    // addition, removal and update compare with the first user message by default, as upstream's -1.
    if (!(reference === "initial" && kind !== "snapshot" && kind !== "tool_trace_extract")) out.reference = reference;
  }
  if (kind === "tool_trace_extract") {
    const extractor = c.a.similarity.arguments.extractor;
    const fill = c.a.similarity.arguments.fill_to;
    if (extractor === null || typeof extractor !== "object" || Array.isArray(extractor) || typeof extractor.name !== "string") {
      throw new UnsupportedConstruct("tool_trace_dependant_similarity without a named extractor");
    }
    out.extractor = extractor.name.replace(/_extractor$/, "");
    if (typeof fill === "string") out.fill = fill;
  } else if (Object.keys(c.a.similarity.arguments).length > 0) {
    throw new UnsupportedConstruct(`arguments of ${c.a.similarity.name}`);
  }
  const target = c.a.target ?? [];
  out.target = target.map((row, i) => targetRow({ a: row, b: c.b.target?.[i] ?? row }, clocks, warn));
  const measures = Object.entries(c.a.measures);
  if (measures.length > 0) out.measures = Object.fromEntries(measures.map(([column, spec]) => [column, measure(column, spec)]));
  return out;
}

function isDefaultChain(graph: ExportedGraph): boolean {
  const n = graph.nodes.length;
  if (graph.edges.length !== Math.max(0, n - 1)) return false;
  return graph.edges.every(([from, to], i) => from === i && to === i + 1);
}

export function convertGraph(
  scenario: string,
  section: "milestones" | "minefields",
  graph: Paired<ExportedGraph>,
  clocks: Paired<Clock>,
  warnings: ImportWarning[],
): JsonObject[] {
  const chain = isDefaultChain(graph.a);
  const inGraph = new Set(graph.a.edges.flat());
  return graph.a.nodes.map((node, i) => {
    const construct = `${section}[${i}]`;
    const warn = (message: string): void => void warnings.push({ scenario, construct, message });
    const out: JsonObject = { id: nodeId(section, i) };
    if (!chain) {
      out.after = graph.a.edges.filter(([, to]) => to === i).map(([from]) => nodeId(section, from));
      if (graph.a.nodes.length > 1 && !inGraph.has(i)) {
        warn(
          "upstream leaves this node out of its graph (it is in no edge), so upstream never matches it; here it stands alone and is scored",
        );
      }
    }
    const exclusion = node.guardrailExclusion;
    if (exclusion !== null) {
      out.guardrails = { exclude: exclusion.filter((t) => t !== "SANDBOX") };
    } else if (!ALL_TABLES.every((t) => node.guardrailTables.includes(t))) {
      out.guardrails = { tables: node.guardrailTables.filter((t) => t !== "SANDBOX") };
    }
    out.constraints = node.constraints.map((c, j) => {
      try {
        return constraint(section, { a: c, b: graph.b.nodes[i]?.constraints[j] ?? c }, clocks, warn);
      } catch (e) {
        if (e instanceof UnsupportedConstruct) throw new UnsupportedConstruct(`${construct}.constraints[${j}]: ${e.message}`);
        throw e;
      }
    });
    return out;
  });
}

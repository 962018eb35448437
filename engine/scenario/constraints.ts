// One constraint of a milestone or minefield: its kind, table, target, measures, the state it is
// compared against, and for tool_trace_extract how values are pulled from the referenced trace.
import type { Constraint, ConstraintReference, ExtractionRule, TargetRow } from "./model.js";
import { EXTRACTORS, EXTRACTOR_NAMES } from "./extractors.js";
import { INITIAL, type MilestoneGraph } from "./milestone-graph.js";
import { lookupTable, SANDBOX } from "./pack-tables.js";
import { has, list, obj, str, type RawObject } from "./raw.js";
import { closestMatch, didYouMean } from "./suggest.js";
import { checkToleranceKeys, resolveMeasures, resolveTarget } from "./targets.js";
import type { ToolContext } from "./tool-calls.js";
import type { Path } from "./yaml-source.js";

const KINDS = ["snapshot", "addition", "removal", "update", "tool_trace_extract"] as const;

/** The resolved constraint, or null when its kind (the schema reports it) or table is unusable. */
export function resolveConstraint(
  ctx: ToolContext,
  path: Path,
  raw: unknown,
  graph: MilestoneGraph,
  nodeId: string | null,
): Constraint | null {
  const c = obj(raw);
  const kind = KINDS.find((k) => k === c?.kind);
  const table = str(c?.table);
  if (!c || !kind || table === null) return null;
  // A tool_trace_extract target is a message whatever table was written (that mistake is reported once, below).
  const targetTable = kind === "tool_trace_extract" ? SANDBOX : table;
  if (kind !== "tool_trace_extract" && lookupTable(ctx, [...path, "table"], table, { sandbox: kind === "snapshot" }) === null) return null;
  const target = resolveTarget(ctx, [...path, "target"], targetTable, c.target);
  const measures = resolveMeasures(ctx, [...path, "measures"], targetTable, c.measures);
  checkToleranceKeys(ctx, [...path, "measures"], target, c.measures);
  const reference = resolveReference(ctx, path, c, graph, nodeId);
  if (targetTable === "SANDBOX" && Array.isArray(c.target) && c.target.length !== 1) {
    ctx.reporter.report(
      [...path, "target"],
      "sandbox-one-row",
      `A SANDBOX target describes one message, so it has exactly one row (found ${c.target.length}).`,
    );
  }
  switch (kind) {
    case "snapshot":
      return { kind, table, target, measures, reference };
    case "addition":
    case "removal":
    case "update":
      return { kind, table, target, measures, reference: reference ?? { kind: "initial" } };
    case "tool_trace_extract":
      return resolveExtract(ctx, path, c, table, target, measures, reference);
  }
}

function resolveReference(
  ctx: ToolContext,
  path: Path,
  c: RawObject,
  graph: MilestoneGraph,
  nodeId: string | null,
): ConstraintReference | null {
  const ref = str(c.reference);
  if (ref === null) return null;
  if (ref === INITIAL) return { kind: "initial" };
  const noun = graph.section === "milestones" ? "milestone" : "minefield";
  const known = graph.ids.filter((id): id is string => id !== null);
  if (!known.includes(ref)) {
    const suggestion = closestMatch(ref, [INITIAL, ...known]);
    ctx.reporter.report([...path, "reference"], "unknown-milestone", `No ${noun} has the id "${ref}".${didYouMean(suggestion)}`, {
      data: suggestion === null ? undefined : { suggestion },
    });
    return null;
  }
  if (nodeId !== null && !graph.isAncestor(ref, nodeId)) {
    const message =
      ref === nodeId
        ? `A ${noun} cannot compare with its own match. Use "initial" or an ancestor.`
        : `"${ref}" is not an ancestor of "${nodeId}", so it may match later. Use "initial" or an ancestor, or add an \`after\` edge.`;
    ctx.reporter.report([...path, "reference"], "reference-not-ancestor", message);
    return null;
  }
  return { kind: "milestone", id: ref };
}

function resolveExtract(
  ctx: ToolContext,
  path: Path,
  c: RawObject,
  table: string,
  target: TargetRow[],
  measures: Constraint["measures"],
  reference: ConstraintReference | null,
): Constraint | null {
  let ok = true;
  if (table !== "SANDBOX") {
    ctx.reporter.report([...path, "table"], "extract-table", "A tool_trace_extract constraint compares a message: its table is SANDBOX.", {
      data: { suggestion: "SANDBOX" },
    });
    ok = false;
  }
  if (!has(c, "reference") || str(c.reference) === INITIAL) {
    const where: Path = has(c, "reference") ? [...path, "reference"] : [...path, "kind"];
    ctx.reporter.report(
      where,
      "extract-reference",
      "A tool_trace_extract constraint needs `reference:` naming the milestone whose matched message's tool traces it reads.",
    );
    ok = false;
  }
  const rules = extractionRules(ctx, path, c);
  const fill =
    c.fill === "content" || c.fill === "tool_trace" ? c.fill : target.some((row) => "tool_trace" in row) ? "tool_trace" : "content";
  const column = fill === "tool_trace" ? "tool_trace" : "content";
  if (Array.isArray(c.target) && target.length > 0 && !target.some((row) => column in row)) {
    const where: Path = has(c, "fill") ? [...path, "fill"] : [...path, "target"];
    ctx.reporter.report(where, "extract-fill", `With fill: ${fill}, the target needs a "${column}" column to fill.`);
    ok = false;
  }
  if (!ok || rules === null || reference === null || reference.kind !== "milestone") return null;
  return { kind: "tool_trace_extract", table: "SANDBOX", target, measures, reference, extractor: rules.name, extract: rules.rules, fill };
}

function extractionRules(ctx: ToolContext, path: Path, c: RawObject): { name: string | null; rules: readonly ExtractionRule[] } | null {
  const name = str(c.extractor);
  if (has(c, "extractor") && has(c, "extract")) {
    ctx.reporter.report([...path, "extract"], "extract-rules", "Give either `extractor` or `extract`, not both.", { anchor: "key" });
    return null;
  }
  if (name !== null) {
    const rules = EXTRACTORS[name];
    if (rules) return { name, rules };
    const suggestion = closestMatch(name, EXTRACTOR_NAMES);
    ctx.reporter.report([...path, "extractor"], "unknown-extractor", `Unknown extractor "${name}".${didYouMean(suggestion)}`, {
      data: suggestion === null ? undefined : { suggestion },
    });
    return null;
  }
  if (!has(c, "extract")) {
    ctx.reporter.report(
      [...path, "kind"],
      "extract-rules",
      "A tool_trace_extract constraint needs `extractor` (an upstream name) or `extract` (rules).",
    );
    return null;
  }
  const rules = list(c.extract)
    .map(obj)
    .flatMap((r): ExtractionRule[] => {
      const rulePath = str(r?.path);
      const as = str(r?.as);
      const normalize = r?.normalize === "int" || r?.normalize === "float_formats" ? r.normalize : "raw";
      return rulePath !== null && as !== null ? [{ path: rulePath, as, normalize }] : [];
    });
  return { name: null, rules };
}

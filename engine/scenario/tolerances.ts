// Infinite tolerances. Upstream accepts `float('inf')` as a tolerance ("any value of this argument
// matches"); a scenario writes it as YAML's `.inf`. JSON has no infinity, and a resolved scenario
// is embedded in every trajectory header, so an infinite tolerance resolves to the largest finite
// double: |actual - expected| never exceeds it for any finite pair of realistic values.

/** The resolved form of `.inf` in a tolerance. */
export const INFINITE_TOLERANCE = Number.MAX_VALUE;

/** A tolerance as written (a number, possibly `.inf`) in its resolved, finite form; null if not a number. */
export function resolveTolerance(value: unknown): number | null {
  if (typeof value !== "number" || Number.isNaN(value)) return null;
  return value === Number.POSITIVE_INFINITY ? INFINITE_TOLERANCE : value;
}

/**
 * The parsed document with `.inf` tolerances made finite, for the schema check only (JSON Schema
 * numbers are finite). Only the places a tolerance goes are touched: `measures.<column>.atol` and
 * the per-argument `measures.tool_trace.atol.<argument>` of milestones and minefields; an
 * infinity anywhere else still fails the schema. The input is not modified.
 */
export function withFiniteTolerances(doc: unknown): unknown {
  if (!isRecord(doc)) return doc;
  let copy: Record<string, unknown> | null = null;
  for (const section of ["milestones", "minefields"]) {
    const nodes = doc[section];
    if (!Array.isArray(nodes)) continue;
    const newNodes = nodes.map((node) => mapNode(node));
    if (newNodes.some((n, i) => n !== nodes[i])) {
      copy ??= { ...doc };
      copy[section] = newNodes;
    }
  }
  return copy ?? doc;
}

function mapNode(node: unknown): unknown {
  if (!isRecord(node) || !Array.isArray(node.constraints)) return node;
  const constraints = node.constraints.map((c) => mapConstraint(c));
  return constraints.some((c, i) => c !== (node.constraints as unknown[])[i]) ? { ...node, constraints } : node;
}

function mapConstraint(constraint: unknown): unknown {
  if (!isRecord(constraint) || !isRecord(constraint.measures)) return constraint;
  let changed = false;
  const measures: Record<string, unknown> = {};
  for (const [column, measure] of Object.entries(constraint.measures)) {
    const mapped = mapMeasure(measure);
    changed ||= mapped !== measure;
    measures[column] = mapped;
  }
  return changed ? { ...constraint, measures } : constraint;
}

function mapMeasure(measure: unknown): unknown {
  if (!isRecord(measure)) return measure;
  const atol = measure.atol;
  if (atol === Number.POSITIVE_INFINITY) return { ...measure, atol: INFINITE_TOLERANCE };
  if (!isRecord(atol)) return measure;
  const entries = Object.entries(atol);
  if (!entries.some(([, v]) => v === Number.POSITIVE_INFINITY)) return measure;
  return { ...measure, atol: Object.fromEntries(entries.map(([k, v]) => [k, v === Number.POSITIVE_INFINITY ? INFINITE_TOLERANCE : v])) };
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

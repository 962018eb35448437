// The neutral JSON the Python exporter (exporter.py) writes, read and checked where it enters.
// Every shape the converter relies on is checked here, so a checkout whose objects differ from
// what the exporter expects fails with one line naming the scenario and the JSON path.
import { isJsonObject, type JsonObject, type JsonValue } from "../../../base/json.js";

export class ExportDataError extends Error {
  constructor(
    readonly path: string,
    readonly reason: string,
  ) {
    super(`exporter output ${path}: ${reason}`);
    this.name = "ExportDataError";
  }
}

/** A similarity or extractor function: its name, and the keywords of the partial it came in. */
export interface FunctionSpec {
  readonly name: string;
  readonly arguments: Readonly<Record<string, JsonValue | FunctionSpec>>;
}

export interface ExportedConstraint {
  readonly table: string;
  readonly similarity: FunctionSpec;
  /** Upstream's reference milestone node index: null (none), -1 (the first user message) or a node. */
  readonly referenceIndex: number | null;
  readonly target: readonly JsonObject[] | null;
  /** Only the columns whose measure differs from upstream's default for the table. */
  readonly measures: Readonly<Record<string, FunctionSpec>>;
}

export interface ExportedNode {
  readonly constraints: readonly ExportedConstraint[];
  readonly guardrailTables: readonly string[];
  readonly guardrailExclusion: readonly string[] | null;
}

export interface ExportedGraph {
  readonly nodes: readonly ExportedNode[];
  readonly edges: readonly (readonly [number, number])[];
}

export interface ExportedScenario {
  readonly name: string;
  readonly categories: readonly string[];
  readonly maxMessages: number;
  readonly toolAllowList: readonly string[] | null;
  readonly toolDenyList: readonly string[] | null;
  readonly tables: Readonly<Record<string, readonly JsonObject[]>>;
  readonly milestones: ExportedGraph;
  readonly minefields: ExportedGraph;
}

/**
 * A pair of values of the same place in the two exports of one checkout, made under clock A and
 * clock B (time-values.ts): the converter compares them to tell a time from a constant.
 */
export interface Paired<T> {
  readonly a: T;
  readonly b: T;
}

export interface ExportedSuite {
  readonly clock: { readonly now: number; readonly timezone: string };
  /** Upstream's user-simulator instruction, the prefix of every SYSTEM->USER message; null if absent. */
  readonly userInstruction: string | null;
  /** Upstream's few-shot dialogues by name, to name the demonstrations found in a scenario. */
  readonly demonstrationNames: Readonly<Record<string, string>>;
  /** The same dialogues in full (rows with upper-case roles), for the prompt set. */
  readonly demonstrations: Readonly<Record<string, readonly JsonObject[]>>;
  /** Every tool's docstring as upstream's schema conversion reads it, for the prompt set. */
  readonly toolDocstrings: Readonly<Record<string, string>>;
  readonly scenarios: readonly ExportedScenario[];
}

function fail(path: string, reason: string): never {
  throw new ExportDataError(path, reason);
}

function object(v: unknown, path: string): JsonObject {
  return isJsonObject(v) ? v : fail(path, "expected an object");
}

function array(v: unknown, path: string): JsonValue[] {
  return Array.isArray(v) ? (v as JsonValue[]) : fail(path, "expected a list");
}

function string(v: unknown, path: string): string {
  return typeof v === "string" ? v : fail(path, "expected a string");
}

function int(v: unknown, path: string): number {
  return typeof v === "number" && Number.isInteger(v) ? v : fail(path, "expected an integer");
}

function strings(v: unknown, path: string): string[] {
  return array(v, path).map((item, i) => string(item, `${path}[${i}]`));
}

function nullable<T>(v: unknown, read: (v: unknown) => T): T | null {
  return v === null || v === undefined ? null : read(v);
}

function functionSpec(v: unknown, path: string): FunctionSpec {
  const o = object(v, path);
  const args = o.arguments === undefined ? {} : object(o.arguments, `${path}.arguments`);
  const parsed: Record<string, JsonValue | FunctionSpec> = {};
  for (const [key, value] of Object.entries(args)) {
    parsed[key] = isJsonObject(value) && typeof value.name === "string" ? functionSpec(value, `${path}.arguments.${key}`) : value;
  }
  return { name: string(o.name, `${path}.name`), arguments: parsed };
}

function rows(v: unknown, path: string): JsonObject[] {
  return array(v, path).map((row, i) => object(row, `${path}[${i}]`));
}

function graph(v: unknown, path: string): ExportedGraph {
  const o = object(v, path);
  const nodes = array(o.nodes, `${path}.nodes`).map((n, i): ExportedNode => {
    const p = `${path}.nodes[${i}]`;
    const node = object(n, p);
    return {
      constraints: array(node.constraints, `${p}.constraints`).map((c, j): ExportedConstraint => {
        const cp = `${p}.constraints[${j}]`;
        const constraint = object(c, cp);
        const measures = object(constraint.measures ?? {}, `${cp}.measures`);
        return {
          table: string(constraint.table, `${cp}.table`),
          similarity: functionSpec(constraint.similarity, `${cp}.similarity`),
          referenceIndex: nullable(constraint.reference_index, (x) => int(x, `${cp}.reference_index`)),
          target: nullable(constraint.target, (x) => rows(x, `${cp}.target`)),
          measures: Object.fromEntries(Object.entries(measures).map(([k, m]) => [k, functionSpec(m, `${cp}.measures.${k}`)])),
        };
      }),
      guardrailTables: strings(node.guardrail_tables, `${p}.guardrail_tables`),
      guardrailExclusion: nullable(node.guardrail_exclusion, (x) => strings(x, `${p}.guardrail_exclusion`)),
    };
  });
  const edges = array(o.edges ?? [], `${path}.edges`).map((e, i) => {
    const pair = array(e, `${path}.edges[${i}]`);
    if (pair.length !== 2) fail(`${path}.edges[${i}]`, "expected a pair of node indexes");
    return [int(pair[0], `${path}.edges[${i}][0]`), int(pair[1], `${path}.edges[${i}][1]`)] as const;
  });
  return { nodes, edges };
}

function scenario(v: unknown, path: string): ExportedScenario {
  const o = object(v, path);
  const tables = object(o.tables, `${path}.tables`);
  return {
    name: string(o.name, `${path}.name`),
    categories: strings(o.categories, `${path}.categories`),
    maxMessages: int(o.max_messages, `${path}.max_messages`),
    toolAllowList: nullable(o.tool_allow_list, (x) => strings(x, `${path}.tool_allow_list`)),
    toolDenyList: nullable(o.tool_deny_list, (x) => strings(x, `${path}.tool_deny_list`)),
    tables: Object.fromEntries(Object.entries(tables).map(([name, t]) => [name, rows(t, `${path}.tables.${name}`)])),
    milestones: graph(o.milestones, `${path}.milestones`),
    minefields: graph(o.minefields, `${path}.minefields`),
  };
}

/** Parses and checks the exporter's stdout. */
export function parseExportedSuite(text: string): ExportedSuite {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    fail("$", `not JSON (${e instanceof Error ? e.message : String(e)})`);
  }
  const root = object(value, "$");
  const clock = object(root.clock, "$.clock");
  const names = object(root.demonstration_names ?? {}, "$.demonstration_names");
  return {
    clock: {
      now: typeof clock.now === "number" ? clock.now : fail("$.clock.now", "expected a number"),
      timezone: string(clock.timezone, "$.clock.timezone"),
    },
    userInstruction: nullable(root.user_instruction, (x) => string(x, "$.user_instruction")),
    demonstrationNames: Object.fromEntries(Object.entries(names).map(([k, v]) => [k, string(v, `$.demonstration_names.${k}`)])),
    demonstrations: Object.fromEntries(
      Object.entries(object(root.demonstrations ?? {}, "$.demonstrations")).map(([k, v]) => [k, rows(v, `$.demonstrations.${k}`)]),
    ),
    toolDocstrings: Object.fromEntries(
      Object.entries(object(root.tool_docstrings ?? {}, "$.tool_docstrings")).map(([k, v]) => [k, string(v, `$.tool_docstrings.${k}`)]),
    ),
    scenarios: array(root.scenarios, "$.scenarios").map((s, i) => scenario(s, `$.scenarios[${i}]`)),
  };
}

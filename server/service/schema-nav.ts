// The scenario JSON Schema, walked along a YAML path: which keys a mapping may have, which values
// a scalar may take, and what the schema says about them. Tagged unions (`kind:`) are narrowed
// by the kind written in the document, so a snapshot constraint is not offered `extractor`.
import { SCENARIO_SCHEMA } from "../../engine/scenario/schema-diagnostics.js";
import type { PathSegment } from "../../engine/scenario/yaml-source.js";

export type Schema = Readonly<Record<string, unknown>>;

/** Reads the tag (e.g. `kind`) written in the mapping at a path, or null. */
export type TagReader = (path: readonly PathSegment[], tag: string) => string | null;

interface SchemaPosition {
  /** The schema written at this position (a $ref followed), before unions are split. */
  readonly declared: Schema | null;
  /** The concrete alternatives: unions split and narrowed by their tag where it is written. */
  readonly branches: readonly Schema[];
}

const DEFINITIONS = asSchema(SCENARIO_SCHEMA.definitions) ?? {};

export function schemaAt(path: readonly PathSegment[], readTag: TagReader): SchemaPosition {
  let declared: Schema | null = SCENARIO_SCHEMA;
  let branches = expand(SCENARIO_SCHEMA, [], readTag);
  for (let i = 0; i < path.length; i++) {
    const segment = path[i];
    if (segment === undefined) break;
    const children: Schema[] = [];
    for (const branch of branches) {
      const child = childSchema(branch, segment);
      if (child) children.push(child);
    }
    if (children.length === 0) return { declared: null, branches: [] };
    const here = path.slice(0, i + 1);
    declared = deref(children[0] ?? null);
    branches = children.flatMap((c) => expand(c, here, readTag));
  }
  return { declared, branches };
}

function childSchema(schema: Schema, segment: PathSegment): Schema | null {
  if (typeof segment === "number") {
    if (!typesOf(schema).includes("array") && schema.items === undefined) return null;
    return asSchema(schema.items);
  }
  const property = asSchema(asSchema(schema.properties)?.[segment]);
  if (property) return property;
  // A world section's table names are patterns (the pack's tables, written in capitals).
  for (const [pattern, child] of Object.entries(asSchema(schema.patternProperties) ?? {})) {
    if (new RegExp(pattern, "u").test(segment)) return asSchema(child);
  }
  const additional = asSchema(schema.additionalProperties);
  return additional;
}

/** $refs followed, oneOf/anyOf split into their branches (narrowed by a discriminator tag) and if/then into its two shapes. */
function expand(schema: Schema, path: readonly PathSegment[], readTag: TagReader, depth = 0): Schema[] {
  const resolved = deref(schema);
  if (resolved === null || depth > 8) return [];
  // if/then (a table's changes once a change key is written): the `then` shape is what may be typed.
  const then = asSchema(resolved.then);
  // biome-ignore lint/suspicious/noThenProperty: drops JSON Schema's if/then keywords from a copy of schema data, never awaited
  if (then !== null) return [{ ...resolved, if: undefined, then: undefined }, ...expand(then, path, readTag, depth + 1)];
  const union = Array.isArray(resolved.oneOf) ? resolved.oneOf : Array.isArray(resolved.anyOf) ? resolved.anyOf : null;
  if (union === null) return [resolved];
  let branches = union
    .map((b) => asSchema(b))
    .filter((b): b is Schema => b !== null)
    .flatMap((b) => expand(b, path, readTag, depth + 1));
  const tag = asSchema(resolved.discriminator)?.propertyName;
  if (typeof tag === "string") {
    const written = readTag(path, tag);
    const narrowed = written === null ? [] : branches.filter((b) => tagValues(b, tag).includes(written));
    if (narrowed.length > 0) branches = narrowed;
  }
  return branches;
}

/** The values a branch's tag property allows (const or enum). */
function tagValues(schema: Schema, tag: string): string[] {
  const property = deref(asSchema(asSchema(schema.properties)?.[tag]));
  return enumValues(property).filter((v): v is string => typeof v === "string");
}

export function enumValues(schema: Schema | null): unknown[] {
  if (schema === null) return [];
  if (Array.isArray(schema.enum)) return schema.enum;
  if (schema.const !== undefined) return [schema.const];
  return [];
}

/** Property names of a mapping schema, with their schemas. */
export function propertiesOf(schema: Schema): Array<[string, Schema]> {
  const properties = asSchema(schema.properties);
  if (!properties) return [];
  return Object.entries(properties).flatMap(([name, s]) => {
    const resolved = deref(asSchema(s));
    return resolved ? [[name, { ...resolved, ...overrides(asSchema(s)) }] as [string, Schema]] : [];
  });
}

/** A property's own description/title win over those of the definition it refers to. */
function overrides(schema: Schema | null): Schema {
  const out: Record<string, unknown> = {};
  if (typeof schema?.description === "string") out.description = schema.description;
  if (typeof schema?.title === "string") out.title = schema.title;
  return out;
}

export function requiredOf(schema: Schema): string[] {
  return Array.isArray(schema.required) ? schema.required.filter((r): r is string => typeof r === "string") : [];
}

export function typesOf(schema: Schema | null): string[] {
  const t = schema?.type;
  if (typeof t === "string") return [t];
  return Array.isArray(t) ? t.filter((x): x is string => typeof x === "string") : [];
}

export function describe(schema: Schema | null): string | null {
  if (schema === null) return null;
  if (typeof schema.description === "string") return schema.description;
  return null;
}

export function deref(schema: Schema | null): Schema | null {
  let current = schema;
  for (let hops = 0; current !== null && hops < 8; hops++) {
    const ref = current.$ref;
    if (typeof ref !== "string" || !ref.startsWith("#/definitions/")) return current;
    const target = asSchema(DEFINITIONS[ref.slice("#/definitions/".length)]);
    // Keep what the referring schema says about itself (title, description) over the target's.
    current = target === null ? null : { ...target, ...overrides(current) };
  }
  return current;
}

export function asSchema(v: unknown): Schema | null {
  return typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Schema) : null;
}

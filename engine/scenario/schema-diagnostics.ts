// JSON Schema validation of a scenario, reported in a person's words at the YAML node at fault.
// ajv finds the errors; this module decides which of them the author needs to see: for a
// `kind`-tagged union only the branch the kind names (ajv's discriminator), for a type union
// only the branch whose type the value has, and a misspelt key once rather than twice
// ("unknown key tagret" already explains the missing "target").
import type { ErrorObject } from "ajv";
import type { Diagnostic } from "../base/diagnostics.js";
import { describeValue, quoteHint } from "./raw.js";
import { SCENARIO_SCHEMA, scenarioValidator as validator } from "./scenario-validator.js";
import { closestMatch, didYouMean, listOf } from "./suggest.js";
import type { Path, YamlSource } from "./yaml-source.js";

type Schema = Readonly<Record<string, unknown>>;

export { SCENARIO_SCHEMA };

export function schemaDiagnostics(value: unknown, src: YamlSource): Diagnostic[] {
  const validate = validator();
  if (validate(value)) return [];
  const errors = collapseTypeUnions(validate.errors ?? []);
  const out: Diagnostic[] = [];
  const unknownKeySuggestions = new Set<string>();
  const pending: Array<{ error: ErrorObject; path: Path }> = [];
  for (const error of errors) {
    const path = pointerToPath(error.instancePath);
    if (error.keyword === "additionalProperties") {
      const key = String(error.params.additionalProperty);
      const allowed = Object.keys(asSchema(error.parentSchema?.properties) ?? {});
      const suggestion = closestMatch(key, allowed);
      if (suggestion !== null) unknownKeySuggestions.add(`${error.instancePath}/${suggestion}`);
      const hint = suggestion !== null ? didYouMean(suggestion) : allowed.length > 0 ? ` Expected ${listOf(allowed, 10)}.` : "";
      out.push(
        src.diagnostic(
          src.rangeOf([...path, key], "key"),
          "error",
          "schema-unknown-key",
          `Unknown key "${key}".${hint}`,
          suggestion === null ? undefined : { suggestion },
        ),
      );
    } else {
      pending.push({ error, path });
    }
  }
  for (const { error, path } of pending) {
    // A missing key that a misspelt key next to it already accounts for is reported once.
    if (error.keyword === "required" && unknownKeySuggestions.has(`${error.instancePath}/${String(error.params.missingProperty)}`))
      continue;
    const diagnostic = describe(error, path, src);
    if (diagnostic) out.push(diagnostic);
  }
  return dedupe(out);
}

function describe(error: ErrorObject, path: Path, src: YamlSource): Diagnostic | null {
  const parent = error.parentSchema ?? {};
  const custom = asSchema(parent["x-messages"])?.[error.keyword];
  const at = (p: Path, anchor: "key" | "value" = "value") => src.rangeOf(p, anchor);
  const keyPath = error.propertyName === undefined ? path : [...path, error.propertyName];
  const keyAnchor = error.propertyName === undefined ? "value" : "key";
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case "required": {
      const missing = String(params.missingProperty);
      const title = typeof parent.title === "string" ? parent.title : null;
      const message = title ? `This ${title} needs "${missing}".` : `Missing required key "${missing}".`;
      return src.diagnostic(at(path, "key"), "error", "schema-required", message, { insert: missing });
    }
    case "discriminator":
      return describeDiscriminator(error, path, src);
    case "type":
      return src.diagnostic(
        at(path),
        "error",
        "schema-type",
        `Expected ${typeWords(params.type)}, found ${describeValue(error.data)}.${quoteHint(params.type === "string", error.data)}`,
      );
    case "enum":
    case "const": {
      const allowed = error.keyword === "enum" ? (Array.isArray(error.schema) ? error.schema : []) : [error.schema];
      const words = allowed.map((a) => String(a));
      if (typeof custom === "string") return src.diagnostic(at(path), "error", "schema-enum", custom);
      const given = typeof error.data === "string" ? error.data : JSON.stringify(error.data);
      const suggestion = typeof error.data === "string" ? closestMatch(error.data, words) : null;
      const message =
        suggestion !== null
          ? `Unknown value "${given}".${didYouMean(suggestion)}`
          : `"${given}" is not allowed here. Expected ${listOf(words)}.`;
      return src.diagnostic(at(path), "error", "schema-enum", message, suggestion === null ? undefined : { suggestion });
    }
    case "pattern": {
      const message =
        typeof parent.patternErrorMessage === "string"
          ? parent.patternErrorMessage
          : `"${String(error.data)}" does not have the expected form.`;
      return src.diagnostic(at(keyPath, keyAnchor), "error", "schema-pattern", message);
    }
    case "uniqueItems": {
      // ajv names both positions; the later one is the repetition.
      const index = Math.max(Number(params.i) || 0, Number(params.j) || 0);
      return src.diagnostic(at([...path, index]), "error", "schema-unique", "Duplicate entry: each item may appear once in this list.");
    }
    case "propertyNames":
      return null; // the error inside it (a pattern on the key) is reported instead
    case "if":
      return null; // the errors of the branch it chose (a table's changes) are reported instead
    default: {
      const message = typeof custom === "string" ? custom : limitMessage(error.keyword, params);
      return src.diagnostic(
        at(path),
        "error",
        message === null ? "schema-invalid" : "schema-limit",
        message ?? `Invalid value: ${error.message ?? "it does not match the schema"}.`,
      );
    }
  }
}

/** The `kind` of a tagged union: missing (reported by `required`), not a string, or unknown. */
function describeDiscriminator(error: ErrorObject, path: Path, src: YamlSource): Diagnostic | null {
  const params = error.params as { error?: string; tag?: string; tagValue?: unknown };
  const tag = params.tag ?? "kind";
  if (params.tagValue === undefined) return null;
  const kinds = branchKinds(error.parentSchema, tag);
  if (typeof params.tagValue !== "string") {
    return src.diagnostic(
      src.rangeOf([...path, tag]),
      "error",
      "schema-type",
      `Expected one of ${listOf(kinds)}, found ${describeValue(params.tagValue)}.`,
    );
  }
  const suggestion = closestMatch(params.tagValue, kinds);
  const message =
    suggestion !== null
      ? `Unknown ${tag} "${params.tagValue}".${didYouMean(suggestion)}`
      : `Unknown ${tag} "${params.tagValue}". Expected ${listOf(kinds)}.`;
  return src.diagnostic(src.rangeOf([...path, tag]), "error", "schema-enum", message, suggestion === null ? undefined : { suggestion });
}

function branchKinds(parentSchema: unknown, tag: string): string[] {
  const branches = asSchema(parentSchema)?.oneOf;
  if (!Array.isArray(branches)) return [];
  const kinds: string[] = [];
  for (const branch of branches) {
    const prop = asSchema(asSchema(deref(branch)?.properties)?.[tag]);
    if (typeof prop?.const === "string") kinds.push(prop.const);
    if (Array.isArray(prop?.enum)) kinds.push(...prop.enum.filter((v): v is string => typeof v === "string"));
  }
  return kinds;
}

/**
 * anyOf unions in this schema differ by type (a string or a demonstration; a value, a trace or a
 * list). When the value's type picks a branch, the other branches' type errors are noise; when
 * no branch takes that type, one "expected X or Y" replaces them all.
 */
function collapseTypeUnions(errors: readonly ErrorObject[]): ErrorObject[] {
  const unions = errors.filter((e) => e.keyword === "anyOf");
  if (unions.length === 0) return [...errors];
  const drop = new Set<ErrorObject>();
  const replacements: ErrorObject[] = [];
  for (const union of unions) {
    drop.add(union);
    for (const e of errors) if (e.keyword === "type" && e.instancePath === union.instancePath) drop.add(e);
    const branches = Array.isArray(union.schema) ? union.schema.map(deref) : [];
    const actual = jsonType(union.data);
    const matches = branches.some((b) => typesOf(b).some((t) => t === actual || (t === "number" && actual === "integer")));
    if (!matches) {
      const words = branches.map((b) => (typeof b?.title === "string" ? `a ${b.title}` : typeWords(b?.type)));
      replacements.push({ ...union, keyword: "type", params: { type: words.join(" or ") }, message: "" });
    }
  }
  return [...errors.filter((e) => !drop.has(e)), ...replacements];
}

function typesOf(schema: Schema | null): string[] {
  const t = schema?.type;
  if (typeof t === "string") return [t];
  return Array.isArray(t) ? t.filter((x): x is string => typeof x === "string") : [];
}

function jsonType(v: unknown): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return "array";
  if (typeof v === "number") return Number.isInteger(v) ? "integer" : "number";
  return typeof v;
}

const TYPE_WORDS: Readonly<Record<string, string>> = {
  string: "a string",
  number: "a number",
  integer: "a whole number",
  boolean: "true or false",
  array: "a list",
  object: "a mapping (key: value)",
  null: "an empty value",
};

/** "a string or a number" from a JSON Schema type (or an already worded alternative list). */
function typeWords(type: unknown): string {
  const types = Array.isArray(type) ? type.map(String) : [String(type)];
  if (["string", "number", "boolean", "null"].every((t) => types.includes(t))) {
    return `a single value (text, a number, true/false or null)${types.includes("array") ? " or a list of strings" : ""}`;
  }
  const words = types.map((t) => TYPE_WORDS[t] ?? t);
  return words.length <= 1 ? (words[0] ?? "a value") : `${words.slice(0, -1).join(", ")} or ${words[words.length - 1]}`;
}

function limitMessage(keyword: string, params: Record<string, unknown>): string | null {
  const limit = Number(params.limit);
  switch (keyword) {
    case "minItems":
      return limit === 1 ? "This list must not be empty." : `This list needs at least ${limit} items.`;
    case "maxItems":
      return `This list takes at most ${limit} items.`;
    case "minLength":
      return limit === 1 ? "This text must not be empty." : `This text needs at least ${limit} characters.`;
    case "minimum":
      return `Must be at least ${limit}.`;
    case "maximum":
      return `Must be at most ${limit}.`;
    case "exclusiveMinimum":
      return `Must be greater than ${limit}.`;
    case "exclusiveMaximum":
      return `Must be less than ${limit}.`;
    case "minProperties":
      return limit === 1 ? "This mapping must not be empty." : `This mapping needs at least ${limit} keys.`;
    case "maxProperties":
      return `This mapping takes at most ${limit} keys.`;
    default:
      return null;
  }
}

function pointerToPath(pointer: string): Path {
  if (pointer === "") return [];
  return pointer
    .slice(1)
    .split("/")
    .map((part) => part.replace(/~1/g, "/").replace(/~0/g, "~"))
    .map((part) => (/^(0|[1-9]\d*)$/.test(part) ? Number(part) : part));
}

function asSchema(v: unknown): Schema | null {
  return typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Schema) : null;
}

/** Follows a local "#/definitions/x" reference. */
function deref(v: unknown): Schema | null {
  const schema = asSchema(v);
  const ref = schema?.$ref;
  if (typeof ref !== "string" || !ref.startsWith("#/definitions/")) return schema;
  return asSchema(asSchema(SCENARIO_SCHEMA.definitions)?.[ref.slice("#/definitions/".length)]);
}

function dedupe(diagnostics: Diagnostic[]): Diagnostic[] {
  const seen = new Set<string>();
  return diagnostics.filter((d) => {
    const key = `${d.offset[0]}:${d.offset[1]}:${d.code}:${d.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

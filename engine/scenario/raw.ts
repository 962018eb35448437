// Reading the parsed YAML before it is known to be valid. The semantic checks run even when the
// schema found problems (an editor wants every mistake at once), so they read the raw value
// through these guards and simply skip whatever does not have the expected shape; the schema
// diagnostics already cover that part.
export type RawObject = Readonly<Record<string, unknown>>;

export function obj(v: unknown): RawObject | null {
  return typeof v === "object" && v !== null && !Array.isArray(v) ? (v as RawObject) : null;
}

export function list(v: unknown): readonly unknown[] {
  return Array.isArray(v) ? v : [];
}

export function str(v: unknown): string | null {
  return typeof v === "string" ? v : null;
}

export function strings(v: unknown): string[] {
  return list(v).filter((x): x is string => typeof x === "string");
}

export function has(o: RawObject | null, key: string): boolean {
  return o !== null && Object.hasOwn(o, key);
}

/** " Put it in quotes to keep it as text." when YAML read a string-meant value as a number or boolean (+1555…, yes, 1.10). */
export function quoteHint(expectedString: boolean, found: unknown): string {
  return expectedString && (typeof found === "number" || typeof found === "boolean") ? " Put it in quotes to keep it as text." : "";
}

/** "the text \"abc\"", "the number 3", "a list": how a found value is named in messages. */
export function describeValue(v: unknown): string {
  if (v === null || v === undefined) return "an empty value";
  if (Array.isArray(v)) return "a list";
  if (typeof v === "object") return "a mapping";
  if (typeof v === "string") return `the text "${v.length > 40 ? `${v.slice(0, 40)}…` : v}"`;
  if (typeof v === "boolean") return String(v);
  return `the number ${String(v)}`;
}

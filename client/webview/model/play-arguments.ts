// What a played run's form sends for one tool: the text typed in each field read by the field's
// kind (engine/panel/play-form.ts). A field left empty is not given, so the tool answers a missing
// argument as it would answer a model; a value that does not read as its kind is refused here, with
// the field named, before anything is sent.
import type { JsonValue } from "../../../engine/base/json.js";
import type { PlayField, PlayTool } from "../../../engine/panel/play-protocol.js";

type FormArguments =
  | { readonly ok: true; readonly arguments: Readonly<Record<string, JsonValue>> }
  | { readonly ok: false; readonly problem: string };

/** The arguments of a call of `tool` from the texts of its fields, by field name. */
export function formArguments(tool: PlayTool, texts: ReadonlyMap<string, string>): FormArguments {
  const args: Record<string, JsonValue> = {};
  for (const field of tool.fields) {
    const text = texts.get(field.name) ?? "";
    if (text.trim() === "") continue;
    const value = fieldValue(field, text);
    if ("problem" in value) return { ok: false, problem: `${field.name}: ${value.problem}` };
    args[field.name] = value.value;
  }
  return { ok: true, arguments: args };
}

function fieldValue(field: PlayField, text: string): { readonly value: JsonValue } | { readonly problem: string } {
  const trimmed = text.trim();
  switch (field.kind) {
    case "string":
      // Typed as is: leading or trailing spaces may be what the person means.
      return { value: text };
    case "integer":
    case "number": {
      const n = Number(trimmed);
      if (!/^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(trimmed) || !Number.isFinite(n))
        return { problem: `"${trimmed}" is not a number` };
      if (field.kind === "integer" && !Number.isInteger(n)) return { problem: `"${trimmed}" is not a whole number` };
      return { value: n };
    }
    case "boolean":
      if (trimmed === "true" || trimmed === "false") return { value: trimmed === "true" };
      return { problem: `"${trimmed}" is not true or false` };
    case "enum":
    case "json":
      try {
        const value = JSON.parse(trimmed) as JsonValue;
        if (field.kind === "enum" && !field.options.includes(JSON.stringify(value))) {
          return { problem: `${trimmed} is not one of ${field.options.join(", ")}` };
        }
        return { value };
      } catch {
        return { problem: `${trimmed} is not JSON (a string is written in double quotes, a list as [...], an object as {...})` };
      }
  }
}

// The `# yaml-language-server: $schema=<path>` line the samples start with tells the YAML extension
// which schema to check the file against. Copied into a workspace, `../schemas/...` points at
// nothing, and the YAML extension then checks against no schema without saying why. We say so,
// where the line is, and how to fix it: our extension already gives every *.scenario.yaml its
// bundled schema (package.json `yamlValidation`), so the line can go; or it can point at a copy.
import { existsSync } from "node:fs";
import { dirname, isAbsolute, resolve } from "node:path";
import type { Diagnostic } from "../../engine/base/diagnostics.js";

/** The modeline, as the YAML extension reads it: a comment line, `$schema=` and a path or URL. */
const MODELINE = /^#\s*yaml-language-server\s*:.*?\$schema=(\S+)/;

export const SCHEMA_NOT_FOUND = "schema-not-found";

/** A warning for each `$schema=` modeline whose path names no file, relative to the document. */
export function schemaModelineDiagnostics(text: string, file: string): Diagnostic[] {
  // Only a document on disk has a folder to resolve against.
  if (!isAbsolute(file)) return [];
  const out: Diagnostic[] = [];
  let offset = 0;
  for (const [line, lineText] of text.split("\n").entries()) {
    const found = MODELINE.exec(lineText);
    if (found !== null) {
      const ref = found[1]!;
      const column = lineText.indexOf(ref, found.index + found[0].length - ref.length);
      const target = ref.startsWith("file://")
        ? safeFileUrlPath(ref)
        : /^[a-z][a-z0-9+.-]*:\/\//i.test(ref)
          ? null
          : resolve(dirname(file), ref);
      if (target !== null && !existsSync(target)) {
        out.push({
          file,
          range: { start: { line, character: column }, end: { line, character: column + ref.length } },
          offset: [offset + column, offset + column + ref.length],
          severity: "warning",
          code: SCHEMA_NOT_FOUND,
          message: `$schema points to "${ref}", but there is no file at ${target}, so the YAML extension checks this file against no schema. The ToolSandbox extension already gives *.scenario.yaml files its bundled schema: remove this line, or point it at a copy of scenario.schema.json.`,
        });
      }
    }
    offset += lineText.length + 1;
  }
  return out;
}

function safeFileUrlPath(url: string): string | null {
  try {
    return new URL(url).pathname;
  } catch {
    return null;
  }
}

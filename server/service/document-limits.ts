// Documents past a limit of docs/limits.md (engine/limits.ts): the parse already stopped at the
// limit and left one diagnostic; this keeps every other feature off such a document too. Their
// line scans and id tables are linear, but on a 20 MB text even a linear scan per keystroke or
// hover would keep the server from answering other files, so they answer as for an empty file.
import type { YamlSource } from "../../engine/scenario/yaml-source.js";

/** True when the parse stopped at a limit (its one diagnostic has a `limit-` code). */
export function isPastLimits(source: YamlSource): boolean {
  return source.syntaxDiagnostics.some((d) => d.code.startsWith("limit-"));
}

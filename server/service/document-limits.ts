// Documents past a limit of docs/limits.md (engine/base/limits.ts): the parse already stopped at the
// limit and left one diagnostic; this keeps every other feature off such a document too. Their
// line scans and id tables are linear, but on a 20 MB text even a linear scan per keystroke or
// hover would keep the server from answering other files, so they answer as for an empty file.
import { LIMIT_CODES } from "../../engine/scenario/tree-limits.js";
import type { YamlSource } from "../../engine/scenario/yaml-source.js";

/** True when the parse stopped at a limit (its one diagnostic has one of the limit codes). */
export function isPastLimits(source: YamlSource): boolean {
  return source.syntaxDiagnostics.some((d) => LIMIT_CODES.has(d.code));
}

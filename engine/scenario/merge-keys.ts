// YAML merge keys (`<<: *base`) are not part of the scenario format: YAML 1.2, which the parser
// follows, has none, and a scenario read differently by different tools is worse than a longer
// one. A file that uses them gets one diagnostic per `<<`, saying so, and no other: the keys they
// would have merged are missing, so every other finding would be a consequence of the first.
import { isMap, isPair, isScalar, isSeq } from "yaml";
import type { Diagnostic } from "../base/diagnostics.js";
import type { YamlSource } from "./yaml-source.js";

const MERGE_KEY_MESSAGE = "YAML merge keys (`<<`) are not supported in scenarios: write the keys out here.";

export function mergeKeyDiagnostics(src: YamlSource): Diagnostic[] {
  const out: Diagnostic[] = [];
  const walk = (node: unknown, depth: number): void => {
    if (depth > 200) return;
    if (isMap(node)) {
      for (const pair of node.items) {
        if (!isPair(pair)) continue;
        const key = pair.key;
        if (isScalar(key) && key.value === "<<" && key.type === "PLAIN" && key.range) {
          out.push(src.diagnostic([key.range[0], key.range[1]], "error", "yaml-merge-key", MERGE_KEY_MESSAGE));
        }
        walk(pair.value, depth + 1);
      }
    } else if (isSeq(node)) {
      for (const item of node.items) walk(item, depth + 1);
    }
  };
  walk(src.doc.contents, 0);
  return out;
}

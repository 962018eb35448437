import { bigScenario } from "./_gen.js";
import { YamlSource } from "../../../engine/scenario/yaml-source.js";
import { scanLines, lineTokens } from "../../../server/service/line-structure.js";
import { visit, isScalar } from "yaml";
const text = bigScenario(10000);
const s = new YamlSource(text, "x");
for (let r = 0; r < 5; r++) {
  const t0 = performance.now();
  let n = 0;
  visit(s.doc, { Scalar(_k, node) { if (isScalar(node) && node.range) n++; } });
  const t1 = performance.now();
  const lines = text.split("\n"); let k = 0;
  for (const l of lines) { const t = lineTokens(l); if (t.key) k++; }
  const t2 = performance.now();
  scanLines(text, s.doc);
  const t3 = performance.now();
  console.log("visit", (t1-t0).toFixed(1), n, "tokens", (t2-t1).toFixed(1), "scan", (t3-t2).toFixed(1));
}

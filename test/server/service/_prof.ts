import { scenarioOfLines } from "../../../bench/lsp.bench.js";
import { YamlSource } from "../../../engine/scenario/yaml-source.js";
import { scanLines } from "../../../server/service/line-structure.js";
import { checkScenarioSource } from "../../../engine/scenario/resolve.js";
const d = scenarioOfLines(10000);
for (let r = 0; r < 6; r++) {
  const t0 = performance.now(); const s = new YamlSource(d.text, "x"); const t1 = performance.now();
  checkScenarioSource(s); const t2 = performance.now();
  scanLines(d.text, s.doc); const t3 = performance.now();
  console.log("parse", (t1-t0).toFixed(1), "check", (t2-t1).toFixed(1), "scan", (t3-t2).toFixed(1));
}

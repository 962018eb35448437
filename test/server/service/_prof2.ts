import { bigScenario } from "./_gen.js";
import { YamlSource } from "../../../engine/scenario/yaml-source.js";
import { scanLines } from "../../../server/service/line-structure.js";
const text = bigScenario(10000);
const s = new YamlSource(text, "x");
for (let r = 0; r < 20; r++) scanLines(text, s.doc);

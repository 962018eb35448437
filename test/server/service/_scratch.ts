import { TextDocument } from "vscode-languageserver-textdocument";
import { bigScenario } from "./_gen.js";
import { getScenarioDocument } from "../../../server/service/document.js";
import { completion } from "../../../server/service/completion.js";
import { hover } from "../../../server/service/hover.js";
import { documentSymbols, foldingRanges } from "../../../server/service/symbols.js";
import { documentDiagnostics } from "../../../server/service/diagnostics.js";
import { references } from "../../../server/service/references.js";
for (const n of [100, 1000, 10000]) {
  const text = bigScenario(n);
  for (let rep = 0; rep < 3; rep++) {
  const td = TextDocument.create("file:///big" + n + ".scenario.yaml", "x", rep + 1, text);
  const t0 = performance.now();
  const doc = getScenarioDocument(td);
  const t1 = performance.now();
  const diags = documentDiagnostics(doc);
  const t2 = performance.now();
  const last = td.positionAt(text.length - 30);
  const c = completion(doc, { line: last.line, character: 10 });
  const t3 = performance.now();
  const c2 = completion(doc, { line: last.line, character: 10 });
  const t4 = performance.now();
  hover(doc, { line: last.line - 5, character: 9 });
  const t5 = performance.now();
  const s = documentSymbols(doc); const f = foldingRanges(doc);
  const t6 = performance.now();
  references(doc, { line: last.line - 6, character: 9 });
  const t7 = performance.now();
  console.log(n, "parse", (t1-t0).toFixed(1), "check", (t2-t1).toFixed(1), diags.length, "completion1", (t3-t2).toFixed(1), "completion2", (t4-t3).toFixed(1), c.items.length, c2.items.length, "hover", (t5-t4).toFixed(1), "symbols+fold", (t6-t5).toFixed(1), s.length, f.length, "refs", (t7-t6).toFixed(1));
  }
}

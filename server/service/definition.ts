// Go to definition for milestone and minefield ids: from an `after:` entry or a `reference:`
// value to the `id:` that defines it (in the same section: the two id spaces are separate).
import type { Location, Position } from "vscode-languageserver";
import type { ScenarioDocument } from "./document.js";
import { guarded } from "./guard.js";
import { occurrenceAt } from "./id-table.js";

export function definition(doc: ScenarioDocument, position: Position): Location | null {
  return guarded("definition", null, () => {
    const at = occurrenceAt(doc.ids, doc.offsetAt(position));
    if (at === null) return null;
    const target = doc.ids.occurrences.find((o) => o.role === "definition" && o.section === at.section && o.id === at.id);
    return target ? { uri: doc.uri, range: doc.rangeOf(target.start, target.end) } : null;
  });
}

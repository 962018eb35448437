// Find references for milestone and minefield ids: the definition (when asked for) and every
// `after:` entry and `reference:` value naming the same id in the same section.
import type { Location, Position } from "vscode-languageserver";
import type { ScenarioDocument } from "./document.js";
import { guarded } from "./guard.js";
import { occurrenceAt, type IdOccurrence } from "./id-table.js";

export function references(doc: ScenarioDocument, position: Position, includeDeclaration = true): Location[] {
  return guarded("references", [], () =>
    sameId(doc, doc.offsetAt(position))
      .filter((o) => includeDeclaration || o.role !== "definition")
      .map((o) => ({ uri: doc.uri, range: doc.rangeOf(o.start, o.end) })),
  );
}

/** Every occurrence of the id under the offset, in its own section; empty when none is there. */
export function sameId(doc: ScenarioDocument, offset: number): IdOccurrence[] {
  const at = occurrenceAt(doc.ids, offset);
  if (at === null) return [];
  return doc.ids.occurrences.filter((o) => o.section === at.section && o.id === at.id);
}

// Rename a milestone or minefield id: its definition and every `after:` and `reference:` naming
// it, and nothing else (the other section's ids, text that merely looks the same). The new name
// is refused when it is not a valid id, is "initial", or is already taken in that section.
import { ErrorCodes, ResponseError, type Position, type Range, type TextEdit, type WorkspaceEdit } from "vscode-languageserver";
import type { ScenarioDocument } from "./document.js";
import { guarded } from "./guard.js";
import { INITIAL_ID, occurrenceAt } from "./id-table.js";
import { sameId } from "./references.js";

const ID_PATTERN = /^[A-Za-z_][A-Za-z0-9_]*$/;

export function prepareRename(doc: ScenarioDocument, position: Position): { range: Range; placeholder: string } | null {
  return guarded("prepareRename", null, () => {
    const at = occurrenceAt(doc.ids, doc.offsetAt(position));
    return at === null ? null : { range: doc.rangeOf(at.start, at.end), placeholder: at.id };
  });
}

export function rename(doc: ScenarioDocument, position: Position, newName: string): WorkspaceEdit | ResponseError<void> | null {
  return guarded("rename", null, (): WorkspaceEdit | ResponseError<void> | null => {
    const offset = doc.offsetAt(position);
    const at = occurrenceAt(doc.ids, offset);
    if (at === null) return null;
    const noun = at.section === "milestones" ? "milestone" : "minefield";
    const problem = invalidName(
      newName,
      noun,
      at.id,
      doc.ids.occurrences.filter((o) => o.section === at.section && o.role === "definition").map((o) => o.id),
    );
    if (problem !== null) return new ResponseError(ErrorCodes.InvalidParams, problem);
    const edits: TextEdit[] = sameId(doc, offset).map((o) => ({ range: doc.rangeOf(o.start, o.end), newText: newName }));
    return { changes: { [doc.uri]: edits } };
  });
}

function invalidName(name: string, noun: string, current: string, taken: readonly string[]): string | null {
  if (!ID_PATTERN.test(name)) return `"${name}" is not a valid id: use letters, digits and underscores, not starting with a digit.`;
  if (/^(true|false|null)$/i.test(name))
    return `"${name}" would be read as ${name.toLowerCase() === "null" ? "an empty value" : "true or false"}, not as an id.`;
  if (name === INITIAL_ID) return `"${INITIAL_ID}" is reserved: it names the world before the conversation.`;
  if (name !== current && taken.includes(name)) return `Another ${noun} already has the id "${name}".`;
  return null;
}

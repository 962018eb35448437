// The language feature requests: each one finds the open document, gets its parse for the
// current version, and hands it to the pure service function. A request for a document the
// client never opened gets an empty answer, never an error; the lifecycle, params and
// cancellation are checked first (requests.ts).
import { dirname } from "node:path";
import type {
  CodeActionParams,
  CodeLensParams,
  CompletionParams,
  Connection,
  DefinitionParams,
  DocumentSymbolParams,
  FoldingRangeParams,
  HoverParams,
  PrepareRenameParams,
  ReferenceParams,
  RenameParams,
  TextDocuments,
} from "vscode-languageserver";
import type { TextDocument } from "vscode-languageserver-textdocument";
import { obj, str } from "../../engine/scenario/raw.js";
import { codeActions, type CodeActionSupport } from "../service/code-actions.js";
import { completion } from "../service/completion.js";
import { definition } from "../service/definition.js";
import { getScenarioDocument, type ScenarioDocument } from "../service/document.js";
import { hover } from "../service/hover.js";
import type { HoverRun } from "../service/milestone-hover.js";
import { references } from "../service/references.js";
import { prepareRename, rename } from "../service/rename.js";
import { strengthLenses } from "../service/strength-lens.js";
import { documentSymbols, foldingRanges } from "../service/symbols.js";
import type { LastRuns } from "./last-run.js";
import type { ShownResults } from "./shown-results.js";
import { documentParams, positionParams, rangeParams, renameParams, request, type Lifecycle } from "./requests.js";
import { filePath } from "./uris.js";

export function registerFeatures(
  connection: Connection,
  documents: TextDocuments<TextDocument>,
  lastRuns: LastRuns,
  shownResults: ShownResults,
  lifecycle: Lifecycle,
  support: CodeActionSupport,
  /** The strength verdict of a document's last scored text (diagnostics.ts). */
  strengthOf: (uri: string) => string | null,
): void {
  const scenario = (uri: string): ScenarioDocument | null => {
    const doc = documents.get(uri);
    return doc ? getScenarioDocument(doc) : null;
  };

  connection.onCompletion(
    request(lifecycle, "completion", positionParams, ({ textDocument, position, context }: CompletionParams) => {
      const doc = scenario(textDocument.uri);
      return doc ? completion(doc, position, context) : null;
    }),
  );

  connection.onHover(
    request(lifecycle, "hover", positionParams, ({ textDocument, position }: HoverParams) => {
      const doc = scenario(textDocument.uri);
      return doc ? hover(doc, position, shownResults.of(textDocument.uri) ?? lastRunOf(doc, lastRuns)) : null;
    }),
  );

  connection.onDefinition(
    request(lifecycle, "definition", positionParams, ({ textDocument, position }: DefinitionParams) => {
      const doc = scenario(textDocument.uri);
      return doc ? definition(doc, position) : null;
    }),
  );

  connection.onReferences(
    request(lifecycle, "references", positionParams, ({ textDocument, position, context }: ReferenceParams) => {
      const doc = scenario(textDocument.uri);
      return doc ? references(doc, position, context?.includeDeclaration !== false) : [];
    }),
  );

  connection.onPrepareRename(
    request(lifecycle, "prepareRename", positionParams, ({ textDocument, position }: PrepareRenameParams) => {
      const doc = scenario(textDocument.uri);
      return doc ? prepareRename(doc, position) : null;
    }),
  );

  // The service answers an unusable new name with a ResponseError, which goes back as is.
  connection.onRenameRequest(
    request(lifecycle, "rename", renameParams, ({ textDocument, position, newName }: RenameParams) => {
      const doc = scenario(textDocument.uri);
      return doc ? rename(doc, position, newName) : null;
    }),
  );

  connection.onDocumentSymbol(
    request(lifecycle, "documentSymbol", documentParams, ({ textDocument }: DocumentSymbolParams) => {
      const doc = scenario(textDocument.uri);
      return doc ? documentSymbols(doc) : [];
    }),
  );

  connection.onFoldingRanges(
    request(lifecycle, "foldingRange", documentParams, ({ textDocument }: FoldingRangeParams) => {
      const doc = scenario(textDocument.uri);
      return doc ? foldingRanges(doc) : [];
    }),
  );

  connection.onCodeLens(
    request(lifecycle, "codeLens", documentParams, ({ textDocument }: CodeLensParams) => {
      const doc = scenario(textDocument.uri);
      return doc ? strengthLenses(doc, strengthOf(textDocument.uri)) : [];
    }),
  );

  connection.onCodeAction(
    request(lifecycle, "codeAction", rangeParams, ({ textDocument, range, context }: CodeActionParams) => {
      const doc = scenario(textDocument.uri);
      return doc ? codeActions(doc, range, context.diagnostics, support) : [];
    }),
  );
}

/** The newest saved run of this document's scenario, looked up by its `name`, for clients that show none. */
function lastRunOf(doc: ScenarioDocument, lastRuns: LastRuns): HoverRun | null {
  const name = str(obj(doc.source.value)?.name);
  if (name === null) return null;
  const path = filePath(doc.uri);
  const result = lastRuns.forScenario(name, path ? dirname(path) : null);
  return result === null ? null : { label: "Last run", result };
}

// What the server tells the client it can do, in the initialize answer.
import { CodeActionKind, TextDocumentSyncKind, type ServerCapabilities } from "vscode-languageserver";

/**
 * Characters that open completion besides typing a word: a space after `key:` or `- ` (values,
 * tool names), and the openers and separators of flow lists and maps (`after: [a, |]`).
 */
const COMPLETION_TRIGGER_CHARACTERS = [" ", "[", "{", ","];

export function serverCapabilities(): ServerCapabilities {
  return {
    textDocumentSync: {
      openClose: true,
      change: TextDocumentSyncKind.Incremental,
    },
    completionProvider: { triggerCharacters: COMPLETION_TRIGGER_CHARACTERS, resolveProvider: false },
    hoverProvider: true,
    definitionProvider: true,
    referencesProvider: true,
    renameProvider: { prepareProvider: true },
    documentSymbolProvider: true,
    foldingRangeProvider: true,
    codeActionProvider: { codeActionKinds: [CodeActionKind.QuickFix] },
    codeLensProvider: { resolveProvider: false },
    workspace: { workspaceFolders: { supported: true, changeNotifications: true } },
  };
}

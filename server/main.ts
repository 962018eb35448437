// The language server process: thin protocol handlers over the pure service in ./service.
// Runs over IPC when VS Code starts it, or stdio when started with --stdio.
import { createConnection, ProposedFeatures, TextDocuments, TextDocumentSyncKind } from "vscode-languageserver/node";
import { TextDocument } from "vscode-languageserver-textdocument";
import { fileURLToPath } from "node:url";
import { scenarioDiagnostics } from "./service/diagnostics.js";

const connection = createConnection(ProposedFeatures.all);
const documents = new TextDocuments(TextDocument);

connection.onInitialize(() => ({
  capabilities: { textDocumentSync: TextDocumentSyncKind.Incremental },
  serverInfo: { name: "toolsandbox-language-server" },
}));

function fileName(uri: string): string {
  return uri.startsWith("file:") ? fileURLToPath(uri) : uri;
}

function validate(doc: TextDocument): void {
  const diagnostics = scenarioDiagnostics(doc.getText(), fileName(doc.uri));
  void connection.sendDiagnostics({ uri: doc.uri, version: doc.version, diagnostics });
}

documents.onDidChangeContent((change) => validate(change.document));
documents.onDidClose((e) => void connection.sendDiagnostics({ uri: e.document.uri, diagnostics: [] }));

documents.listen(connection);
connection.listen();

// Wires a connection to the language service. Both entry points call this: dist/server.js
// (VS Code starts it over IPC, other clients with --stdio) and `toolsandbox lsp`.
import {
  CodeLensRefreshRequest,
  DidChangeConfigurationNotification,
  DidChangeWatchedFilesNotification,
  TextDocuments,
  type Connection,
  type InitializeParams,
  type WorkspaceFolder,
} from "vscode-languageserver";
import { inspect } from "node:util";
import { TextDocument } from "vscode-languageserver-textdocument";
import { version } from "../../package.json";
import { serverCapabilities } from "./capabilities.js";
import { DEFAULT_TIMING, DiagnosticsPublisher, type DiagnosticsTiming } from "./diagnostics.js";
import { registerFeatures } from "./features.js";
import { LastRuns } from "./last-run.js";
import { SHOWN_RESULTS_METHOD, ShownResults } from "./shown-results.js";
import { ReferenceScoring, type WorkerEntry } from "./reference-scoring.js";
import { Lifecycle } from "./requests.js";
import { STRENGTH_METHOD, strengthNotice } from "./strength-notice.js";
import { filePath } from "./uris.js";

const SERVER_NAME = "toolsandbox-language-server";
const SETTINGS_SECTION = "toolsandbox";
const RUNS_FOLDER_SETTING = `${SETTINGS_SECTION}.runsFolder`;

interface ServerOptions {
  /** How to start the reference-scoring worker; null scores in the server process. */
  readonly referenceWorker: WorkerEntry | null;
  readonly timing?: DiagnosticsTiming;
}

export function startServer(connection: Connection, options: ServerOptions): void {
  redirectConsole(connection);
  const log = (message: string): void => connection.console.log(message);
  const lifecycle = new Lifecycle();
  const codeActionSupport = { snippetEdits: false };
  const documents = new TextDocuments(TextDocument);
  const lastRuns = new LastRuns(log);
  const shownResults = new ShownResults();
  const scoring = new ReferenceScoring(options.referenceWorker, (result) => publisher.referenceScored(result), log);
  const publisher = new DiagnosticsPublisher(
    (params) => void connection.sendDiagnostics(params),
    (uri) => documents.get(uri),
    scoring,
    log,
    options.timing ?? DEFAULT_TIMING,
    () => lifecycle.pending > 0,
  );

  let refreshLenses = false;
  publisher.onStrengthChanged((uri) => {
    const notice = strengthNotice(uri, publisher.strengthOf(uri), publisher.strengthFindingsOf(uri));
    connection
      .sendNotification(STRENGTH_METHOD, notice)
      .catch((e: unknown) => log(`cannot send the strength of ${uri}: ${e instanceof Error ? e.message : String(e)}`));
    if (refreshLenses)
      connection
        .sendRequest(CodeLensRefreshRequest.type)
        .catch((e: unknown) => log(`cannot refresh code lenses: ${e instanceof Error ? e.message : String(e)}`));
  });
  let watchTrajectories = false;
  let followFolders = false;
  let askSettings = false;
  let followSettings = false;
  // Where the extension writes runs (`toolsandbox.runsFolder`), for the last-run lookup. Asked of
  // clients that answer workspace/configuration; others get the default folder.
  const readRunsFolder = (): void => {
    connection.workspace.getConfiguration(RUNS_FOLDER_SETTING).then(
      (value: unknown) => lastRuns.setRunsFolderSetting(typeof value === "string" ? value : ""),
      (e: unknown) => log(`cannot read ${RUNS_FOLDER_SETTING}: ${e instanceof Error ? e.message : String(e)}`),
    );
  };
  connection.onInitialize((params) => {
    lastRuns.setRoots(workspaceRoots(params));
    const workspace = params.capabilities.workspace;
    watchTrajectories = workspace?.didChangeWatchedFiles?.dynamicRegistration === true;
    followFolders = workspace?.workspaceFolders === true;
    askSettings = workspace?.configuration === true;
    followSettings = askSettings && workspace?.didChangeConfiguration?.dynamicRegistration === true;
    codeActionSupport.snippetEdits = workspace?.workspaceEdit?.snippetEditSupport === true;
    refreshLenses = workspace?.codeLens?.refreshSupport === true;
    lifecycle.initialized = true;
    return { capabilities: serverCapabilities(), serverInfo: { name: SERVER_NAME, version } };
  });

  connection.onInitialized(() => {
    if (askSettings) readRunsFolder();
    if (followSettings) {
      connection.client.register(DidChangeConfigurationNotification.type, { section: SETTINGS_SECTION }).catch((e: unknown) => {
        log(`cannot follow setting changes (${e instanceof Error ? e.message : String(e)}); the runs folder is read at start only`);
      });
    }
    if (watchTrajectories) {
      connection.client.register(DidChangeWatchedFilesNotification.type, { watchers: [{ globPattern: "**/*.trajectory.jsonl" }] }).then(
        () => lastRuns.setWatched(true),
        (e: unknown) => log(`cannot watch trajectory files (${e instanceof Error ? e.message : String(e)}); rescanning on demand`),
      );
    }
    if (followFolders) {
      connection.workspace.onDidChangeWorkspaceFolders(() => {
        connection.workspace.getWorkspaceFolders().then(
          (folders) => lastRuns.setRoots(folderPaths(folders ?? [])),
          (e: unknown) => log(`cannot read the workspace folders: ${e instanceof Error ? e.message : String(e)}`),
        );
      });
    }
  });
  connection.onDidChangeWatchedFiles(() => lastRuns.filesChanged());
  connection.onNotification(SHOWN_RESULTS_METHOD, (params: unknown) => {
    const refused = shownResults.accept(params);
    if (refused !== null) log(refused);
  });
  connection.onDidChangeConfiguration(() => {
    if (askSettings) readRunsFolder();
  });

  documents.onDidChangeContent(({ document }) => publisher.contentChanged(document));
  documents.onDidClose(({ document }) => publisher.closed(document.uri));
  registerFeatures(connection, documents, lastRuns, shownResults, lifecycle, codeActionSupport, (uri) => publisher.strengthOf(uri));

  connection.onShutdown(() => {
    lifecycle.shutDown = true;
    publisher.dispose();
    scoring.dispose();
  });
  documents.listen(connection);
  connection.listen();
}

function workspaceRoots(params: InitializeParams): string[] {
  if (params.workspaceFolders) return folderPaths(params.workspaceFolders);
  const root = params.rootUri ? filePath(params.rootUri) : (params.rootPath ?? null);
  return root ? [root] : [];
}

function folderPaths(folders: readonly WorkspaceFolder[]): string[] {
  return folders.map((f) => filePath(f.uri)).filter((p): p is string => p !== null);
}

/**
 * Over stdio, stdout is the protocol stream: a stray console.log would corrupt it. Everything the
 * process logs goes to the client's log instead (over IPC too, for one behaviour everywhere).
 */
function redirectConsole(connection: Connection): void {
  const text = (args: readonly unknown[]): string => args.map((a) => (typeof a === "string" ? a : inspect(a))).join(" ");
  console.log = (...args: unknown[]) => connection.console.log(text(args));
  console.info = (...args: unknown[]) => connection.console.info(text(args));
  console.debug = (...args: unknown[]) => connection.console.log(text(args));
  console.warn = (...args: unknown[]) => connection.console.warn(text(args));
  console.error = (...args: unknown[]) => connection.console.error(text(args));
}

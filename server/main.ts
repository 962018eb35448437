// Entry point of dist/server.js, the language server process. VS Code starts it over IPC; other
// clients start it with --stdio (or use `toolsandbox lsp --stdio`, the same server). The same
// bundle also runs as the server's reference-scoring worker thread.
import { isReferenceWorker, runReferenceWorker } from "./handlers/reference-scoring.js";
import { startServer } from "./handlers/start.js";
import { commandLineConnection } from "./handlers/transport.js";

if (isReferenceWorker()) {
  runReferenceWorker();
} else {
  // The transport (--node-ipc, --stdio, --socket=N) is read from the command line.
  startServer(commandLineConnection(), { referenceWorker: { script: __filename, argv: [] } });
}

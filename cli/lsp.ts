// `toolsandbox lsp`: the language server for editors other than VS Code (Neovim, Helix, Emacs,
// ...). It is the same server as dist/server.js, started on stdin/stdout.
import { Option, type Command } from "commander";

interface LspOptions {
  readonly stdio?: boolean;
  readonly nodeIpc?: boolean;
  readonly socket?: string;
  readonly referenceWorker?: boolean;
}

/** The arguments that make this bundle run as the server's reference-scoring worker thread. */
const WORKER_ARGV = ["lsp", "--reference-worker"];

export function registerLsp(program: Command): void {
  program
    .command("lsp")
    .description("start the language server for scenario files (LSP over stdin/stdout, for any editor)")
    .option("--stdio", "speak LSP over stdin/stdout (the default)")
    .addOption(new Option("--node-ipc", "speak LSP over a Node IPC channel (when started by a Node parent)"))
    .addOption(new Option("--socket <port>", "speak LSP over a TCP socket the client listens on"))
    // Passed by some clients so the server exits with them; read by vscode-languageserver itself.
    .addOption(new Option("--clientProcessId <pid>").hideHelp())
    .addOption(new Option("--reference-worker").hideHelp())
    .addHelpText("after", "\ndocs/editors.md has set-ups for Neovim, Helix and Emacs.")
    .action(async (opts: LspOptions) => {
      // Loaded here, so that the other commands do not load the language server.
      const [{ commandLineConnection, stdioConnection }, { runReferenceWorker }, { startServer }] = await Promise.all([
        import("../server/handlers/transport.js"),
        import("../server/handlers/reference-scoring.js"),
        import("../server/handlers/start.js"),
      ]);
      if (opts.referenceWorker) return runReferenceWorker();
      // With --node-ipc or --socket the library reads the transport from the command line; with
      // nothing (or --stdio) the server speaks on this process's stdin and stdout.
      const connection = opts.nodeIpc || opts.socket !== undefined ? commandLineConnection() : stdioConnection();
      startServer(connection, { referenceWorker: { script: __filename, argv: WORKER_ARGV } });
    });
}

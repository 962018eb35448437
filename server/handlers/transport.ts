// The server's connection, with two answers the library leaves out: a request cancelled while it
// still waits in the queue is answered -32800 at once, and (over stdio) a message whose body is not
// JSON is answered -32700 instead of being dropped with a log line.
import {
  createConnection,
  ErrorCodes,
  LSPErrorCodes,
  ProposedFeatures,
  StreamMessageReader,
  StreamMessageWriter,
  type Connection,
  type ConnectionOptions,
  type Message,
  type ResponseMessage,
} from "vscode-languageserver/node";

const OPTIONS: ConnectionOptions = {
  connectionStrategy: {
    cancelUndispatched: (message: Message): ResponseMessage | undefined => {
      const id = (message as { id?: unknown }).id;
      if (typeof id !== "number" && typeof id !== "string") return undefined;
      return { jsonrpc: "2.0", id, error: { code: LSPErrorCodes.RequestCancelled, message: "The request was cancelled." } };
    },
  },
};

/** Over this process's stdin and stdout. */
export function stdioConnection(): Connection {
  const reader = new StreamMessageReader(process.stdin);
  const writer = new StreamMessageWriter(process.stdout);
  reader.onError((error) => {
    // The reader reports a body it cannot decode as a SyntaxError (JSON.parse) and reads on.
    if (!(error instanceof SyntaxError)) return;
    const response: ResponseMessage = {
      jsonrpc: "2.0",
      id: null,
      error: { code: ErrorCodes.ParseError, message: `Parse error: ${error.message}` },
    };
    writer.write(response).catch(() => undefined);
  });
  return createConnection(ProposedFeatures.all, reader, writer, OPTIONS);
}

/** The transport the command line names (--stdio, --node-ipc, --socket=N). */
export function commandLineConnection(): Connection {
  if (process.argv.includes("--stdio")) return stdioConnection();
  return createConnection(ProposedFeatures.all, OPTIONS);
}

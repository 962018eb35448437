// Extension entry: starts the language client for scenario files (authoring works in untrusted
// workspaces too) and wires the run side: commands, the panel and trajectory editors, results in
// the scenario editor, and scenarios in the Testing view. Each piece lives in client/host/.
import * as path from "node:path";
import * as vscode from "vscode";
import { LanguageClient, TransportKind, type LanguageClientOptions, type ServerOptions } from "vscode-languageclient/node";
import { ApiKeys } from "./host/api-keys.js";
import { ScenarioCodeLenses } from "./host/code-lenses.js";
import { Commands } from "./host/commands.js";
import { registerDebugger } from "./host/debugging.js";
import { InlineResults } from "./host/inline-results.js";
import { SCENARIO_LANGUAGE } from "./host/scenario-documents.js";
import { LiveRescore } from "./host/live-rescore.js";
import { PanelViews } from "./host/main-panel.js";
import { RunsViews } from "./host/runs-views.js";
import { Runner } from "./host/runner.js";
import { RunStore } from "./host/run-store.js";
import { syncShownResults } from "./host/shown-results-sync.js";
import { registerSidebar } from "./host/sidebar.js";
import { ScenarioTests } from "./host/testing.js";
import { STRENGTH_METHOD, type StrengthNotice } from "../server/handlers/strength-notice.js";
import { TrajectoryEditorProvider } from "./host/trajectory-editor.js";
import { Trajectories } from "./host/trajectories.js";

let client: LanguageClient | undefined;

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  const log = vscode.window.createOutputChannel("ToolSandbox", { log: true });
  // Runs a panel shows stay in memory; the store asks the views, which are created below.
  let views: PanelViews | null = null;
  const store = new RunStore((file) => (views?.showing(file).length ?? 0) > 0);
  const scoringWorker = context.asAbsolutePath(path.join("dist", "scoring-worker.js"));
  const trajectories = new Trajectories(store, log, scoringWorker);
  const keys = new ApiKeys(context.secrets, context.globalState);
  // The panel's "show this node" needs the commands, which need the views: a late binding.
  let commands: Commands | null = null;
  views = new PanelViews({
    extensionUri: context.extensionUri,
    log,
    workspaceState: context.workspaceState,
    loadFeed: (file) => trajectories.loadFeed(file),
    revealNode: (feed, kind, id) => void commands?.revealNode(feed, kind, id),
  });
  const rescore = new LiveRescore(store, scoringWorker);
  const runner = new Runner(store, views, trajectories, keys, log);
  const runsViews = new RunsViews(context.extensionUri, log);
  commands = new Commands({ store, views, trajectories, runner, rescore, keys, runsViews, log });
  const lenses = new ScenarioCodeLenses(store, trajectories);
  const tests = new ScenarioTests(runner, store);

  context.subscriptions.push(
    log,
    views,
    views.register(),
    TrajectoryEditorProvider.register({ views, openSaved: (file) => trajectories.openSaved(file) }),
    rescore,
    trajectories,
    new InlineResults(store),
    lenses,
    vscode.languages.registerCodeLensProvider({ language: SCENARIO_LANGUAGE, scheme: "file" }, lenses),
    tests,
    ...commands.register(),
    ...registerDebugger({ store, views, trajectories, keys, log }),
    ...registerSidebar(),
  );

  const languageClient = await startLanguageClient(context);
  // The strength the language server measured, under each scenario in the Testing view.
  context.subscriptions.push(languageClient.onNotification(STRENGTH_METHOD, (notice: StrengthNotice) => tests.showStrength(notice)));
  context.subscriptions.push(
    syncShownResults(store, (method, params) => {
      languageClient
        .sendNotification(method, params)
        .catch((e: unknown) =>
          log.warn(`cannot tell the language server the shown results: ${e instanceof Error ? e.message : String(e)}`),
        );
    }),
  );
}

async function startLanguageClient(context: vscode.ExtensionContext): Promise<LanguageClient> {
  const serverModule = context.asAbsolutePath(path.join("dist", "server.js"));
  const serverOptions: ServerOptions = {
    run: { module: serverModule, transport: TransportKind.ipc },
    debug: { module: serverModule, transport: TransportKind.ipc, options: { execArgv: ["--nolazy", "--inspect=6009"] } },
  };
  const clientOptions: LanguageClientOptions = {
    documentSelector: [
      { scheme: "file", language: SCENARIO_LANGUAGE },
      { scheme: "untitled", language: SCENARIO_LANGUAGE },
    ],
  };
  client = new LanguageClient("toolsandbox", "ToolSandbox Scenario", serverOptions, clientOptions);
  context.subscriptions.push({ dispose: () => void client?.stop() });
  await client.start();
  return client;
}

export async function deactivate(): Promise<void> {
  await client?.stop();
  client = undefined;
}

// API keys for model endpoints, kept only in VS Code's secret storage (the OS keychain; never in
// settings, logs, trajectories or the panel). A key belongs to an endpoint's origin, so an agent
// and a user simulator on the same service share one key, and two services keep two. The
// origins with a stored key are listed in global state (origins are not secret) so "Clear API
// Key" can offer them.
import * as vscode from "vscode";
import { endpointOrigin, isLocalEndpoint } from "./endpoint.js";

const SECRET_PREFIX = "toolsandbox.apiKey:";
const ORIGINS_KEY = "toolsandbox.apiKeyOrigins";
/** Sent to a local endpoint when no key is stored: OpenAI-compatible local servers accept any. */
const PLACEHOLDER_KEY = "no-key";

/** Where a run's key came from; recorded in the trajectory header as the settings' api_key_env. */
export type KeySource = "vscode-secret-storage" | "none";

interface RunKey {
  readonly key: string;
  readonly source: KeySource;
}

export class ApiKeys {
  constructor(
    private readonly secrets: vscode.SecretStorage,
    private readonly globalState: vscode.Memento,
  ) {}

  /**
   * The key for a run against `baseUrl`: the stored one; for a local endpoint without one, a
   * placeholder; otherwise the user is asked (an empty answer runs without a key, Escape cancels
   * and gives undefined).
   */
  async forRun(baseUrl: string): Promise<RunKey | undefined> {
    const origin = endpointOrigin(baseUrl);
    if (origin === null) return undefined;
    const stored = await this.secrets.get(SECRET_PREFIX + origin);
    if (stored) return { key: stored, source: "vscode-secret-storage" };
    if (isLocalEndpoint(baseUrl)) return { key: PLACEHOLDER_KEY, source: "none" };
    const entered = await askForKey(
      origin,
      "No API key is stored for this endpoint. Enter one to store it, or leave empty to run without a key.",
    );
    if (entered === undefined) return undefined;
    if (entered === "") return { key: PLACEHOLDER_KEY, source: "none" };
    await this.store(origin, entered);
    return { key: entered, source: "vscode-secret-storage" };
  }

  /** "Set API Key": for one of the configured endpoints (asked when the roles use two). */
  async setCommand(configuredBaseUrls: readonly string[]): Promise<void> {
    const origins = unique(configuredBaseUrls.map(endpointOrigin).filter((o): o is string => o !== null));
    const origin = await pick(origins, "Which endpoint is the key for?");
    if (origin === undefined) {
      if (origins.length === 0)
        void vscode.window.showWarningMessage(
          "ToolSandbox: no model endpoint is configured (toolsandbox.agent.baseUrl, toolsandbox.user.baseUrl).",
        );
      return;
    }
    const key = await askForKey(origin, "Stored in VS Code's secret storage; used by Run Scenario with Model.");
    if (!key) return;
    await this.store(origin, key);
    void vscode.window.showInformationMessage(`ToolSandbox: stored the API key for ${origin}.`);
  }

  /** "Clear API Key": removes the key of one endpoint, or of all. */
  async clearCommand(): Promise<void> {
    const origins = this.storedOrigins();
    if (origins.length === 0) {
      void vscode.window.showInformationMessage("ToolSandbox: no API key is stored.");
      return;
    }
    const ALL = "All endpoints";
    const choice = origins.length === 1 ? origins[0] : await pick([...origins, ALL], "Clear the API key of which endpoint?");
    if (choice === undefined) return;
    const cleared = choice === ALL ? origins : [choice];
    for (const origin of cleared) await this.secrets.delete(SECRET_PREFIX + origin);
    await this.globalState.update(
      ORIGINS_KEY,
      origins.filter((o) => !cleared.includes(o)),
    );
    void vscode.window.showInformationMessage(`ToolSandbox: cleared the API key for ${cleared.join(", ")}.`);
  }

  private storedOrigins(): string[] {
    const value = this.globalState.get<unknown>(ORIGINS_KEY);
    return Array.isArray(value) ? value.filter((o): o is string => typeof o === "string") : [];
  }

  private async store(origin: string, key: string): Promise<void> {
    await this.secrets.store(SECRET_PREFIX + origin, key);
    await this.globalState.update(ORIGINS_KEY, unique([...this.storedOrigins(), origin]));
  }
}

function askForKey(origin: string, prompt: string): Thenable<string | undefined> {
  return vscode.window
    .showInputBox({
      title: `ToolSandbox: API key for ${origin}`,
      prompt,
      password: true,
      ignoreFocusOut: true,
      placeHolder: "API key",
    })
    .then((value) => value?.trim());
}

async function pick(items: readonly string[], placeHolder: string): Promise<string | undefined> {
  if (items.length <= 1) return items[0];
  return vscode.window.showQuickPick([...items], { placeHolder, ignoreFocusOut: true });
}

const unique = (items: readonly string[]): string[] => [...new Set(items)];

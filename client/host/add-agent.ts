// (vscode) "Add Agent…": configures an agent through quick picks and input boxes instead of
// settings.json. A program (spoken to over MCP, as `run --agent cmd:`) is appended to
// `toolsandbox.agents`; a model sets `toolsandbox.agent.model` and `.baseUrl`, and a remote
// endpoint is offered its API key next (kept in secret storage, never in settings).
import * as vscode from "vscode";
import { agentNameProblem, baseUrlProblem, withCommandAgent } from "./agent-setup.js";
import { isLocalEndpoint } from "./endpoint.js";

const TITLE = "ToolSandbox: Add Agent";

/** Workspace settings when a folder is open (agents belong to the project), else the user's. */
const target = (): vscode.ConfigurationTarget =>
  (vscode.workspace.workspaceFolders?.length ?? 0) > 0 ? vscode.ConfigurationTarget.Workspace : vscode.ConfigurationTarget.Global;

export async function addAgent(setApiKey: () => Promise<unknown>): Promise<void> {
  if (!vscode.workspace.isTrusted) {
    void vscode.window.showWarningMessage(
      "ToolSandbox: agents can be added in a trusted workspace only (they run programs and reach endpoints).",
    );
    return;
  }
  type Kind = vscode.QuickPickItem & { readonly agentKind: "program" | "model" };
  const kind = await vscode.window.showQuickPick<Kind>(
    [
      {
        label: "$(terminal) A program",
        description: "cmd: · spoken to over MCP",
        detail: "Your own agent: a command line started per run with the episode's MCP endpoint (docs/agents.md).",
        agentKind: "program",
      },
      {
        label: "$(hubot) A model",
        description: "OpenAI-compatible endpoint",
        detail: "Run Scenario with Model plays the agent with it: OpenAI, Azure, vLLM, Ollama, llama.cpp or `toolsandbox mock-llm`.",
        agentKind: "model",
      },
    ],
    { title: `${TITLE} (1/3)`, placeHolder: "What kind of agent?" },
  );
  if (kind === undefined) return;
  if (kind.agentKind === "program") await addProgram();
  else await setModel(setApiKey);
}

async function addProgram(): Promise<void> {
  const config = vscode.workspace.getConfiguration("toolsandbox");
  const current = config.get<unknown>("agents");
  const name = await vscode.window.showInputBox({
    title: `${TITLE} (2/3)`,
    prompt: "The agent's name, as Run Scenario with Agent… lists it",
    placeHolder: "my-agent",
    validateInput: (value) => agentNameProblem(current, value),
  });
  if (name === undefined) return;
  const command = await vscode.window.showInputBox({
    title: `${TITLE} (3/3)`,
    prompt: "The command line, run in the workspace folder without a shell (TOOLSANDBOX_MCP_URL names the episode's endpoint)",
    placeHolder: "python agents/my_agent.py",
    validateInput: (value) => (value.trim() === "" ? "A command line, such as `node agent.js`." : null),
  });
  if (command === undefined) return;
  const user = await vscode.window.showQuickPick(
    [
      { label: "scripted", description: "the scenario's own user lines" },
      { label: "model", description: "the model of toolsandbox.user.*" },
    ],
    { title: TITLE, placeHolder: "Who plays the user?" },
  );
  if (user === undefined) return;
  const next = withCommandAgent(current, name, command, user.label === "model" ? "model" : "scripted");
  if (!next.ok) {
    void vscode.window.showErrorMessage(`ToolSandbox: ${next.problem}`);
    return;
  }
  await config.update("agents", next.value, target());
  const run = "Run Scenario with Agent…";
  const picked = await vscode.window.showInformationMessage(`ToolSandbox: added the agent "${name.trim()}" to toolsandbox.agents.`, run);
  if (picked === run) await vscode.commands.executeCommand("toolsandbox.runScenarioWithAgent");
}

async function setModel(setApiKey: () => Promise<unknown>): Promise<void> {
  const config = vscode.workspace.getConfiguration("toolsandbox");
  const baseUrl = await vscode.window.showInputBox({
    title: `${TITLE} (2/3)`,
    prompt: "The OpenAI-compatible endpoint (its /v1 base URL)",
    value: config.get<string>("agent.baseUrl") ?? "https://api.openai.com/v1",
    validateInput: baseUrlProblem,
  });
  if (baseUrl === undefined) return;
  const model = await vscode.window.showInputBox({
    title: `${TITLE} (3/3)`,
    prompt: "The model's name at that endpoint (`mock/<scenario name>` for toolsandbox mock-llm)",
    value: config.get<string>("agent.model") ?? "",
    validateInput: (value) => (value.trim() === "" ? "A model name, such as gpt-4o." : null),
  });
  if (model === undefined) return;
  await config.update("agent.baseUrl", baseUrl.trim(), target());
  await config.update("agent.model", model.trim(), target());
  const done = `ToolSandbox: Run Scenario with Model now plays the agent with ${model.trim()} at ${baseUrl.trim()}.`;
  if (isLocalEndpoint(baseUrl.trim())) {
    void vscode.window.showInformationMessage(done);
    return;
  }
  const setKey = "Set API Key";
  if ((await vscode.window.showInformationMessage(`${done} It needs an API key.`, setKey)) === setKey) await setApiKey();
}

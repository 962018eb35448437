// The roles of a launch configuration: the agent kinds `run --agent` takes (cmd: too), a model's
// key handed over by the extension (secret storage) kept per role and recorded by its source only,
// and no key ever read from the launch configuration itself.
import { strict as assert } from "node:assert";
import { test } from "node:test";
import { checkLaunchArguments, type LaunchArguments } from "../../engine/debug/launch-arguments.js";
import { launchRoles } from "../../engine/debug/launch-roles.js";
import { createRoles } from "../../engine/runner/role-specs.js";
import { loadScenario } from "../../engine/runner/scenario-files.js";
import { FIXTURE } from "./dap-client.js";

const launch = (raw: Record<string, unknown>): LaunchArguments => {
  const checked = checkLaunchArguments({ program: "a.scenario.yaml", ...raw }, "/work");
  assert.notEqual(typeof checked, "string", String(checked));
  return checked as LaunchArguments;
};

test("a launch configuration's agent may be a command; it starts in the launch's cwd", () => {
  const args = launch({ agent: "cmd:node 'my agent.mjs' --fast", cwd: "agents" });
  assert.equal(args.cwd, "/work/agents");
  assert.equal(args.program, "/work/agents/a.scenario.yaml");
  const specs = launchRoles(args, {});
  assert.equal(specs.agent.kind, "mcp");
  assert.equal(specs.agent.kind === "mcp" ? specs.agent.id : "", "cmd:node 'my agent.mjs' --fast");
  assert.equal(
    checkLaunchArguments({ program: "a.scenario.yaml", user: "cmd:node x.mjs" }, "/work"),
    'user: "cmd:node x.mjs" is not scripted or openai:MODEL',
  );
  assert.equal(
    checkLaunchArguments({ program: "a.scenario.yaml", agent: "cmd:  " }, "/work"),
    'agent: "cmd:  " is not scripted, openai:MODEL, cmd:COMMAND LINE or a2a:URL',
  );
});

test("a launch configuration's agent may be a remote agent over A2A; a URL that is not one is refused", () => {
  const specs = launchRoles(launch({ agent: "a2a:http://127.0.0.1:9999" }), {});
  assert.equal(specs.agent.kind, "mcp");
  assert.equal(specs.agent.kind === "mcp" ? specs.agent.id : "", "a2a:http://127.0.0.1:9999");
  assert.throws(() => launchRoles(launch({ agent: "a2a:not-a-url" }), {}), /a2a/);
});

test("a key in the launch configuration refuses the launch; keys handed over are used per role and recorded by source", () => {
  assert.equal(
    checkLaunchArguments({ program: "a.scenario.yaml", agent: "openai:gpt-4o", apiKey: "sk-secret" }, "/work"),
    "apiKey: API keys are not read from launch configurations (VS Code: ToolSandbox: Set API Key; toolsandbox dap: the environment variable, as for run)",
  );
  const args = launch({ agent: "openai:gpt-4o", user: "openai:gpt-4o-mini", userBaseUrl: "https://other.example/v1" });
  // Without a key, OpenAI's endpoint is refused (the extension asks for one first).
  assert.throws(() => launchRoles(args, {}), /the agent's API key is missing/);
  const specs = launchRoles(
    args,
    { OPENAI_API_KEY: "from-env" },
    {
      agent: { key: "sk-agent", source: "vscode-secret-storage" },
      user: { key: "sk-user", source: "vscode-secret-storage" },
    },
  );
  assert.equal(specs.agent.kind === "openai" ? specs.agent.apiKey : null, "sk-agent");
  assert.equal(specs.user.kind === "openai" ? specs.user.apiKey : null, "sk-user");
  const scenario = loadScenario(FIXTURE).scenario;
  assert.ok(scenario);
  const roles = createRoles(specs.agent, specs.user, scenario, {});
  // The header names where the key came from, never the key.
  assert.equal(roles.agent.settings?.api_key_env, "vscode-secret-storage");
  assert.equal(roles.user.settings?.api_key_env, "vscode-secret-storage");
  assert.ok(!JSON.stringify([roles.agent.settings, roles.user.settings]).includes("sk-"));
});

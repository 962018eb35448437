// Who plays the agent and the user (engine/runner/role-specs.ts), called directly as the CLI, the
// extension and the debugger call it: a bad spec is a RoleSpecError with one line saying what to
// change (the front end picks the exit code), never a silently ignored option.
import { test } from "node:test";
import assert from "node:assert/strict";
import { ExitError, RoleSpecError } from "../../engine/runner/errors.js";
import { roleSpec, roleSpecs, type ModelRoleFlags } from "../../engine/runner/role-specs.js";

const KEY = { OPENAI_API_KEY: "sk-test" };

function refused(run: () => unknown, message: string): void {
  assert.throws(run, (e: unknown) => {
    assert.ok(e instanceof RoleSpecError, String(e));
    assert.equal(e instanceof ExitError, false, "the engine throws no CLI exit code");
    assert.equal(e.message, message);
    return true;
  });
}

test("scripted against scripted needs no flags and no key", () => {
  assert.deepEqual(roleSpecs("scripted", "scripted", {}, {}), { agent: { kind: "scripted" }, user: { kind: "scripted" } });
});

test("a model agent gets the default endpoint and key variable, its own settings over the shared ones", () => {
  const flags: ModelRoleFlags = {
    baseUrl: "http://localhost:8000/v1",
    agentBaseUrl: "http://127.0.0.1:9000/v1",
    agentTemperature: 0.2,
    agentSeed: 7,
  };
  const { agent, user } = roleSpecs("openai:gpt-4o", "openai:gpt-4o-mini", flags, {});
  assert.equal(agent.kind, "openai");
  assert.equal(user.kind, "openai");
  if (agent.kind !== "openai" || user.kind !== "openai") return;
  assert.deepEqual(
    [agent.settings.model, agent.settings.base_url, agent.settings.temperature, agent.settings.seed, agent.settings.api_key_env],
    ["gpt-4o", "http://127.0.0.1:9000/v1", 0.2, 7, "OPENAI_API_KEY"],
  );
  assert.deepEqual(
    [user.settings.model, user.settings.base_url, user.settings.temperature],
    ["gpt-4o-mini", "http://localhost:8000/v1", null],
  );
  // A local server gets a placeholder key; nothing asks for OPENAI_API_KEY.
  assert.deepEqual([agent.keyRequired, user.keyRequired], [false, false]);
});

test("OpenAI itself, or a key variable the user named, needs the key: its absence is one line naming the variable", () => {
  refused(
    () => roleSpec("agent", "openai:gpt-4o", {}, {}),
    "the agent's API key is missing: set the environment variable OPENAI_API_KEY (for https://api.openai.com/v1)",
  );
  refused(
    () => roleSpec("user", "openai:m", { userBaseUrl: "http://localhost:8000/v1", userApiKeyEnv: "LOCAL_KEY" }, KEY),
    "the user's API key is missing: set the environment variable LOCAL_KEY (for http://localhost:8000/v1)",
  );
  const spec = roleSpec("agent", "openai:gpt-4o", {}, KEY);
  assert.equal(spec.kind === "openai" && spec.keyRequired, true);
});

test("an unknown role id, and a model option for a scripted role, are refused", () => {
  refused(() => roleSpec("agent", "gpt-4o", {}, KEY), 'unsupported agent "gpt-4o"');
  refused(() => roleSpec("user", "openai:", {}, KEY), 'unsupported user "openai:"');
  refused(
    () => roleSpecs("scripted", "openai:m", { agentTemperature: 0.5 }, KEY),
    "--agent-temperature applies to a model-backed agent only (--agent openai:<model>)",
  );
  refused(
    () => roleSpecs("scripted", "scripted", { baseUrl: "http://localhost:8000/v1" }, {}),
    "--base-url applies to model-backed roles only (--agent or --user openai:<model>)",
  );
  refused(
    () => roleSpecs("scripted", "scripted", { recordIo: false }, {}),
    "--no-record-io applies to model-backed roles only (--agent or --user openai:<model>)",
  );
});

test("outside agents: a bad command line or URL is refused, and their options apply to them only", () => {
  refused(
    () => roleSpec("agent", "a2a:ftp://example.com/agent", {}, {}),
    'a2a:: the URL must start with http:// or https://, got "ftp://example.com/agent"',
  );
  refused(() => roleSpec("agent", "a2a:not a url", {}, {}), 'a2a:: not a URL: "not a url"');
  refused(
    () => roleSpecs("openai:m", "scripted", { timeLimit: 30 }, KEY),
    "--time-limit applies to an outside agent only (--agent cmd:... or a2a:...)",
  );
  refused(
    () => roleSpecs("scripted", "scripted", { batchWindow: 5 }, {}),
    "--batch-window applies to an outside agent only (--agent cmd:... or a2a:...)",
  );
  const outside = roleSpec("agent", "a2a:http://127.0.0.1:9/agent", { batchWindow: 5 }, {});
  assert.deepEqual(outside.kind === "mcp" && [outside.id, outside.batchWindowMs], ["a2a:http://127.0.0.1:9/agent", 5]);
});

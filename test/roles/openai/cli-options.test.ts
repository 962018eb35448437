import { test } from "node:test";
import assert from "node:assert/strict";
import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { Command } from "commander";
import { RoleSpecError } from "../../../engine/runner/errors.js";
import { addModelRoleOptions, parseAgentId } from "../../../cli/role-options.js";
import { createRoles, roleSpecs, type ModelRoleFlags } from "../../../engine/runner/role-specs.js";
import { runConfigFor } from "../../../engine/runner/play-episode.js";
import { playWithModels, sample, SECRET_KEY } from "./helpers.js";

const SCENARIO = "send_message_with_contact_content_cellular_off_adapted";

/** What commander hands the run action for these arguments. */
function parse(args: string[]): ModelRoleFlags {
  const command = addModelRoleOptions(new Command("run").exitOverride().configureOutput({ writeErr: () => undefined }));
  command.parse(args, { from: "user" });
  return command.opts<ModelRoleFlags>();
}

/** A role spec the user got wrong: the typed error the CLI turns into a usage error (exit 2). */
const usageError = (pattern: RegExp) => (e: unknown) => e instanceof RoleSpecError && pattern.test(e.message);

test("model options: shared values, per-role overrides, defaults for the rest", () => {
  const flags = parse([
    "--base-url",
    "http://127.0.0.1:8080/v1/",
    "--user-base-url",
    "http://localhost:11434/v1",
    "--agent-temperature",
    "0",
    "--user-temperature",
    "1.2",
    "--agent-seed",
    "7",
    "--agent-max-tokens",
    "256",
    "--timeout",
    "30",
    "--max-retries",
    "5",
  ]);
  const specs = roleSpecs("openai:qwen2.5", "openai:llama3", flags, {});
  assert.deepEqual(specs.agent, {
    kind: "openai",
    keyRequired: false,
    recordIo: true,
    settings: {
      model: "qwen2.5",
      base_url: "http://127.0.0.1:8080/v1",
      temperature: 0,
      seed: 7,
      max_tokens: 256,
      timeout_seconds: 30,
      max_retries: 5,
      api_key_env: "OPENAI_API_KEY",
    },
  });
  assert.deepEqual(specs.user, {
    kind: "openai",
    keyRequired: false,
    recordIo: true,
    settings: {
      model: "llama3",
      base_url: "http://localhost:11434/v1",
      temperature: 1.2,
      seed: null,
      max_tokens: null,
      timeout_seconds: 30,
      max_retries: 5,
      api_key_env: "OPENAI_API_KEY",
    },
  });
});

test("bad values are refused when the options are read", () => {
  assert.throws(() => parse(["--agent-temperature", "hot"]), /temperature must be a number from 0 to 2/);
  assert.throws(() => parse(["--agent-temperature", "3"]), /temperature must be a number from 0 to 2/);
  assert.throws(() => parse(["--agent-max-tokens", "1.5"]), /token limit must be a whole number/);
  assert.throws(() => parse(["--max-retries", "-1"]), /number of retries must be a whole number from 0/);
  assert.throws(() => parse(["--base-url", "ftp://example.com"]), /must start with http/);
  assert.throws(() => parse(["--api-key-env", "MY-KEY"]), /not an environment variable name/);
  assert.throws(() => parseAgentId("openai:"), /unsupported agent/);
  assert.throws(() => parseAgentId("gpt-4o"), /unsupported agent/);
  assert.equal(parseAgentId("openai:gpt-4o"), "openai:gpt-4o");
});

test("model options for a scripted role are a usage error, not silently ignored", () => {
  assert.throws(
    () => roleSpecs("scripted", "openai:m", parse(["--agent-temperature", "0"]), {}),
    usageError(/--agent-temperature applies to a model-backed agent only/),
  );
  assert.throws(
    () => roleSpecs("scripted", "scripted", parse(["--base-url", "http://127.0.0.1:1/v1"]), {}),
    usageError(/--base-url applies to model-backed roles only/),
  );
  assert.throws(
    () => roleSpecs("scripted", "scripted", parse(["--no-record-io"]), {}),
    usageError(/--no-record-io applies to model-backed roles only/),
  );
  // --no-record-io reaches the model roles' specs; without it they record the bodies.
  const quiet = roleSpecs("openai:m", "openai:n", parse(["--no-record-io", "--base-url", "http://127.0.0.1:1/v1"]), {});
  assert.deepEqual(
    [quiet.agent.kind === "openai" && quiet.agent.recordIo, quiet.user.kind === "openai" && quiet.user.recordIo],
    [false, false],
  );
  // Mixed runs are fine: the scripted side simply has no model settings.
  assert.deepEqual(roleSpecs("openai:m", "scripted", parse(["--agent-seed", "1", "--base-url", "http://127.0.0.1:1/v1"]), {}).user, {
    kind: "scripted",
  });
});

test("the API key: required by OpenAI itself or when a variable is named, a placeholder for a local server", () => {
  assert.throws(
    () => roleSpecs("openai:gpt-4o", "scripted", {}, {}),
    usageError(/set the environment variable OPENAI_API_KEY \(for https:\/\/api\.openai\.com\/v1\)/),
  );
  assert.doesNotThrow(() => roleSpecs("openai:gpt-4o", "scripted", {}, { OPENAI_API_KEY: SECRET_KEY }));
  const local = parse(["--base-url", "http://127.0.0.1:1/v1"]);
  assert.doesNotThrow(() => roleSpecs("openai:m", "openai:m", local, {}));
  const named = parse(["--base-url", "http://127.0.0.1:1/v1", "--user-api-key-env", "SIM_KEY"]);
  assert.throws(
    () => roleSpecs("openai:m", "openai:m", named, {}),
    usageError(/user's API key is missing: set the environment variable SIM_KEY/),
  );
  const specs = roleSpecs("openai:m", "openai:m", named, { SIM_KEY: "k" });
  assert.equal(specs.user.kind === "openai" && specs.user.settings.api_key_env, "SIM_KEY");
  assert.equal(specs.agent.kind === "openai" && specs.agent.settings.api_key_env, "OPENAI_API_KEY");
});

test("the key is sent as the bearer token and nowhere else; the run header carries the settings without it", async () => {
  const scenario = sample(SCENARIO);
  const seen: { headers: IncomingHttpHeaders; body: string }[] = [];
  const server = createServer((req, res) => {
    let body = "";
    req.on("data", (c: Buffer) => (body += c.toString()));
    req.on("end", () => {
      seen.push({ headers: req.headers, body });
      const completion = {
        id: "x",
        object: "chat.completion",
        created: 0,
        model: "m",
        choices: [{ index: 0, finish_reason: "stop", message: { role: "assistant", content: "Hi." } }],
      };
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(completion));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  try {
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
    const flags = parse(["--agent-base-url", url, "--user-base-url", url, "--agent-api-key-env", "AGENT_KEY", "--max-retries", "0"]);
    const env = { AGENT_KEY: SECRET_KEY };
    const specs = roleSpecs("openai:a", "openai:u", flags, env);
    const roles = createRoles(specs.agent, specs.user, scenario, env);
    await playWithModels({ ...scenario, max_messages: 2 }, roles);
    assert.deepEqual(
      seen.map((s) => s.headers.authorization),
      [`Bearer ${SECRET_KEY}`, "Bearer no-key"],
    );
    assert.ok(seen.every((s) => !s.body.includes(SECRET_KEY)));
    const config = runConfigFor(roles.agent, roles.user, 0);
    assert.ok(!JSON.stringify(config).includes(SECRET_KEY));
    assert.equal(config.agent_settings?.api_key_env, "AGENT_KEY");
    assert.equal(config.user_settings?.base_url, url);
  } finally {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
});

test("scripted roles have no settings in the header", () => {
  const scenario = sample(SCENARIO);
  const roles = createRoles("scripted", "scripted", scenario, {});
  assert.deepEqual(runConfigFor(roles.agent, roles.user, 4), { agent: "scripted", user: "scripted", seed: 4, options: {} });
});

test("an unknown role id is refused, not played by the script", () => {
  assert.throws(() => createRoles("robot", "scripted", sample(SCENARIO), {}), usageError(/unsupported agent "robot"/));
});

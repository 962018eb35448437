// Settings as they enter the extension: defaults, the scripted fallback, and a one-line problem
// naming the setting for any value settings.json can hold but a run cannot use.
import { test } from "node:test";
import assert from "node:assert/strict";
import { endpointOrigin, isLocalEndpoint } from "../../client/host/endpoint.js";
import { readEpisodeSeed, readPassThreshold, readRoleChoice, readRunsFolder } from "../../client/host/settings.js";

const from =
  (values: Record<string, unknown>) =>
  (key: string): unknown =>
    values[key];

test("with no settings, both roles use gpt-4o at OpenAI with the server's defaults", () => {
  const agent = readRoleChoice("agent", from({}));
  assert.deepEqual(agent, {
    ok: true,
    value: {
      kind: "model",
      settings: {
        model: "gpt-4o",
        base_url: "https://api.openai.com/v1",
        temperature: null,
        seed: null,
        max_tokens: null,
        timeout_seconds: 120,
        max_retries: 2,
      },
    },
  });
  assert.deepEqual(readEpisodeSeed(from({})), { ok: true, value: 0 });
  assert.deepEqual(readPassThreshold(from({})), { ok: true, value: 1 });
  assert.deepEqual(readRunsFolder(from({})), { ok: true, value: "" });
});

test("a role's settings are read per role; an empty model means the scripted role", () => {
  const get = from({
    "agent.model": "mock/cellular_off",
    "agent.baseUrl": "http://127.0.0.1:8765/v1/",
    "agent.temperature": 0,
    "agent.seed": 7,
    "agent.maxTokens": 512,
    "user.model": "",
  });
  const agent = readRoleChoice("agent", get);
  assert.ok(agent.ok && agent.value.kind === "model");
  assert.equal(agent.value.settings.base_url, "http://127.0.0.1:8765/v1");
  assert.equal(agent.value.settings.temperature, 0);
  assert.equal(agent.value.settings.seed, 7);
  assert.equal(agent.value.settings.max_tokens, 512);
  assert.deepEqual(readRoleChoice("user", get), { ok: true, value: { kind: "scripted" } });
});

test("a value no run can use is named with its setting", () => {
  const problem = (role: "agent" | "user", values: Record<string, unknown>): string => {
    const read = readRoleChoice(role, from(values));
    assert.equal(read.ok, false);
    return read.ok ? "" : read.problem;
  };
  assert.equal(
    problem("agent", { "agent.baseUrl": "ftp://x" }),
    'toolsandbox.agent.baseUrl must be an http:// or https:// URL, not "ftp://x"',
  );
  assert.equal(problem("user", { "user.temperature": 3 }), "toolsandbox.user.temperature must be a number from 0 to 2 (or null), not 3");
  assert.equal(
    problem("agent", { "agent.seed": 1.5 }),
    "toolsandbox.agent.seed must be a whole number from 0 to 9007199254740991 (or null), not 1.5",
  );
  assert.equal(
    problem("agent", { "agent.maxTokens": "many" }),
    'toolsandbox.agent.maxTokens must be a whole number from 1 to 10000000 (or null), not "many"',
  );
  assert.equal(problem("agent", { "agent.model": 4 }), "toolsandbox.agent.model must be a string, not 4");
  const threshold = readPassThreshold(from({ passThreshold: 1.5 }));
  assert.ok(!threshold.ok && threshold.problem === "toolsandbox.passThreshold must be a number from 0 to 1 (or null), not 1.5");
});

test("loopback endpoints are local; anything else needs a key", () => {
  for (const url of [
    "http://127.0.0.1:8765/v1",
    "http://localhost:11434/v1",
    "http://[::1]:8000/v1",
    "http://api.localhost/v1",
    "http://127.1.2.3/",
  ]) {
    assert.equal(isLocalEndpoint(url), true, url);
  }
  for (const url of [
    "https://api.openai.com/v1",
    "http://192.168.1.5:8000/v1",
    "http://localhost.example.com/v1",
    "http://127.0.0.1.nip.io/",
    "not a url",
  ]) {
    assert.equal(isLocalEndpoint(url), false, url);
  }
});

test("keys are filed per endpoint origin, so two roles on one service share a key", () => {
  assert.equal(endpointOrigin("https://api.openai.com/v1"), "https://api.openai.com");
  assert.equal(endpointOrigin("https://API.openai.com:443/v2/"), "https://api.openai.com");
  assert.equal(endpointOrigin("http://127.0.0.1:8765/v1"), "http://127.0.0.1:8765");
  assert.equal(endpointOrigin("file:///etc/passwd"), null);
});

test("the judge is opt-in: no model setting means no judge; with one it is read like the other roles", () => {
  assert.deepEqual(readRoleChoice("judge", from({})), { ok: true, value: { kind: "scripted" } });
  const judge = readRoleChoice(
    "judge",
    from({ "judge.model": "mock", "judge.baseUrl": "http://127.0.0.1:8765/v1", "judge.temperature": 0 }),
  );
  assert.ok(judge.ok && judge.value.kind === "model");
  assert.equal(judge.value.settings.model, "mock");
  assert.equal(judge.value.settings.temperature, 0);
  const bad = readRoleChoice("judge", from({ "judge.model": "m", "judge.seed": -1 }));
  assert.equal(bad.ok, false);
  assert.match(bad.ok ? "" : bad.problem, /toolsandbox\.judge\.seed must be a whole number/);
});

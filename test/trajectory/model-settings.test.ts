import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import type { KeySource } from "../../client/host/api-keys.js";
import type { ModelSettings, TrajectoryHeader } from "../../engine/episode/types.js";
import { checkEvent, checkHeader } from "../../engine/trajectory/schema.js";
import { syntheticHeader } from "./synthetic.js";

const settings: ModelSettings = {
  model: "gpt-4o",
  base_url: "https://api.openai.com/v1",
  temperature: null,
  seed: 1,
  max_tokens: null,
  timeout_seconds: 120,
  max_retries: 2,
  api_key_env: "OPENAI_API_KEY",
};

const withRun = (run: Record<string, unknown>): unknown => {
  const header: TrajectoryHeader = syntheticHeader();
  return { ...header, run: { ...header.run, ...run } };
};

test("a header may record each model-backed role's settings", () => {
  const checked = checkHeader(
    withRun({ agent: "openai:gpt-4o", agent_settings: settings, user_settings: { ...settings, temperature: 0.5 } }),
  );
  assert.equal(checked.ok, true, checked.ok ? "" : checked.error);
});

test("the settings schema has no room for a key, and every setting must be there", () => {
  const leaked = checkHeader(withRun({ agent_settings: { ...settings, api_key: "sk-123" } }));
  assert.deepEqual(leaked, { ok: false, error: '/run/agent_settings has an unexpected property "api_key"' });
  const { max_retries: _dropped, ...partial } = settings;
  assert.deepEqual(checkHeader(withRun({ user_settings: partial })), {
    ok: false,
    error: '/run/user_settings is missing "max_retries"',
  });
});

test("model_error is an end reason; an unknown one is not", () => {
  assert.equal(checkEvent({ type: "end", reason: "model_error", detail: "agent openai:x: HTTP 500 ...", message_count: 16 }).ok, true);
  assert.equal(checkEvent({ type: "end", reason: "model_timeout", message_count: 16 }).ok, false);
});

test("a scenario in a header may carry its augmentations", () => {
  const header = syntheticHeader();
  const scenario = { ...header.scenario, options: { ...header.scenario.options, augmentations: ["tool_name_scrambled"] } };
  assert.equal(checkHeader({ ...header, scenario }).ok, true);
  const unknown = { ...header.scenario, options: { ...header.scenario.options, augmentations: ["arg_name_scrambled"] } };
  assert.equal(checkHeader({ ...header, scenario: unknown }).ok, false);
});

/** Every value the extension records as api_key_env (a new KeySource fails the type check here). */
const EXTENSION_KEY_SOURCES = ["vscode-secret-storage", "none"] as const satisfies readonly KeySource[];
const everySource: [Exclude<KeySource, (typeof EXTENSION_KEY_SOURCES)[number]>] extends [never] ? true : false = true;

test("api_key_env records where the key came from: the schema and the docs name each value the extension writes", () => {
  assert.ok(everySource);
  for (const source of EXTENSION_KEY_SOURCES) {
    assert.equal(checkHeader(withRun({ agent: "openai:gpt-4o", agent_settings: { ...settings, api_key_env: source } })).ok, true, source);
  }
  const schema = JSON.parse(readFileSync("schemas/trajectory.schema.json", "utf8")) as {
    $defs: { modelSettings: { description: string; properties: { api_key_env: { description: string } } } };
  };
  const description = schema.$defs.modelSettings.properties.api_key_env.description;
  assert.match(description, /environment variable/, "the CLI's meaning");
  for (const source of EXTENSION_KEY_SOURCES)
    assert.ok(description.includes(`"${source}"`), `the schema explains "${source}": ${description}`);
  assert.match(description, /never the key/);
  const docs = readFileSync("docs/model-roles.md", "utf8");
  for (const source of EXTENSION_KEY_SOURCES) assert.ok(docs.includes(`\`${source}\``), `docs/model-roles.md explains "${source}"`);
});

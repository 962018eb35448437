// Model-backed episodes against the local mock server (engine/mock-llm): the real `openai` client
// over real HTTP on 127.0.0.1. The server is always closed, whatever the test does.
import { join } from "node:path";
import { loadScenario } from "../../../engine/runner/scenario-files.js";
import { Episode } from "../../../engine/episode/episode.js";
import type { EpisodeEvent, ModelSettings } from "../../../engine/episode/types.js";
import type { JsonObject, JsonValue } from "../../../engine/base/json.js";
import { startMockLlm, type MockLlm, type RecordedRequest } from "../../../engine/mock-llm/server.js";
import type { Fault } from "../../../engine/mock-llm/faults.js";
import { OpenAiAgent } from "../../../engine/roles/openai/agent.js";
import { modelSettings } from "../../../engine/roles/openai/settings.js";
import { OpenAiUser } from "../../../engine/roles/openai/user.js";
import type { AgentRole, UserRole } from "../../../engine/episode/role.js";
import type { Scenario } from "../../../engine/scenario/model.js";

/** A key that must never show up anywhere but in the Authorization header. */
export const SECRET_KEY = "sk-test-DO-NOT-WRITE-0123456789abcdef";

export function sample(name: string): Scenario {
  const loaded = loadScenario(join(__dirname, "..", "..", "..", "sample-scenarios", `${name}.scenario.yaml`));
  if (!loaded.scenario) throw new Error(`sample ${name} does not load`);
  return loaded.scenario;
}

export async function withMock<T>(
  scenarios: readonly Scenario[],
  faults: readonly Fault[],
  body: (mock: MockLlm) => Promise<T>,
): Promise<T> {
  const mock = await startMockLlm({ scenarios, faults });
  try {
    return await body(mock);
  } finally {
    await mock.close();
  }
}

/** Settings for the mock: quick retries are the tests' business, so the defaults stay unless given. */
export function mockSettings(mock: MockLlm, given: Partial<Omit<ModelSettings, "model">> = {}, model = "gpt-test"): ModelSettings {
  return modelSettings(model, { base_url: `${mock.url}/v1`, ...given });
}

interface ModelEpisode {
  readonly episode: Episode;
  readonly events: EpisodeEvent[];
  readonly agent: AgentRole;
  readonly user: UserRole;
}

export async function playWithModels(
  scenario: Scenario,
  roles: { agent: AgentRole; user: UserRole },
  signal?: AbortSignal,
): Promise<ModelEpisode> {
  const events: EpisodeEvent[] = [];
  const episode = new Episode({ scenario, ...roles, seed: 3, onEvent: (e) => events.push(e), ...(signal ? { signal } : {}) });
  await episode.run();
  return { episode, events, ...roles };
}

export function modelRoles(agent: ModelSettings, user: ModelSettings): { agent: OpenAiAgent; user: OpenAiUser } {
  return { agent: new OpenAiAgent({ settings: agent, apiKey: SECRET_KEY }), user: new OpenAiUser({ settings: user, apiKey: SECRET_KEY }) };
}

/** The chat-completion requests the mock received for one side, as JSON objects. */
export function bodies(mock: MockLlm, side?: "agent" | "user"): JsonObject[] {
  return mock.requests
    .filter((r: RecordedRequest) => r.path === "/v1/chat/completions" && (side === undefined || r.side === side))
    .map((r) => r.body)
    .filter((b): b is JsonObject => typeof b === "object" && b !== null && !Array.isArray(b));
}

export const field = (value: JsonValue | undefined, key: string): JsonValue | undefined =>
  typeof value === "object" && value !== null && !Array.isArray(value) ? value[key] : undefined;

import { test } from "node:test";
import { packById } from "../../../engine/packs/registry.js";
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createRoles } from "../../../engine/runner/role-specs.js";
import { runConfigFor } from "../../../engine/runner/play-episode.js";
import { toolsFor } from "../../../engine/episode/tool-calls.js";
import type { TrajectoryHeader } from "../../../engine/episode/types.js";
import { evaluate } from "../../../engine/evaluation/evaluate.js";
import type { JsonObject, JsonValue } from "../../../engine/base/json.js";
import { DEFAULT_AGENT_SYSTEM_PROMPT, renderUserSystemMessage } from "../../../engine/scenario/prompts/prompts.js";
import { expandAugmentations } from "../../../engine/scenario/augmentations/augmentations.js";
import { toolByName } from "../../../engine/packs/toolsandbox/tools/catalog.js";
import { openAiToolSchema } from "../../../engine/tools/openai-schema.js";
import { agentToolSchemas } from "../../../engine/scenario/augmentations/scrambling.js";
import { readTrajectoryFile } from "../../../engine/trajectory/reader.js";
import { TrajectoryWriter } from "../../../engine/trajectory/writer.js";
import { bodies, field, mockSettings, modelRoles, playWithModels, sample, SECRET_KEY, withMock } from "./helpers.js";

const PARALLEL = "send_message_with_contact_content_cellular_off_adapted";

const messagesOf = (body: JsonObject): JsonObject[] => (field(body, "messages") as JsonObject[] | undefined) ?? [];

test("both roles model-backed: a complete episode with parallel calls, scored like the reference", async () => {
  const scenario = sample(PARALLEL);
  await withMock([scenario], [], async (mock) => {
    const { episode } = await playWithModels(scenario, modelRoles(mockSettings(mock), mockSettings(mock)));
    assert.deepEqual(episode.ended, { reason: "end_conversation" });
    const played = episode.messages
      .slice(episode.firstUserIndex + 1)
      .map((m) => `${m.sender}>${m.recipient}:${m.openai_function_name ?? ""}`);
    assert.deepEqual(played, [
      // One agent turn with two parallel calls, answered together.
      "agent>execution_environment:search_contacts",
      "agent>execution_environment:set_cellular_service_status",
      "execution_environment>agent:search_contacts",
      "execution_environment>agent:set_cellular_service_status",
      "agent>execution_environment:send_message_with_phone_number",
      "execution_environment>agent:send_message_with_phone_number",
      "agent>user:",
      "user>execution_environment:end_conversation",
      "execution_environment>user:end_conversation",
    ]);
    assert.ok(episode.messages.every((m) => m.tool_call_exception === null));
    const result = evaluate(scenario, episode.messages, (i) => episode.world.at(i), episode.firstUserIndex, {
      endReason: "end_conversation",
    });
    assert.equal(result.score, 1);
    assert.equal(bodies(mock, "agent").length, 3);
    assert.equal(bodies(mock, "user").length, 1);
  });
});

test("the agent's requests follow the upstream prompt and schema rules", async () => {
  const scenario = sample(PARALLEL);
  await withMock([scenario], [], async (mock) => {
    await playWithModels(scenario, modelRoles(mockSettings(mock), mockSettings(mock)));
    const [first, second, third] = bodies(mock, "agent");
    assert.ok(first && second && third);
    assert.equal(field(first, "model"), "gpt-test");
    // No sampling options unless asked for: the server's defaults apply, as upstream.
    for (const key of ["temperature", "seed", "max_tokens", "tool_choice", "parallel_tool_calls"])
      assert.equal(field(first, key), undefined, key);
    assert.deepEqual(messagesOf(first), [
      { role: "system", content: DEFAULT_AGENT_SYSTEM_PROMPT },
      { role: "user", content: scenario.user.opening },
    ]);
    // The catalog's schemas of exactly the allowed tools, in catalog order (reference 1.5, 3.7).
    const expectedTools = toolsFor(scenario, "agent").map(openAiToolSchema);
    assert.deepEqual(field(first, "tools"), expectedTools as unknown as JsonValue);
    assert.deepEqual(
      expectedTools.map((t) => t.function.name),
      ["search_contacts", "get_cellular_service_status", "send_message_with_phone_number", "set_cellular_service_status"],
    );
    // The parallel turn comes back as one assistant message and two tool messages.
    const firstStep = scenario.reference[0];
    assert.ok(firstStep?.kind === "agent_calls");
    const [idA, idB] = firstStep.calls.map((c) => c.id);
    const history = messagesOf(second).slice(2);
    assert.deepEqual(history, [
      {
        role: "assistant",
        content: null,
        tool_calls: [
          { id: idA, type: "function", function: { name: "search_contacts", arguments: '{"name": "Fredrik Thordendal"}' } },
          { id: idB, type: "function", function: { name: "set_cellular_service_status", arguments: '{"on": true}' } },
        ],
      },
      { role: "tool", tool_call_id: idA, name: "search_contacts", content: field(history[1], "content") ?? null },
      { role: "tool", tool_call_id: idB, name: "set_cellular_service_status", content: "None" },
    ]);
    assert.match(String(field(history[1], "content")), /^\[\{'person_id': '[^']+', 'name': 'Fredrik Thordendal'/);
    assert.equal(messagesOf(third).length, 7);
  });
});

test("the user simulator's request: demonstrations and goal as system messages, roles reversed, end_conversation offered", async () => {
  const scenario = sample(PARALLEL);
  await withMock([scenario], [], async (mock) => {
    await playWithModels(scenario, modelRoles(mockSettings(mock), mockSettings(mock)));
    const [body] = bodies(mock, "user");
    assert.ok(body);
    const messages = messagesOf(body);
    const systems = messages.filter((m) => m.role === "system").map((m) => m.content);
    assert.deepEqual(systems, [
      ...scenario.user.demonstrations.map((d) => renderUserSystemMessage(d.goal, [])),
      renderUserSystemMessage(scenario.user.goal, scenario.user.knowledge),
    ]);
    assert.ok(systems.length >= 2, "one system message per demonstration plus the real one");
    const lastSystem = messages.map((m) => m.role).lastIndexOf("system");
    const finalAgentText = 'Your message to Fredrik Thordendal saying "How\'s the new album coming along" has been sent.';
    assert.deepEqual(messages.slice(lastSystem + 1), [
      { role: "assistant", content: scenario.user.opening },
      { role: "user", content: finalAgentText },
    ]);
    // The demonstrations are reversed too: the simulated user's lines are the assistant's. Their
    // closing end_conversation call (to the execution environment) is not shown, as upstream.
    const demo = scenario.user.demonstrations[0]!;
    const dialogue = demo.messages.filter((m) => m.recipient !== "execution_environment");
    assert.equal(dialogue.length, demo.messages.length - 1);
    assert.deepEqual(
      messages.slice(1, 1 + dialogue.length),
      dialogue.map((m) => ({ role: m.sender === "user" ? "assistant" : "user", content: m.content })),
    );
    assert.ok(messages.every((m) => m.role !== "tool" && field(m, "tool_calls") === undefined));
    assert.deepEqual(field(body, "tools"), [openAiToolSchema(toolByName("end_conversation")!)] as unknown as JsonValue);
  });
});

test("per-role settings go into each role's requests", async () => {
  const scenario = sample(PARALLEL);
  await withMock([scenario], [], async (mock) => {
    const agent = mockSettings(mock, { temperature: 0, seed: 42, max_tokens: 512 }, "agent-model");
    const user = mockSettings(mock, { temperature: 0.7 }, "user-model");
    const { episode } = await playWithModels(scenario, modelRoles(agent, user));
    assert.equal(episode.ended?.reason, "end_conversation");
    for (const body of bodies(mock, "agent")) {
      assert.deepEqual(
        [field(body, "model"), field(body, "temperature"), field(body, "seed"), field(body, "max_tokens")],
        ["agent-model", 0, 42, 512],
      );
    }
    for (const body of bodies(mock, "user")) {
      assert.deepEqual([field(body, "model"), field(body, "temperature"), field(body, "seed")], ["user-model", 0.7, undefined]);
    }
  });
});

test("every augmentation variant: the agent is offered the variant's schemas and still completes the task", async () => {
  const variants = expandAugmentations(sample(PARALLEL));
  await withMock(variants, [], async (mock) => {
    for (const variant of variants) {
      const before = bodies(mock, "agent").length;
      const settings = mockSettings(mock, {}, `mock/${variant.name}`);
      const { episode } = await playWithModels(variant, modelRoles(settings, settings));
      assert.deepEqual(episode.ended, { reason: "end_conversation" }, variant.name);
      const offered = field(bodies(mock, "agent")[before]!, "tools");
      const expected = agentToolSchemas(
        toolsFor(variant, "agent"),
        variant.options.augmentations ?? [],
        packById(variant.world.pack).tools,
      );
      assert.deepEqual(offered, expected as unknown as JsonValue, variant.name);
      const result = evaluate(variant, episode.messages, (i) => episode.world.at(i), episode.firstUserIndex, {
        endReason: "end_conversation",
      });
      assert.equal(result.score, 1, variant.name);
    }
    const offeredCount = (name: string): number => {
      const body = bodies(mock, "agent").find((b) => field(b, "model") === `mock/${name}`)!;
      return (field(body, "tools") as JsonValue[]).length;
    };
    const base = variants[3]!.name;
    assert.deepEqual(
      [base, `${base}_3_distraction_tools`, `${base}_10_distraction_tools`, `${base}_all_tools`].map(offeredCount),
      [4, 7, 14, 33],
    );
    // The scrambled-name variant's calls went out under scrambled names and ran the real tools.
    const named = bodies(mock, "agent").filter((b) => field(b, "model") === `mock/${base}_3_distraction_tools_tool_name_scrambled`);
    const calls = messagesOf(named[1]!).flatMap((m) => (field(m, "tool_calls") as JsonObject[] | undefined) ?? []);
    assert.deepEqual(
      calls.map((c) => field(field(c, "function"), "name")),
      ["contact_3", "setting_5"],
    );
    assert.ok(messagesOf(named[1]!).some((m) => m.role === "tool" && m.name === "contact_3"));
  });
});

test("a scripted user opposite a model agent, and a scripted agent opposite a model user", async () => {
  const scenario = sample(PARALLEL);
  await withMock([scenario], [], async (mock) => {
    const env = { OPENAI_API_KEY: SECRET_KEY };
    const spec = { kind: "openai" as const, settings: mockSettings(mock), keyRequired: true };
    const modelAgent = await playWithModels(scenario, createRoles(spec, "scripted", scenario, env));
    assert.deepEqual(modelAgent.episode.ended, { reason: "end_conversation" });
    assert.deepEqual([bodies(mock, "agent").length, bodies(mock, "user").length], [3, 0]);
    const modelUser = await playWithModels(scenario, createRoles("scripted", spec, scenario, env));
    assert.deepEqual(modelUser.episode.ended, { reason: "end_conversation" });
    assert.deepEqual([bodies(mock, "agent").length, bodies(mock, "user").length], [3, 1]);
  });
});

test("the trajectory header records both roles' settings, and the API key is in no written file", async () => {
  const scenario = sample(PARALLEL);
  const dir = mkdtempSync(join(tmpdir(), "toolsandbox-openai-"));
  try {
    await withMock([scenario], [], async (mock) => {
      const env = { OPENAI_API_KEY: SECRET_KEY, USER_KEY: `${SECRET_KEY}-user` };
      const agentSettings = mockSettings(mock, { temperature: 0.2, seed: 9, max_tokens: 300, timeout_seconds: 30, max_retries: 4 });
      const userSettings = mockSettings(mock, { api_key_env: "USER_KEY" }, "user-model");
      const roles = createRoles(
        { kind: "openai", settings: agentSettings, keyRequired: true },
        { kind: "openai", settings: userSettings, keyRequired: true },
        scenario,
        env,
      );
      const header: TrajectoryHeader = {
        type: "header",
        format: "toolsandbox-trajectory",
        version: 1,
        scenario,
        run: runConfigFor(roles.agent, roles.user, 3),
      };
      const path = join(dir, "run.trajectory.jsonl");
      const writer = TrajectoryWriter.create(path, header);
      const { episode } = await playWithModels(scenario, roles);
      for (const m of episode.messages) writer.write({ type: "message", message: m });
      writer.write({ type: "end", reason: episode.ended!.reason, message_count: episode.messages.length });
      writer.close();

      // The reader checks every line against the trajectory schema.
      const saved = readTrajectoryFile(path);
      assert.deepEqual(saved.header.run, {
        agent: "openai:gpt-test",
        user: "openai:user-model",
        seed: 3,
        options: {},
        agent_settings: {
          model: "gpt-test",
          base_url: `${mock.url}/v1`,
          temperature: 0.2,
          seed: 9,
          max_tokens: 300,
          timeout_seconds: 30,
          max_retries: 4,
          api_key_env: "OPENAI_API_KEY",
        },
        user_settings: {
          model: "user-model",
          base_url: `${mock.url}/v1`,
          temperature: null,
          seed: null,
          max_tokens: null,
          timeout_seconds: 120,
          max_retries: 2,
          api_key_env: "USER_KEY",
        },
      });
      const text = readFileSync(path, "utf8");
      assert.ok(!text.includes(SECRET_KEY), "the key is not in the trajectory");
      // Nor did the key reach the server anywhere but the Authorization header.
      assert.ok(mock.requests.every((r) => !r.rawBody.includes(SECRET_KEY)));
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

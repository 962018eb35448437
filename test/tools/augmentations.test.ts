import { test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { loadScenario } from "../../engine/runner/scenario-files.js";
import { callableTools, toolsFor } from "../../engine/episode/tool-calls.js";
import { aggregateByCategory } from "../../engine/evaluation/categories.js";
import { evaluate } from "../../engine/evaluation/evaluate.js";
import type { Scenario } from "../../engine/scenario/model.js";
import { expandAugmentations, rankDistractionTools } from "../../engine/scenario/augmentations/augmentations.js";
import { TOOLS, toolByName } from "../../engine/packs/toolsandbox/tools/catalog.js";
import { agentToolSchema, agentToolSchemas, scrambledToolNames } from "../../engine/scenario/augmentations/scrambling.js";
import { openAiToolSchema } from "../../engine/tools/openai-schema.js";
import { fuzzyScore } from "../../engine/packs/toolsandbox/tools/search.js";
import { check, expectClean } from "../scenario/helpers.js";
import { buildScenario, call, calls, agentSays, endConversation } from "../episode/fixtures.js";
import { queuedRoles, runScenario } from "../episode/harness.js";

const tool = (name: string) => {
  const t = toolByName(name);
  assert.ok(t, name);
  return t;
};

function sample(name: string): Scenario {
  const loaded = loadScenario(join(__dirname, "..", "..", "sample-scenarios", `${name}.scenario.yaml`));
  assert.ok(loaded.scenario, `${name} loads`);
  return loaded.scenario;
}

test("scrambled tool names are <module>_<k> over the whole catalog, as upstream numbers them", () => {
  // Reference 1.10, in full.
  const expected: Record<string, string> = {
    contact_0: "add_contact",
    contact_1: "modify_contact",
    contact_2: "remove_contact",
    contact_3: "search_contacts",
    messaging_0: "search_messages",
    messaging_1: "send_message_with_phone_number",
    rapid_api_search_tools_0: "convert_currency",
    rapid_api_search_tools_1: "search_lat_lon",
    rapid_api_search_tools_2: "search_location_around_lat_lon",
    rapid_api_search_tools_3: "search_stock",
    rapid_api_search_tools_4: "search_weather_around_lat_lon",
    reminder_0: "add_reminder",
    reminder_1: "modify_reminder",
    reminder_2: "remove_reminder",
    reminder_3: "search_reminder",
    setting_0: "get_cellular_service_status",
    setting_1: "get_current_location",
    setting_2: "get_location_service_status",
    setting_3: "get_low_battery_mode_status",
    setting_4: "get_wifi_status",
    setting_5: "set_cellular_service_status",
    setting_6: "set_location_service_status",
    setting_7: "set_low_battery_mode_status",
    setting_8: "set_wifi_status",
    user_tools_0: "end_conversation",
    utilities_0: "calculate_lat_lon_distance",
    utilities_1: "datetime_info_to_timestamp",
    utilities_2: "get_current_timestamp",
    utilities_3: "search_holiday",
    utilities_4: "seconds_to_hours_minutes_seconds",
    utilities_5: "shift_timestamp",
    utilities_6: "timestamp_diff",
    utilities_7: "timestamp_to_datetime_info",
    utilities_8: "unit_conversion",
  };
  const actual = Object.fromEntries([...scrambledToolNames(TOOLS)].map(([real, scrambled]) => [scrambled, real]));
  assert.deepEqual(actual, expected);
  assert.equal(agentToolSchema(tool("set_wifi_status"), ["tool_name_scrambled"], TOOLS).function.name, "setting_8");
  assert.equal(agentToolSchema(tool("set_wifi_status"), [], TOOLS).function.name, "set_wifi_status");
});

test("description scrambling empties the description of tools with an Args: section and keeps the rest", () => {
  const scrambled = agentToolSchema(tool("add_contact"), ["tool_description_scrambled"], TOOLS);
  const plain = openAiToolSchema(tool("add_contact"));
  assert.notEqual(plain.function.description, "");
  assert.equal(scrambled.function.description, "");
  // The argument descriptions come after Args:, so they survive.
  assert.deepEqual(scrambled.function.parameters, plain.function.parameters);
  // Upstream quirk: without Args: the regex finds nothing to cut.
  for (const name of ["get_wifi_status", "get_current_location", "get_current_timestamp", "get_low_battery_mode_status"]) {
    assert.equal(
      agentToolSchema(tool(name), ["tool_description_scrambled"], TOOLS).function.description,
      openAiToolSchema(tool(name)).function.description,
    );
  }
});

test("argument-description scrambling drops the argument texts, except for modify_reminder (no Returns section)", () => {
  const scrambled = agentToolSchema(tool("add_contact"), ["arg_description_scrambled"], TOOLS);
  assert.deepEqual(scrambled.function.parameters, {
    type: "object",
    properties: {
      name: { type: "string" },
      phone_number: { type: "string" },
      relationship: { type: "string" },
      is_self: { type: "boolean" },
    },
    required: ["name", "phone_number"],
  });
  assert.equal(scrambled.function.description, openAiToolSchema(tool("add_contact")).function.description);
  assert.deepEqual(
    agentToolSchema(tool("modify_reminder"), ["arg_description_scrambled"], TOOLS),
    openAiToolSchema(tool("modify_reminder")),
  );
});

test("argument-type scrambling drops every type key; an argument is listed only while it has a description", () => {
  const typeless = agentToolSchema(tool("send_message_with_phone_number"), ["arg_type_scrambled"], TOOLS);
  const plain = openAiToolSchema(tool("send_message_with_phone_number"));
  for (const [name, property] of Object.entries(typeless.function.parameters.properties)) {
    assert.equal(property.type, undefined, name);
    assert.equal(property.description, plain.function.parameters.properties[name]?.description);
  }
  assert.deepEqual(Object.keys(typeless.function.parameters.properties), Object.keys(plain.function.parameters.properties));
  // With argument descriptions gone too, nothing is left to list; required stays as it was.
  const bare = agentToolSchema(tool("send_message_with_phone_number"), ["arg_type_scrambled", "arg_description_scrambled"], TOOLS);
  assert.deepEqual(bare.function.parameters, { type: "object", properties: {}, required: ["phone_number", "content"] });
});

test("agentToolSchemas keeps the order it is given and changes nothing without augmentations", () => {
  const tools = [tool("search_contacts"), tool("get_cellular_service_status")];
  assert.deepEqual(agentToolSchemas(tools, [], TOOLS), tools.map(openAiToolSchema));
  assert.deepEqual(
    agentToolSchemas(tools, ["tool_name_scrambled"], TOOLS).map((s) => s.function.name),
    ["contact_3", "setting_0"],
  );
});

test("distraction tools: the allowed tools' modules first, each section by best WRatio, ties in catalog order", () => {
  const allowed = ["search_contacts", "send_message_with_phone_number", "get_cellular_service_status", "set_cellular_service_status"];
  const ranked = rankDistractionTools(TOOLS, allowed);
  const inCatalog = TOOLS.map((t) => t.name);
  // Every other tool exactly once; never an allowed one or the user's end_conversation.
  assert.deepEqual([...ranked].sort(), inCatalog.filter((n) => !allowed.includes(n) && n !== "end_conversation").sort());
  const allowedNames = [...allowed, "end_conversation"];
  const modules = new Set(allowedNames.map((n) => tool(n).module));
  const sectionA = ranked.filter((n) => modules.has(tool(n).module));
  assert.deepEqual(ranked.slice(0, sectionA.length), sectionA, "section A comes first");
  const best = (name: string): number => Math.max(...allowedNames.map((a) => fuzzyScore(name, a)));
  for (const section of [sectionA, ranked.slice(sectionA.length)]) {
    for (let i = 1; i < section.length; i++) {
      const [a, b] = [section[i - 1]!, section[i]!];
      assert.ok(best(a) >= best(b), `${a} (${best(a)}) before ${b} (${best(b)})`);
      if (best(a) === best(b)) assert.ok(inCatalog.indexOf(a) < inCatalog.indexOf(b), `tie ${a}/${b} keeps catalog order`);
    }
  }
  // The wifi tools look most like the cellular ones.
  assert.deepEqual(ranked.slice(0, 2), ["get_wifi_status", "set_wifi_status"]);
});

test("expandAugmentations gives the eight upstream variants with their names, tags and tool lists", () => {
  const base = sample("send_message_with_contact_content_cellular_off_adapted");
  const variants = expandAugmentations(base);
  const ranked = rankDistractionTools(TOOLS, base.tools.allow ?? []);
  const byName = new Map(variants.map((v) => [v.name, v]));
  const name = base.name;
  assert.deepEqual(
    variants.map((v) => [v.name.slice(name.length), v.categories.slice(base.categories.length), v.options.augmentations ?? []]),
    [
      ["_3_distraction_tools", ["THREE_DISTRACTION_TOOLS"], []],
      ["_10_distraction_tools", ["TEN_DISTRACTION_TOOLS"], []],
      ["_all_tools", ["ALL_TOOLS_AVAILABLE"], []],
      ["", ["NO_DISTRACTION_TOOLS"], []],
      [
        "_3_distraction_tools_tool_description_scrambled",
        ["THREE_DISTRACTION_TOOLS", "TOOL_DESCRIPTION_SCRAMBLED"],
        ["tool_description_scrambled"],
      ],
      ["_3_distraction_tools_arg_type_scrambled", ["THREE_DISTRACTION_TOOLS", "ARG_TYPE_SCRAMBLED"], ["arg_type_scrambled"]],
      [
        "_3_distraction_tools_arg_description_scrambled",
        ["THREE_DISTRACTION_TOOLS", "ARG_DESCRIPTION_SCRAMBLED"],
        ["arg_description_scrambled"],
      ],
      ["_3_distraction_tools_tool_name_scrambled", ["THREE_DISTRACTION_TOOLS", "TOOL_NAME_SCRAMBLED"], ["tool_name_scrambled"]],
    ],
  );
  assert.ok(variants.every((v) => v.categories.slice(0, base.categories.length).join() === base.categories.join()));
  const allow = base.tools.allow ?? [];
  assert.deepEqual(byName.get(name)!.tools.allow, allow);
  assert.deepEqual(byName.get(`${name}_3_distraction_tools`)!.tools.allow, [...allow, ...ranked.slice(0, 3)]);
  assert.deepEqual(byName.get(`${name}_10_distraction_tools`)!.tools.allow, [...allow, ...ranked.slice(0, 10)]);
  assert.equal(toolsFor(byName.get(`${name}_all_tools`)!, "agent").length, 33, "every agent tool");
  for (const v of variants.slice(4)) assert.deepEqual(v.tools, byName.get(`${name}_3_distraction_tools`)!.tools);
  // Everything else is the scenario itself.
  for (const v of variants)
    assert.deepEqual({ ...v, name: base.name, categories: base.categories, tools: base.tools, options: base.options }, base);
  // Expanding a variant again changes nothing.
  for (const v of variants) assert.deepEqual(expandAugmentations(v), [v]);
});

test("the deny list still applies to distraction tools, so fewer may reach the agent (upstream quirk)", () => {
  const base = buildScenario({ allow: ["set_cellular_service_status"], deny: ["get_cellular_service_status"] });
  const three = expandAugmentations(base)[0]!;
  assert.equal(three.name, "fixture_3_distraction_tools");
  assert.equal(rankDistractionTools(TOOLS, ["set_cellular_service_status"])[0], "get_cellular_service_status");
  assert.ok(three.tools.allow?.includes("get_cellular_service_status"));
  assert.deepEqual(
    toolsFor(three, "agent").map((t) => t.name),
    three.tools
      .allow!.filter((n) => n !== "get_cellular_service_status")
      .sort((a, b) => TOOLS.findIndex((t) => t.name === a) - TOOLS.findIndex((t) => t.name === b)),
  );
  assert.equal(toolsFor(three, "agent").length, 3);
});

test("the category table counts each augmentation tag once per scenario and leaves THREE_DISTRACTION_TOOLS to the unscrambled variant", () => {
  const variants = expandAugmentations(sample("send_message_with_contact_content_cellular_off_adapted"));
  const rows = aggregateByCategory(variants.map((v) => ({ categories: v.categories, score: 1, turn_count: 4 })));
  const counts = Object.fromEntries(rows.map((r) => [r.category, r.scenarios]));
  assert.equal(counts.ALL_CATEGORIES, 8);
  assert.equal(counts.STATE_DEPENDENCY, 8);
  for (const tag of [
    "NO_DISTRACTION_TOOLS",
    "THREE_DISTRACTION_TOOLS",
    "TEN_DISTRACTION_TOOLS",
    "ALL_TOOLS_AVAILABLE",
    "TOOL_NAME_SCRAMBLED",
  ]) {
    assert.equal(counts[tag], 1, tag);
  }
});

test("a scenario that allows every tool has no distractors; its variants differ only in name and tags", () => {
  const variants = expandAugmentations(buildScenario({ allow: null }));
  assert.equal(variants.length, 8);
  assert.ok(variants.every((v) => v.tools.allow === null));
});

test("under tool-name scrambling the agent calls scrambled names; the code, traces and score use the real ones", async () => {
  const base = sample("send_message_with_contact_content_cellular_off_adapted");
  const scrambled = expandAugmentations(base).find((v) => v.name.endsWith("_tool_name_scrambled"))!;
  assert.deepEqual(
    [...callableTools(scrambled, "agent").keys()], // search_contacts, get_cellular_service_status, send_message_with_phone_number, then the three
    // distractors get_location_service_status, get_wifi_status, set_wifi_status among the rest.
    ["contact_3", "setting_0", "messaging_1", "setting_2", "setting_4", "setting_5", "setting_8"],
  );
  const { episode } = await runScenario(scrambled);
  assert.deepEqual(episode.ended, { reason: "end_conversation" });
  const requests = episode.messages.filter((m) => m.sender === "agent" && m.recipient === "execution_environment");
  assert.deepEqual(
    requests.map((m) => m.openai_function_name),
    ["contact_3", "setting_5", "messaging_1"],
  );
  assert.match(requests[0]!.content, /= search_contacts\(\*\*/);
  assert.doesNotMatch(requests.map((m) => m.content).join("\n"), /contact_3|setting_5|messaging_1/);
  const responses = episode.messages.filter((m) => m.sender === "execution_environment" && m.recipient === "agent");
  assert.deepEqual(
    responses.map((m) => [m.openai_function_name, m.tool_trace?.[0]?.tool_name, m.tool_call_exception]),
    [
      ["contact_3", "search_contacts", null],
      ["setting_5", "set_cellular_service_status", null],
      ["messaging_1", "send_message_with_phone_number", null],
    ],
  );
  const result = evaluate(scrambled, episode.messages, (i) => episode.world.at(i), episode.firstUserIndex, {
    endReason: "end_conversation",
  });
  assert.equal(result.score, 1);
});

test("under tool-name scrambling a real name is an unknown tool, listed against the scrambled names", async () => {
  const scenario: Scenario = {
    ...buildScenario({
      allow: ["set_wifi_status"],
      reference: [calls(call("c1", "set_wifi_status", { on: false })), agentSays("Done."), endConversation],
    }),
    options: { invalid_tool_call: "recover", augmentations: ["tool_name_scrambled"] },
  };
  const roles = queuedRoles([
    { kind: "calls", calls: [{ id: "c1", name: "set_wifi_status", arguments: { on: false } }] },
    { kind: "text", text: "Done." },
  ]);
  const { episode } = await runScenario(scenario, { agent: roles.agent, user: roles.user });
  const response = episode.messages.find((m) => m.sender === "execution_environment");
  assert.equal(
    response?.tool_call_exception,
    `KeyError: "Agent tool call agent_facing_tool_name='set_wifi_status' is not a known allowed tool. Options are available_tool_names=['setting_8']"`,
  );
});

test("a scenario file can ask for augmentations; none leaves the key out of the resolved scenario", () => {
  const withThem = expectClean(check({ options: "options:\n  augmentations: [arg_type_scrambled, tool_name_scrambled]" }));
  assert.deepEqual(withThem.options, { invalid_tool_call: "recover", augmentations: ["arg_type_scrambled", "tool_name_scrambled"] });
  const without = expectClean(check({}));
  assert.deepEqual(without.options, { invalid_tool_call: "recover" });
  const wrong = check({ options: "options:\n  augmentations: [arg_name_scrambled]" });
  assert.equal(wrong.scenario, null);
});

test("every variant keeps the prompt set's tool texts, so distraction tools are described in the set's words too", () => {
  const base = sample("send_message_with_contact_content_cellular_off_adapted");
  const withSet = { ...base, tools: { ...base.tools, descriptions: { search_contacts: "Our test text.\n\nArgs:\n    name: who" } } };
  for (const variant of expandAugmentations(withSet))
    assert.deepEqual(variant.tools.descriptions, withSet.tools.descriptions, variant.name);
});

// The execution environment runs calls through the scenario pack's runtime: every ordering of
// parallel calls starts from a clone of the runtime (as from a clone of the random generator),
// and the winning ordering's runtime is what the next turn continues from.
import { test } from "node:test";
import assert from "node:assert/strict";
import { ExecutionEnvironment } from "../../engine/episode/execution-environment.js";
import { SeededRandom } from "../../engine/episode/random.js";
import { packById } from "../../engine/packs/registry.js";
import type { PackRuntime, WorldPack } from "../../engine/packs/types.js";
import { executeTool } from "../../engine/tools/execute.js";
import { checkScenarioText } from "../../engine/scenario/resolve.js";
import { Episode } from "../../engine/episode/episode.js";
import { createScriptedRoles } from "../../engine/roles/scripted.js";
import { buildScenario, busMessage } from "./fixtures.js";

/** A runtime that remembers the tools it ran; its clone copies that memory. */
class RecordingRuntime implements PackRuntime {
  static clones = 0;
  constructor(readonly ran: string[] = []) {}
  execute(...[tool, args, ctx]: Parameters<PackRuntime["execute"]>): ReturnType<PackRuntime["execute"]> {
    this.ran.push(tool.name);
    return executeTool(tool, args, ctx);
  }
  clone(): RecordingRuntime {
    RecordingRuntime.clones++;
    return new RecordingRuntime([...this.ran]);
  }
}

test("each ordering of parallel calls runs on its own clone of the runtime; the given runtime is untouched", () => {
  const scenario = buildScenario({ setting: { cellular: false } });
  const pack: WorldPack = { ...packById("toolsandbox"), createRuntime: () => new RecordingRuntime() };
  const environment = new ExecutionEnvironment(scenario, pack);
  const call = (i: number, name: string) =>
    busMessage(i, "agent", "execution_environment", "", {
      tool_call: { id: `c${i}`, name, arguments: {} },
      openai_tool_call_id: `c${i}`,
      openai_function_name: name,
    });
  const start = new RecordingRuntime(["earlier_turn"]);
  RecordingRuntime.clones = 0;
  const outcome = environment.respond([call(5, "get_cellular_service_status"), call(6, "get_wifi_status")], scenario.world.tables, {
    random: SeededRandom.fromSeed(1),
    runtime: start,
  });
  assert.equal(outcome.checkedOrderings, 2);
  assert.equal(RecordingRuntime.clones, 2);
  assert.deepEqual(start.ran, ["earlier_turn"]);
  assert.ok(outcome.runtime instanceof RecordingRuntime);
  assert.deepEqual(outcome.runtime.ran, ["earlier_turn", "get_cellular_service_status", "get_wifi_status"]);
});

test("a tooltalk episode keeps its pack's state from turn to turn: a login serves the next call", async () => {
  const text = [
    "name: tooltalk_login",
    "world: { pack: tooltalk, ACCOUNT: { add: [{ username: ravi_sandoval, email: ravi.sandoval@postbox.test, phone: 555-613-2090, name: Ravi Sandoval, password: copper-kettle-42 }] } }",
    "user: { goal: See my account., opening: Show me my account. }",
    "reference:",
    "  - calls: [{ tool: UserLogin, arguments: { username: ravi_sandoval, password: copper-kettle-42 } }]",
    "  - calls: [{ tool: GetAccountInformation }]",
    "  - agent: Here it is.",
    "  - end_conversation: true",
    "",
  ].join("\n");
  const { scenario, diagnostics } = checkScenarioText(text, "login.scenario.yaml");
  assert.ok(scenario, JSON.stringify(diagnostics));
  const roles = createScriptedRoles(scenario);
  const episode = new Episode({ scenario, agent: roles.agent, user: roles.user, seed: 0 });
  await episode.run();
  assert.deepEqual(episode.ended, { reason: "end_conversation" });
  const results = episode.messages.filter((m) => m.sender === "execution_environment" && m.recipient === "agent");
  assert.equal(results.length, 2);
  assert.deepEqual(
    results.map((m) => m.tool_call_exception),
    [null, null],
  );
  assert.match(results[1]!.content, /"username": "ravi_sandoval"/);
  assert.equal(episode.world.latest().tables.SESSION?.[0]?.username, "ravi_sandoval");
});

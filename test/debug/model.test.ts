// A model-backed agent under the debugger: the agent is `openai:mock/debug_target`, played over
// HTTP by our mock LLM (engine/mock-llm, with 300 ms of latency per answer). The Model call scope
// shows the request's telemetry, the agent's reference steps cannot bind, Pause stops a running
// episode, and disconnecting keeps the trajectory (the episode ends cancelled and is scored).
import { strict as assert } from "node:assert";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { type MockLlm, startMockLlm } from "../../engine/mock-llm/server.js";
import { loadScenarioFile } from "../../engine/scenario/load.js";
import { currentIndex, FIXTURE, launchToStop, lineOf, moveToStop, scenarioCopy, topFrame, variables, withClient } from "./dap-client.js";

const source = readFileSync(FIXTURE, "utf8");
let server: MockLlm;

before(async () => {
  const scenario = loadScenarioFile(FIXTURE).scenario;
  if (!scenario) throw new Error("the fixture scenario does not load");
  server = await startMockLlm({ scenarios: [scenario], faults: [{ kind: "latency", ms: 300 }] });
});

after(async () => {
  await server.close();
});

test("with a model as the agent: telemetry in Variables, unbindable script lines, Pause, and the trajectory kept on disconnect", async () => {
  const { dir, scenario } = scenarioCopy();
  await withClient(async (dc) => {
    const args = { program: scenario, agent: "openai:mock/debug_target", agentBaseUrl: `${server.url}/v1`, user: "scripted" };
    const { lineBreakpoints } = await launchToStop(dc, args, {
      lines: [lineOf("- agent: Noted.", source), lineOf("- user: Thanks.", source)],
      functions: ["message 6"],
    });
    assert.equal(lineBreakpoints[0]?.verified, false, "the agent's script line: a model plays the agent");
    assert.match(lineBreakpoints[0]?.message ?? "", /agent is played by a model/);
    assert.equal(lineBreakpoints[1]?.verified, true, "the user is still scripted");
    assert.equal(await currentIndex(dc), 6);

    const [call] = await variables(dc, "Model call");
    assert.equal(call?.name, "this message's call");
    assert.match(call?.value ?? "", /^agent mock\/debug_target: \d+ ms, 1 attempt/);
    const details = await variables(dc, "Model call", "this message's call");
    assert.ok(Number(details.find((v) => v.name === "latency_ms")?.value) >= 300, "the mock's latency is in the telemetry");
    // A model's tool request comes from the tool under tools.allow.
    assert.equal((await topFrame(dc)).line, lineOf("- send_message_with_phone_number", source));

    await dc.setFunctionBreakpointsRequest({ breakpoints: [] });
    await dc.setBreakpointsRequest({ source: { path: scenario }, breakpoints: [] });
    await dc.continueRequest({ threadId: 1 });
    const paused = await moveToStop(dc, () => dc.pauseRequest({ threadId: 1 }));
    assert.equal(paused.body.reason, "pause");
    const at = await currentIndex(dc);
    assert.ok(at > 6 && at < 20, `paused mid-episode (at message ${at})`);
  });
  const runs = join(dir, ".toolsandbox", "runs");
  const lines = readFileSync(join(runs, readdirSync(runs)[0]!), "utf8")
    .trimEnd()
    .split("\n");
  assert.match(lines.at(-2) ?? "", /"type":"end","reason":"cancelled"/);
  assert.match(lines.at(-1) ?? "", /"type":"evaluation"/);
});

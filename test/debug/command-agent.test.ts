// A launch configuration whose agent is a program (`cmd:`), through `toolsandbox dap` over stdio:
// the fixture agent (test/fixtures/agents/reference-agent.mjs, the MCP SDK's client) is started in
// the launch's cwd and plays the fixture's reference over MCP; a milestone breakpoint stops where
// the milestone matches, with the world at that message, as for the scripted agent; the session
// runs to its end and the trajectory is scored as the scripted run's, with the command's output beside it.
import { strict as assert } from "node:assert";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { loadScenario } from "../../engine/runner/scenario-files.js";
import { readTrajectoryFile } from "../../engine/trajectory/reader.js";
// @ts-expect-error: a plain JavaScript fixture
import { playKey } from "../fixtures/agents/reference-agent.mjs";
import { agentToolNames, REFERENCE_AGENT, referencePlay } from "../agents/helpers.js";
import { currentIndex, FIXTURE, launchToStop, lineOf, scenarioCopy, watch, withClient } from "./dap-client.js";

test("agent cmd:…: a milestone breakpoint stops where it matches; the run ends scored as the scripted one, the command's output kept", async () => {
  const { dir, scenario: file } = scenarioCopy();
  const scenario = loadScenario(file).scenario;
  assert.ok(scenario);
  writeFileSync(
    join(dir, "plays.json"),
    JSON.stringify({ [playKey(scenario.user.opening, agentToolNames(scenario))]: referencePlay(scenario) }),
  );
  const source = readFileSync(FIXTURE, "utf8");
  await withClient(async (dc) => {
    // A relative plays file: the command starts in the launch's cwd.
    const args = { program: file, agent: `cmd:node '${REFERENCE_AGENT}' plays.json`, user: "scripted", cwd: dir, out: join(dir, "runs") };
    const { stopped, lineBreakpoints } = await launchToStop(dc, args, { lines: [lineOf("- id: message_sent", source)] });
    assert.equal(lineBreakpoints[0]?.verified, true);
    assert.equal(stopped.body.reason, "breakpoint");
    assert.equal(await currentIndex(dc), 15, "where the scripted agent's run stops too");
    assert.equal(await watch(dc, "SETTING.cellular"), "true");
    assert.equal(await watch(dc, `MESSAGING.content == "How's the new album coming along"`), "true");
    const ended = dc.waitForEvent("terminated");
    await dc.continueRequest({ threadId: 1 });
    await ended;
  });
  const run = join(dir, "runs", "debug_target.run-1.trajectory.jsonl");
  const trajectory = readTrajectoryFile(run);
  assert.equal(trajectory.header.run.agent, `cmd:node '${REFERENCE_AGENT}' plays.json`);
  assert.equal(trajectory.end?.reason, "end_conversation");
  // The fixture's reference steps on its minefield on purpose: scored as the scripted run is, 21 messages.
  assert.equal(trajectory.evaluation?.score, 0);
  assert.equal(trajectory.evaluation?.minefields[0]?.matched_at, 9);
  assert.equal(trajectory.messages.length, 21);
  assert.ok(existsSync(join(dir, "runs", "debug_target.run-1.agent-stdout.log")));
});

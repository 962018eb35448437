// Time travel on a saved run (`toolsandbox run`'s trajectory of the fixture, replayed under
// `toolsandbox dap`): steps and reverse moves land on the right message with the world of that
// message; the console's tool calls change nothing on disk; a scenario with errors does not
// launch; a failing model ends the session with the reason and the trajectory kept.
import { strict as assert } from "node:assert";
import { spawnSync } from "node:child_process";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import {
  CLI,
  currentIndex,
  FIXTURE,
  launchToStop,
  lineOf,
  moveToStop,
  repl,
  requireBuild,
  scenarioCopy,
  valueNamed,
  variables,
  watch,
  withClient,
} from "./dap-client.js";

const source = readFileSync(FIXTURE, "utf8");

/** The fixture played by `toolsandbox run` into <dir>/runs; the scenario file stays beside the runs folder. */
function savedRun(): { trajectory: string; scenario: string; dir: string } {
  requireBuild();
  const { dir, scenario } = scenarioCopy();
  const out = join(dir, "runs");
  const run = spawnSync(process.execPath, [CLI, "run", scenario, "--out", out], { encoding: "utf8" });
  if (run.status !== 0) throw new Error(`toolsandbox run failed: ${run.stderr}`);
  return { trajectory: join(out, "debug_target.trajectory.jsonl"), scenario, dir };
}

test("Step Back and Reverse Continue on a saved run land on the previous message and the previous breakpoint", async () => {
  const { trajectory } = savedRun();
  await withClient(async (dc) => {
    const { stopped } = await launchToStop(dc, { program: trajectory }, { functions: ["message 12"] });
    assert.equal(stopped.body.reason, "function breakpoint");
    assert.equal(await currentIndex(dc), 12);
    assert.equal(await watch(dc, "SETTING.cellular"), "true");

    const back = await moveToStop(dc, () => dc.stepBackRequest({ threadId: 1 }));
    assert.equal(back.body.reason, "step");
    assert.equal(await currentIndex(dc), 11);
    assert.equal(await watch(dc, "SETTING.cellular"), "false", "the world goes back with the message");

    await dc.setFunctionBreakpointsRequest({ breakpoints: [{ name: "message 12" }, { name: "message 7" }] });
    const reverse = await moveToStop(dc, () => dc.reverseContinueRequest({ threadId: 1 }));
    assert.equal(reverse.body.reason, "function breakpoint");
    assert.equal(await currentIndex(dc), 7);

    const forward = await moveToStop(dc, () => dc.continueRequest({ threadId: 1 }));
    assert.equal(forward.body.reason, "function breakpoint");
    assert.equal(await currentIndex(dc), 12);

    // A milestone breakpoint stops going backwards too, where the evaluation of the messages so far matches it.
    await dc.setFunctionBreakpointsRequest({ breakpoints: [] });
    await dc.setBreakpointsRequest({
      source: { path: join(trajectory, "..", "..", "debug_target.scenario.yaml") },
      breakpoints: [{ line: lineOf("- id: checked_status", source) }],
    });
    const mine = await moveToStop(dc, () => dc.reverseContinueRequest({ threadId: 1 }));
    assert.equal(mine.body.reason, "breakpoint");
    assert.equal(await currentIndex(dc), 9);

    await dc.setBreakpointsRequest({ source: { path: join(trajectory, "..", "..", "debug_target.scenario.yaml") }, breakpoints: [] });
    const start = await moveToStop(dc, () => dc.reverseContinueRequest({ threadId: 1 }));
    assert.equal(start.body.reason, "entry");
    assert.equal(await currentIndex(dc), 0);
  });
});

test("after each stop the adapter says which trajectory and message it stands at (the extension's panel follows it)", async () => {
  const { trajectory } = savedRun();
  await withClient(async (dc) => {
    const [at] = await Promise.all([
      dc.waitForEvent("toolsandboxStoppedAt"),
      launchToStop(dc, { program: trajectory }, { functions: ["message 12"] }),
    ]);
    assert.deepEqual(at.body, { trajectory, index: 12, replay: true });
    const [next] = await Promise.all([dc.waitForEvent("toolsandboxStoppedAt"), dc.stepBackRequest({ threadId: 1 })]);
    assert.equal(next.body.index, 11);
  });
});

test("Step Over takes a parallel batch as one step, Step Into one call at a time, Step Out goes to the end of the turn", async () => {
  const { trajectory } = savedRun();
  await withClient(async (dc) => {
    await launchToStop(dc, { program: trajectory }, { functions: ["message 10"] });
    assert.equal(await currentIndex(dc), 10);
    await moveToStop(dc, () => dc.stepInRequest({ threadId: 1 }));
    assert.equal(await currentIndex(dc), 11, "Step Into: the second call of the batch");
    await moveToStop(dc, () => dc.stepBackRequest({ threadId: 1 }));
    assert.equal(await currentIndex(dc), 10);
    await moveToStop(dc, () => dc.nextRequest({ threadId: 1 }));
    assert.equal(await currentIndex(dc), 12, "Step Over: past both calls, to the first result");
    await moveToStop(dc, () => dc.nextRequest({ threadId: 1 }));
    assert.equal(await currentIndex(dc), 14, "Step Over: past both results");
    await moveToStop(dc, () => dc.stepOutRequest({ threadId: 1 }));
    assert.equal(await currentIndex(dc), 16, "Step Out: the last message of turn 1");
    await moveToStop(dc, () => dc.stepOutRequest({ threadId: 1 }));
    assert.equal(await currentIndex(dc), 20, "Step Out at a turn's end: to the end of the next turn");
    const [terminated] = await Promise.all([dc.waitForEvent("terminated"), dc.continueRequest({ threadId: 1 })]);
    assert.equal(terminated.event, "terminated");
  });
});

test("a console tool call answers on a copy of the paused world and leaves the trajectory byte-identical", async () => {
  const { trajectory } = savedRun();
  const before = readFileSync(trajectory);
  await withClient(async (dc) => {
    await launchToStop(dc, { program: trajectory }, { functions: ["message 10"] });
    const search = await repl(dc, 'search_contacts(name="Fredrik")');
    assert.match(search, /result: .*Fredrik Thordendal/);
    assert.match(search, /rows it would change: none/);
    const cellular = await repl(dc, "set_cellular_service_status(on=True)");
    assert.match(cellular, /~ SETTING row 0: cellular: false -> true/);
    assert.equal(await watch(dc, "SETTING.cellular"), "false", "the paused world is untouched");
    const failing = await repl(dc, 'send_message_with_phone_number(phone_number="+12453344098", content="hi")');
    assert.match(failing, /error: ConnectionError: Cellular service is not enabled/);
    assert.match(await repl(dc, "milestones"), /cellular_on: not matched/);
    assert.equal(await repl(dc, 'CONTACT.name == "Fredrik Thordendal"'), "true");
    await assert.rejects(dc.evaluateRequest({ expression: "SETTING.nonsense", context: "repl" }), /no column "nonsense"/);
  });
  assert.deepEqual(readFileSync(trajectory), before);
});

test("a live session writes the same trajectory as `run`, console tool calls or not", async () => {
  const { trajectory: ran, dir, scenario } = savedRun();
  await withClient(async (dc) => {
    await launchToStop(dc, { program: scenario }, { lines: [lineOf("- search_contacts", source)] });
    assert.equal(await currentIndex(dc), 10);
    assert.match(await repl(dc, "set_cellular_service_status(on=True)"), /cellular: false -> true/);
    await Promise.all([dc.waitForEvent("terminated"), dc.continueRequest({ threadId: 1 })]);
  });
  const runs = join(dir, ".toolsandbox", "runs");
  const files = readdirSync(runs);
  assert.deepEqual(files, ["debug_target.run-1.trajectory.jsonl"]);
  assert.equal(readFileSync(join(runs, files[0]!), "utf8"), readFileSync(ran, "utf8"));
});

test("a scenario with errors does not launch: the first error is named with file:line:col", async () => {
  const { dir } = scenarioCopy();
  const bad = join(dir, "bad.scenario.yaml");
  writeFileSync(bad, source.replace("    - get_cellular_service_status\n", "    - get_cellular_status\n"));
  const line = lineOf("- get_cellular_service_status", source);
  await withClient(async (dc) => {
    await dc.initializeRequest();
    await assert.rejects(dc.launchRequest({ program: bad } as never), (e: Error) => {
      assert.match(e.message, new RegExp(`bad\\.scenario\\.yaml:${line}:\\d+: error `));
      return true;
    });
  });
});

test("a model that fails ends the session with the reason, and the trajectory is kept", async () => {
  const { dir, scenario } = scenarioCopy();
  await withClient(async (dc) => {
    // Nothing listens on port 9 (discard): every request fails to connect.
    const args = { program: scenario, agent: "openai:some-model", agentBaseUrl: "http://127.0.0.1:9/v1" };
    const { stopped } = await launchToStop(dc, args, { exceptions: ["modelError"] });
    assert.equal(stopped.body.reason, "exception");
    assert.equal(stopped.body.description, "Model error");
    const model = await variables(dc, "Model call");
    assert.match(model[0]?.value ?? "", /failed/);
    assert.match(valueNamed(await variables(dc, "Message"), "content"), /Fredrik/, "the last message before the failure");
    const [output] = await Promise.all([dc.assertOutput("console", "The episode ended: model_error"), dc.continueRequest({ threadId: 1 })]);
    assert.ok(output);
  });
  const runs = join(dir, ".toolsandbox", "runs");
  const kept = readFileSync(join(runs, readdirSync(runs)[0]!), "utf8");
  assert.match(kept, /"type":"end","reason":"model_error"/);
});

test("a run that was cut short replays up to where it stops, and the console says so", async () => {
  const { trajectory } = savedRun();
  const lines = readFileSync(trajectory, "utf8").split("\n");
  // Keep the messages up to 12 and half of the next line, as a killed run leaves its file.
  const cut = lines.findIndex((l) => l.includes('"sandbox_message_index":13'));
  writeFileSync(trajectory, `${lines.slice(0, cut).join("\n")}\n${lines[cut]!.slice(0, 20)}`);
  await withClient(async (dc) => {
    const errors: string[] = [];
    dc.on("output", (e: { body: { category?: string; output: string } }) => {
      if (e.body.category === "stderr") errors.push(e.body.output);
    });
    const { stopped } = await launchToStop(dc, { program: trajectory }, { exceptions: ["end"] });
    assert.equal(stopped.body.description, "End of episode");
    assert.match(stopped.body.text ?? "", /cut short/);
    assert.ok(
      errors.some((line) => line.startsWith(`${trajectory}:${cut + 1}: warning: the last line is incomplete`)),
      errors.join(""),
    );
    assert.equal(await currentIndex(dc), 12);
    assert.match(await watch(dc, "index"), /^12$/);
    // The Message scope names the turn as the Call Stack does, and `turn` evaluates to the same.
    const message = await variables(dc, "Message");
    assert.ok(!message.some((v) => v.name === "turn"), "no bare 'turn' in the Message scope");
    assert.equal(valueNamed(message, "user turn"), await watch(dc, "turn"));
  });
});

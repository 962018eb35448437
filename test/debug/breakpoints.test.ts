// Each kind of breakpoint, through `toolsandbox dap` over stdio, stops at the message it stands
// for in a live episode of the fixture (test/debug/fixtures/debug_target.scenario.yaml), whose
// messages are: 0 system, 1-3 the demonstration, 4 the user's instructions, 5 the opening,
// 6/7 a failed send (tool error), 8/9 the status check (minefield), 10-13 the parallel search and
// cellular switch, 14/15 the send, 16 the agent's confirmation, 17 the user's leak, 18 agent,
// 19/20 end_conversation.
import { strict as assert } from "node:assert";
import { readFileSync, writeFileSync } from "node:fs";
import { test } from "node:test";
import {
  currentIndex,
  FIXTURE,
  launchToStop,
  lineOf,
  repl,
  scenarioCopy,
  topFrame,
  valueNamed,
  variables,
  watch,
  withClient,
} from "./dap-client.js";

const source = readFileSync(FIXTURE, "utf8");

function live(): { args: Record<string, unknown>; scenario: string } {
  const { scenario } = scenarioCopy();
  return { args: { program: scenario, agent: "scripted", user: "scripted" }, scenario };
}

test("a breakpoint on a milestone stops where it matches, with the world at that message", async () => {
  await withClient(async (dc) => {
    const { args } = live();
    const { stopped, lineBreakpoints } = await launchToStop(dc, args, { lines: [lineOf("- id: message_sent", source)] });
    assert.equal(lineBreakpoints[0]?.verified, true);
    assert.equal(stopped.body.reason, "breakpoint");
    assert.equal(await currentIndex(dc), 15);
    assert.equal(await watch(dc, "SETTING.cellular"), "true");
    assert.equal(await watch(dc, `MESSAGING.content == "How's the new album coming along"`), "true");
    const world = await variables(dc, "World");
    assert.match(valueNamed(world, "MESSAGING"), /^6 rows/, "five rows to start with, and the one just sent");
    const sent = await variables(dc, "World", "MESSAGING", "5");
    assert.equal(valueNamed(sent, "content"), `"How's the new album coming along"`);
  });
});

test("a breakpoint on a line inside a milestone binds to the milestone's first line", async () => {
  await withClient(async (dc) => {
    const { args } = live();
    const inside = lineOf("target: [{ cellular: true }]", source);
    const { lineBreakpoints } = await launchToStop(dc, { ...args, stopOnEntry: true }, { lines: [inside] });
    assert.equal(lineBreakpoints[0]?.verified, true);
    assert.equal(lineBreakpoints[0]?.line, lineOf("- id: cellular_on", source));
  });
});

test("a breakpoint on a tool under tools.allow stops before each call of it", async () => {
  await withClient(async (dc) => {
    const { args } = live();
    const { stopped } = await launchToStop(dc, args, { lines: [lineOf("- search_contacts", source)] });
    assert.equal(stopped.body.reason, "breakpoint");
    assert.equal(await currentIndex(dc), 10);
    assert.equal(await watch(dc, "message.tool_call.name"), '"search_contacts"');
    // Before the call: cellular is still off, the search has not run.
    assert.equal(await watch(dc, "SETTING.cellular"), "false");
  });
});

test("a breakpoint on a line of the user's script stops before that message is sent", async () => {
  await withClient(async (dc) => {
    const { args } = live();
    const line = lineOf("- user: Thanks.", source);
    const { stopped } = await launchToStop(dc, args, { lines: [line] });
    assert.equal(stopped.body.reason, "breakpoint");
    assert.equal(await currentIndex(dc), 17);
    const frame = await topFrame(dc);
    assert.equal(frame.line, line, "the top frame opens the script's line");
  });
});

test("a breakpoint on a demonstration's message stops at that message", async () => {
  await withClient(async (dc) => {
    const { args } = live();
    const { stopped } = await launchToStop(dc, args, { lines: [lineOf("- sender: agent", source, "demonstrations:")] });
    assert.equal(stopped.body.reason, "breakpoint");
    assert.equal(await currentIndex(dc), 3);
    assert.equal(await watch(dc, "message.content"), '"Sunny and warm."');
  });
});

test("function breakpoints `user turn N` and `message N` stop at the turn's first message and at the message", async () => {
  await withClient(async (dc) => {
    const { args } = live();
    const { stopped } = await launchToStop(dc, args, { functions: ["user turn 2"] });
    assert.equal(stopped.body.reason, "function breakpoint");
    assert.equal(await currentIndex(dc), 17);
    const frames = (await dc.stackTraceRequest({ threadId: 1 })).body.stackFrames;
    assert.deepEqual(
      frames.map((f) => /#(\d+)/.exec(f.name)?.[1]),
      ["17", "5", "0"],
      "one frame per user turn: the current message, user turn 1's opening, the set-up",
    );
    assert.deepEqual(
      frames.map((f) => /^(set-up|user turn \d+) · #/.exec(f.name)?.[1]),
      ["user turn 2", "user turn 1", "set-up"],
      "each frame names its user turn, not a bare 'turn'",
    );
  });
  await withClient(async (dc) => {
    const { args } = live();
    await launchToStop(dc, args, { functions: ["message 9"] });
    assert.equal(await currentIndex(dc), 9);
  });
});

test("a condition over the world holds the breakpoint back until it is true; a hit count picks the Nth stop", async () => {
  await withClient(async (dc) => {
    const { args } = live();
    const send = lineOf("- send_message_with_phone_number", source);
    await launchToStop(dc, args, { lines: [{ line: send, condition: "SETTING.cellular == true" }] });
    assert.equal(await currentIndex(dc), 14, "the first send (message 6, cellular off) is passed by");
  });
  await withClient(async (dc) => {
    const { args } = live();
    const send = lineOf("- send_message_with_phone_number", source);
    await launchToStop(dc, args, { lines: [{ line: send, hitCondition: "2" }] });
    assert.equal(await currentIndex(dc), 14, "the second call of the tool");
  });
  await withClient(async (dc) => {
    const { args } = live();
    await launchToStop(dc, args, {
      functions: [{ name: "message 16", condition: 'message.sender == "agent" && !(message.recipient == "agent")' }],
    });
    assert.equal(await currentIndex(dc), 16);
  });
});

test("each exception breakpoint stops where its event happens", async () => {
  const expectations: [string, number, string][] = [
    ["toolError", 7, "Tool error"],
    ["minefield", 9, "Minefield hit"],
    ["knowledgeLeak", 17, "Knowledge leak"],
  ];
  for (const [filter, index, description] of expectations) {
    await withClient(async (dc) => {
      const { args } = live();
      const { stopped } = await launchToStop(dc, args, { exceptions: [filter] });
      assert.equal(stopped.body.reason, "exception", filter);
      assert.equal(stopped.body.description, description);
      assert.equal(await currentIndex(dc), index, filter);
      const info = await dc.exceptionInfoRequest({ threadId: 1 });
      assert.equal(info.body.exceptionId, description);
    });
  }
  await withClient(async (dc) => {
    const { args } = live();
    const { stopped } = await launchToStop(dc, args, { exceptions: ["end"] });
    assert.equal(stopped.body.description, "End of episode");
    assert.match(stopped.body.text ?? "", /end_conversation/);
    assert.equal(await currentIndex(dc), 20, "at the end the last message is shown");
    await Promise.all([dc.waitForEvent("terminated"), dc.continueRequest({ threadId: 1 })]);
  });
});

test("a condition that cannot be evaluated stops, and says why", async () => {
  await withClient(async (dc) => {
    const { args } = live();
    const { stopped } = await launchToStop(dc, args, { lines: [{ line: lineOf("- search_contacts", source), condition: "NOPE.x == 1" }] });
    assert.equal(stopped.body.reason, "breakpoint");
    assert.equal(await currentIndex(dc), 10);
    assert.equal(stopped.body.text, 'The condition "NOPE.x == 1" failed: unknown name "NOPE"');
  });
});

test("breakpoints that cannot bind are unverified with the reason", async () => {
  await withClient(async (dc) => {
    const { args } = live();
    const { lineBreakpoints, functionBreakpoints } = await launchToStop(
      dc,
      { ...args, stopOnEntry: true },
      {
        lines: [lineOf("description:", source), { line: lineOf("- id: cellular_on", source), condition: "SETTING.cellular ==" }],
        functions: ["step 3"],
      },
    );
    assert.equal(lineBreakpoints[0]?.verified, false);
    assert.match(lineBreakpoints[0]?.message ?? "", /nothing to stop at/);
    assert.equal(lineBreakpoints[1]?.verified, false);
    assert.match(lineBreakpoints[1]?.message ?? "", /^condition: /);
    assert.equal(functionBreakpoints[0]?.verified, false);
    assert.match(functionBreakpoints[0]?.message ?? "", /turn N/);
  });
});

test("Variables: World marks what changed since the last stop; Message, Milestones and Model call are there", async () => {
  await withClient(async (dc) => {
    const { args } = live();
    await launchToStop(dc, args, { lines: [lineOf("- set_cellular_service_status", source)] });
    assert.equal(await currentIndex(dc), 11);
    const [stopped] = await Promise.all([dc.waitForEvent("stopped"), dc.nextRequest({ threadId: 1 })]);
    assert.equal(stopped.body.reason, "step");
    assert.equal(await currentIndex(dc), 12);
    const world = await variables(dc, "World");
    assert.match(valueNamed(world, "SETTING"), /1 changed since the last stop/);
    assert.doesNotMatch(valueNamed(world, "CONTACT"), /changed/);
    const row = await variables(dc, "World", "SETTING", "0");
    assert.equal(valueNamed(row, "cellular"), "true ● was false");
    const message = await variables(dc, "Message");
    assert.equal(valueNamed(message, "sender"), '"execution_environment"');
    assert.equal(valueNamed(message, "from"), "reference step 3, call 1 (its result)");
    const milestones = await variables(dc, "Milestones");
    assert.match(valueNamed(milestones, "cellular_on"), /^matched at message 12/);
    assert.match(valueNamed(milestones, "message_sent"), /^not matched/);
    assert.equal(await watch(dc, "milestones.cellular_on.matched && !milestones.message_sent.matched"), "true");
    const model = await variables(dc, "Model call");
    assert.match(model[0]?.value ?? "", /none \(scripted roles make no model calls\)/);
  });
});

test("with tool names scrambled for the agent, tool breakpoints and console calls still use the real names", async () => {
  await withClient(async (dc) => {
    const { args, scenario } = live();
    writeFileSync(scenario, source.replace("reference:\n", "options: { augmentations: [tool_name_scrambled] }\nreference:\n"));
    await launchToStop(dc, args, { lines: [lineOf("- search_contacts", source)] });
    assert.equal(await currentIndex(dc), 10);
    assert.notEqual(await watch(dc, "message.tool_call.name"), '"search_contacts"', "the agent called it by its scrambled name");
    assert.match(await repl(dc, 'search_contacts(name="Fredrik")'), /result: .*Fredrik Thordendal/);
  });
});

test("in a live session, Step Back goes over what has been played, and Continue plays on from there", async () => {
  await withClient(async (dc) => {
    const { args } = live();
    await launchToStop(dc, args, { functions: ["message 12"] });
    await Promise.all([dc.waitForEvent("stopped"), dc.stepBackRequest({ threadId: 1 })]);
    assert.equal(await currentIndex(dc), 11);
    assert.equal(await watch(dc, "SETTING.cellular"), "false");
    const [again] = await Promise.all([dc.waitForEvent("stopped"), dc.continueRequest({ threadId: 1 })]);
    assert.equal(again.body.reason, "function breakpoint");
    assert.equal(await currentIndex(dc), 12);
    await dc.setFunctionBreakpointsRequest({ breakpoints: [{ name: "message 18" }] });
    await Promise.all([dc.waitForEvent("stopped"), dc.continueRequest({ threadId: 1 })]);
    assert.equal(await currentIndex(dc), 18, "played on past what had been played");
  });
});

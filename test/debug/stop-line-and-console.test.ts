// Issue 39, item 8, through `toolsandbox dap` over stdio: a milestone breakpoint's stop is
// highlighted on the milestone's line (not on the reference step its message came from), the
// Debug Console completes names and fields and suggests the name meant, and the end of the
// episode prints its score.
import { strict as assert } from "node:assert";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import type { DebugProtocol } from "@vscode/debugprotocol";
import { FIXTURE, launchToStop, lineOf, moveToStop, scenarioCopy, topFrame, withClient } from "./dap-client.js";

const source = readFileSync(FIXTURE, "utf8");

function live(): Record<string, unknown> {
  const { scenario } = scenarioCopy();
  return { program: scenario, agent: "scripted", user: "scripted" };
}

test("a breakpoint on `- id: message_sent` stops with the top frame on that line; a step moves it to the message's own line", async () => {
  await withClient(async (dc) => {
    const milestone = lineOf("- id: message_sent", source);
    const { stopped } = await launchToStop(dc, live(), { lines: [milestone] });
    assert.equal(stopped.body.description, "Milestone message_sent matched");
    const top = await topFrame(dc);
    assert.equal(top.line, milestone, `highlighted line ${top.line}, the breakpoint is on ${milestone}`);
    assert.match(top.name, /^user turn 1 · #15 /);
    await moveToStop(dc, () => dc.nextRequest({ threadId: 1 }));
    const next = await topFrame(dc);
    assert.notEqual(next.line, milestone, "after a step the frame follows the message, not the old breakpoint");
    assert.ok(next.line > lineOf("reference:", source), "a scripted agent's message maps to its reference step");
  });
});

async function complete(dc: import("@vscode/debugadapter-testsupport").DebugClient, text: string): Promise<DebugProtocol.CompletionItem[]> {
  const response = (await dc.customRequest("completions", { text, column: text.length + 1 })) as DebugProtocol.CompletionsResponse;
  return response.body.targets;
}

test("the Debug Console completes names, tools and a table's columns, and suggests the name meant", async () => {
  await withClient(async (dc) => {
    const init = await dc.initializeRequest();
    assert.equal(init.body?.supportsCompletionsRequest, true);
  });
  await withClient(async (dc) => {
    await launchToStop(dc, { ...live(), stopOnEntry: true });
    const bare = await complete(dc, "SET");
    assert.deepEqual(
      [bare[0]?.label, bare[0]?.type, bare[0]?.start, bare[0]?.length],
      ["SETTING", "variable", 1, 3],
      "a bare word: the table first, replacing the three letters typed",
    );
    assert.ok(
      bare.some((t) => t.label === "set_cellular_service_status" && t.type === "function"),
      "and the tools that start so",
    );
    assert.ok(bare.every((t) => t.label.toLowerCase().startsWith("set")));
    const tools = (await complete(dc, "search_c")).map((t) => `${t.label}:${t.type}`);
    assert.ok(tools.includes("search_contacts:function"), tools.join(", "));
    const columns = (await complete(dc, "SETTING.wi")).map((t) => t.label);
    assert.deepEqual(columns, ["wifi"]);
    const afterDot = await complete(dc, "milestones == 1 && SETTING.");
    assert.ok(afterDot.some((t) => t.label === "cellular" && t.start === "milestones == 1 && SETTING.".length + 1));

    const refused = async (expression: string): Promise<string> => {
      try {
        await dc.evaluateRequest({ expression, context: "repl" });
      } catch (e) {
        return (e as Error).message;
      }
      throw new Error(`${expression} was answered`);
    };
    assert.match(await refused("SETTING.wfi"), /no column "wfi"\. Did you mean "wifi"\?/);
    assert.match(await refused("SETING.wifi"), /unknown name "SETING"\. Did you mean "SETTING"\?/);
  });
});

test("the end of the episode prints its score in the Debug Console", async () => {
  await withClient(async (dc) => {
    await launchToStop(dc, { ...live(), stopOnEntry: true });
    const [output] = await Promise.all([
      dc.assertOutput("console", "The episode ended: end_conversation."),
      dc.continueRequest({ threadId: 1 }),
    ]);
    // The fixture's run steps on its minefield, so its score is 0 and says why.
    assert.match(
      String(output.body.output),
      /\nScore 0\.00 \(0 because [^)]+\): 3 of 3 milestones matched, minefield checked_status hit; \d+ turns\./,
    );
  });
});

// Model-call telemetry in the panel (Chromium): the header sums the calls, the detail of a message
// shows the call that produced it, and raw bodies from a server are shown as text, never markup.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import type { TrajectoryLine } from "../../engine/panel/protocol.js";
import { requireBuild, removeTempDirs, tempDir } from "../cli/harness.js";
import { PanelBrowser, textOf } from "./browser.js";
import { readLines, samplePath, writePanelPage } from "./trajectories.js";

let browser: PanelBrowser;
let file = "";
const PAYLOAD = "<img src=x onerror=\"document.title='pwned'\">";

/** A scripted sample with a model_call line before each message a role produced (as a model run writes them). */
function withCalls(lines: readonly TrajectoryLine[]): TrajectoryLine[] {
  const out: TrajectoryLine[] = [];
  let n = 0;
  for (const line of lines) {
    if (line.type === "message" && !line.message.scripted && (line.message.sender === "agent" || line.message.sender === "user")) {
      const previous = out[out.length - 1];
      // Parallel calls come from one model call: only the first of them gets one.
      const sameTurn =
        previous?.type === "message" &&
        previous.message.sender === line.message.sender &&
        line.message.tool_call &&
        previous.message.tool_call;
      if (!sameTurn) {
        n++;
        out.push({
          type: "model_call",
          role: line.message.sender,
          index: line.message.sandbox_message_index,
          call: {
            model: "gpt-test",
            latency_ms: 100 * n,
            attempts: 1,
            request_id: `req-${n}`,
            usage: { prompt_tokens: 1000, completion_tokens: 10, total_tokens: 1010 },
            request: { model: "gpt-test", messages: [] },
            response: { id: `chatcmpl-${n}`, note: PAYLOAD },
          },
        });
      }
    }
    out.push(line);
  }
  return out;
}

let calls = 0;
/** The agent's first turn: two parallel tool calls, the first of which carries the turn's model call. */
let firstCall = 0;

before(async () => {
  requireBuild();
  const lines = withCalls(readLines(samplePath("send_message_with_contact_content_cellular_off_adapted")));
  calls = lines.filter((l) => l.type === "model_call").length;
  const agentCalls = lines.flatMap((l) =>
    l.type === "message" && l.message.sender === "agent" && l.message.tool_call ? [l.message.sandbox_message_index] : [],
  );
  firstCall = agentCalls[0] ?? -1;
  assert.equal(agentCalls[1], firstCall + 1, "the sample's first agent turn makes two parallel calls");
  file = writePanelPage(join(tempDir("telemetry"), "telemetry.html"), lines);
  browser = await PanelBrowser.launch();
});

after(async () => {
  await browser?.close();
  removeTempDirs();
});

test("the header sums the model calls and a message's detail shows the call that produced it", async () => {
  const { page, problems } = await browser.open(file);
  assert.ok(calls >= 3);
  const latency = (calls * (calls + 1) * 100) / 2;
  const seconds = latency >= 1000 ? `${(latency / 1000).toFixed(2)} s` : `${latency} ms`;
  assert.equal(
    await textOf(page, "[data-testid=telemetry]"),
    `${calls} model calls · ${seconds} · ${(1010 * calls).toLocaleString("en-US")} tokens (${(1000 * calls).toLocaleString("en-US")} in, ${10 * calls} out)`,
  );
  // The agent's first (parallel) call; its model call is the run's first.
  await page.locator("[data-testid=jump]").fill(String(firstCall));
  await page.locator("[data-testid=jump]").press("Enter");
  await page.locator(`[data-testid=message][data-index="${firstCall}"]`).waitFor();
  await page.locator("[data-testid=model-call]").waitFor();
  assert.equal(await page.locator("[data-testid=model-call]").count(), 1);
  assert.equal(await textOf(page, '[data-fact="request id"]'), "req-1");
  assert.equal(await textOf(page, '[data-fact="prompt tokens"]'), "1,000");
  assert.equal(await textOf(page, '[data-fact="latency"]'), "100 ms");
  await page.locator("[data-testid=model-call] details.call-body >> nth=1").evaluate((d) => ((d as HTMLDetailsElement).open = true));
  await page.locator("[data-testid=model-call] pre").first().waitFor();
  const shown = await page.locator("[data-testid=model-call] pre").first().textContent();
  assert.ok(shown?.includes("onerror"), "the payload is shown as text");
  assert.equal(await page.locator("[data-testid=model-call] img").count(), 0);
  assert.notEqual(await page.title(), "pwned");
  // The second parallel call came from the same model call: nothing to show there.
  await page.locator("[data-testid=jump]").fill(String(firstCall + 1));
  await page.locator("[data-testid=jump]").press("Enter");
  await page.locator(`[data-testid=message][data-index="${firstCall + 1}"]`).waitFor();
  assert.equal(await page.locator("[data-testid=model-call]").count(), 0);
  assert.deepEqual(problems.pageErrors, []);
  assert.deepEqual(problems.consoleErrors, []);
});

// DialogTool's scores in the panel (Chromium), from `replay --html` of a run with a planted wrong
// argument: the header has the totals; the turn with the wrong argument says execution ✗ and
// arguments 1/2 beside the reference's call; a reply carrying markup is shown as text.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { requireBuild, removeTempDirs, tempDir } from "../cli/harness.js";
import { PanelBrowser, textOf } from "./browser.js";
import { exportWithCli, flawedRun, writeLines } from "./trajectories.js";
import type { TrajectoryLine } from "../../engine/panel/protocol.js";

const PAYLOAD = "<img src=x onerror=\"document.title='pwned'\">";
let browser: PanelBrowser;
let page_file = "";
let sendIndex = -1;

before(async () => {
  requireBuild();
  const dir = tempDir("dialogtool-panel");
  // The flawed run sends another text; its closing reply carries markup.
  const lines: TrajectoryLine[] = flawedRun().map((l) =>
    l.type === "message" && l.message.sender === "agent" && l.message.recipient === "user"
      ? { ...l, message: { ...l.message, content: `Sent. ${PAYLOAD}` } }
      : l,
  );
  sendIndex =
    lines.flatMap((l) =>
      l.type === "message" && l.message.tool_call?.name === "send_message_with_phone_number" ? [l.message.sandbox_message_index] : [],
    )[0] ?? -1;
  page_file = exportWithCli(writeLines(join(dir, "flawed.trajectory.jsonl"), lines), join(dir, "flawed.html"));
  browser = await PanelBrowser.launch();
});

after(async () => {
  await browser?.close();
  removeTempDirs();
});

test("the header has DialogTool's totals; the wrong argument's turn says execution ✗, arguments 1/2, next to the reference's call", async () => {
  const { page, problems } = await browser.open(page_file);
  await page.locator("[data-testid=dialogtool]").waitFor({ state: "attached" });
  assert.match(
    await textOf(page, "[data-testid=dialogtool]"),
    /^DialogTool: awareness 1\.00 · selection 1\.00 · execution 0\.50 · BLEU \d+\.\d · ROUGE-L 0\.\d\d$/,
  );
  await page.locator("[data-testid=jump]").fill(String(sendIndex));
  await page.locator("[data-testid=jump]").press("Enter");
  const here = page.locator("[data-testid=dialogtool-here]");
  await here.waitFor();
  assert.equal(await here.locator('[data-task="awareness"]').textContent(), "awareness ✓");
  assert.equal(await here.locator('[data-task="selection"]').textContent(), "selection ✓");
  assert.equal(await here.locator('[data-task="execution"]').textContent(), "execution ✗");
  assert.match((await here.textContent()) ?? "", /calls 0\/1 · arguments 1\/2/);
  // Counted as the debugger counts user turns (from 1, the opening's), not DialogTool's 0-based depth.
  assert.match((await here.textContent()) ?? "", /user turn 1\b/);
  assert.doesNotMatch((await here.textContent()) ?? "", /dialogue turn/);
  assert.equal(await textOf(page, "[data-testid=dialogtool-truth]"), "send_message_with_phone_number(phone_number, content)");
  assert.deepEqual(problems.pageErrors, []);
});

test("the agent's reply with markup is text in the turn's card; nothing runs", async () => {
  const { page, problems } = await browser.open(page_file);
  const replyIndex = sendIndex + 2;
  await page.locator("[data-testid=jump]").fill(String(replyIndex));
  await page.locator("[data-testid=jump]").press("Enter");
  const here = page.locator("[data-testid=dialogtool-here]");
  await here.waitFor();
  assert.match((await here.locator("[data-testid=dialogtool-prediction]").textContent()) ?? "", /onerror/);
  assert.equal(await here.locator("img").count(), 0);
  assert.notEqual(await page.title(), "pwned");
  assert.deepEqual(problems.pageErrors, []);
});

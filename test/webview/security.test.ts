// The panel renders hostile content as text and runs nothing of it. A model, a tool or a file can
// put markup anywhere a trajectory holds text; every payload here sets window.__pwned or opens a
// dialog if it ever runs, and any element it could create (img, iframe, svg, style, link) or any
// request it could make is looked for. The page's CSP is checked as the browser enforces it.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { requireBuild, removeTempDirs, tempDir } from "../cli/harness.js";
import type { TrajectoryLine } from "../../engine/panel/protocol.js";
import { PanelBrowser, shownIndex, textOf, type PanelPage } from "./browser.js";
import { exportWithCli, payload, payloadEvaluation, payloadRun, PAYLOADS, samplePath, writeLines, writePanelPage } from "./trajectories.js";

let browser: PanelBrowser;
let dir = "";
let run: TrajectoryLine[] = [];

before(async () => {
  requireBuild();
  dir = tempDir("panel-security");
  run = payloadRun();
  browser = await PanelBrowser.launch();
});

after(async () => {
  await browser?.close();
  removeTempDirs();
});

/** Elements no trajectory content may create, and the flag every payload would set. */
async function injected(page: Page): Promise<{ pwned: unknown; elements: string[]; scripts: number }> {
  return page.evaluate(() => ({
    pwned: (window as { __pwned?: unknown }).__pwned,
    elements: [...document.querySelectorAll("img, iframe, object, embed, link, style:not([nonce]), svg, b, a[href^='javascript']")]
      // The toolbar's icons are the panel's own SVG.
      .filter((e) => !(e.tagName.toLowerCase() === "svg" && e.closest("button.tool")))
      .map((e) => e.outerHTML.slice(0, 80)),
    scripts: document.scripts.length,
  }));
}

function assertNothingRan(panel: PanelPage, what: string): void {
  assert.deepEqual(panel.problems.dialogs, [], `${what}: dialogs`);
  assert.deepEqual(panel.problems.pageErrors, [], `${what}: uncaught errors`);
  assert.deepEqual(panel.problems.consoleErrors, [], `${what}: console errors (CSP violations are reported there)`);
  assert.deepEqual(panel.problems.requests, [], `${what}: requests`);
}

test("a run whose messages, tool calls, results, errors, world rows and scenario carry payloads shows them as text", async () => {
  const file = exportWithCli(writeLines(join(dir, "payloads.trajectory.jsonl"), run), join(dir, "payloads.html"));
  const panel = await browser.open(file);
  const { page } = panel;
  assert.equal(await textOf(page, "[data-testid=scenario-name]"), `${payload(0)} scenario`);
  const count = Number(await textOf(page, "[data-testid=message-count]"));
  assert.equal(count, 28);
  // Show every message (its content, call, error, trace and world changes) with every part opened;
  // nothing may run, and every payload must be on screen as text, character for character.
  // From message 0 with the setup unfolded, so stepping visits every message.
  if ((await page.locator("[data-testid=unfold-setup]").count()) > 0) await page.locator("[data-testid=unfold-setup]").click();
  await page.locator("[data-testid=timeline]").focus();
  await page.keyboard.press("Home");
  await page.locator("details.world-at summary").click();
  const seen = new Set<string>();
  for (let i = 0; i < count; i++) {
    assert.equal(await shownIndex(page), i);
    const closed = page.locator("[data-testid=detail] details:not([open]) > summary");
    while ((await closed.count()) > 0) await closed.first().click();
    assert.deepEqual(await injected(page), { pwned: undefined, elements: [], scripts: 2 }, `at message ${i}`);
    const shown = (await page.locator("[data-testid=detail]").textContent()) ?? "";
    for (const p of PAYLOADS) if (shown.includes(p) || shown.includes(JSON.stringify(p).slice(1, -1))) seen.add(p);
    await page.locator("[data-action=step]").click();
  }
  assert.deepEqual([...seen].sort(), [...PAYLOADS].sort(), "every payload is shown as text somewhere");

  // A tool error reads as an error, with its payload as text.
  await page.locator("[data-testid=jump]").fill("20");
  await page.locator("[data-testid=jump]").press("Enter");
  assert.match((await page.locator("[data-testid=message]").getAttribute("class")) ?? "", /\bkind-error\b/);
  assert.match(await textOf(page, "[data-testid=message] .exception"), /^error\s*ValueError: </);
  // World rows: the changed name and the added contact, as JSON strings.
  await page.locator("[data-testid=jump]").fill("24");
  await page.locator("[data-testid=jump]").press("Enter");
  const changed = await page.locator("[data-testid=world] .change[data-op=update] .new").allTextContents();
  assert.ok(
    changed.some((c) => c.startsWith('"<')),
    changed.join(" | "),
  );
  await page.locator("[data-testid=search]").fill("<script>");
  await page.locator("[data-testid=search]").press("Enter");
  assert.ok((await page.locator("mark").count()) > 0, "search highlights payload text without running it");
  assert.deepEqual(await injected(page), { pwned: undefined, elements: [], scripts: 2 });
  assertNothingRan(panel, "payload run");
});

test("payloads in milestone ids, constraint explanations, column names and the zero reason stay text", async () => {
  const lines = readFirstMessages(run, 4);
  const file = writePanelPage(join(dir, "explanations.html"), [...lines, payloadEvaluation(2)], payload(2));
  const panel = await browser.open(file);
  const { page } = panel;
  assert.equal(await page.title(), payload(2));
  assert.deepEqual(await page.locator(".node-chip .chip-id").allTextContents(), [payload(0), payload(1)]);
  assert.match(await textOf(page, ".zero-reason"), new RegExp(`^Score 0: ${escapeRegExp(payload(7))}$`));
  await page.locator(".node-chip").first().click();
  assert.equal(await shownIndex(page), 2);
  const card = page.locator("[data-testid=nodes-here] .node-card").first();
  assert.equal(await card.locator(".node-title").textContent(), payload(0));
  assert.equal(await card.locator(".reason").textContent(), payload(4));
  assert.equal(await card.locator("[data-testid=weakest-column] code").textContent(), payload(5));
  assert.equal(await card.locator(".constraint-ref").textContent(), `vs ${payload(3)} @ #0`);
  assert.deepEqual(await card.locator(".score-table td").allTextContents(), [payload(5), "rouge_l", "0.50", payload(6)]);
  assert.deepEqual(await injected(page), { pwned: undefined, elements: [], scripts: 2 });
  assertNothingRan(panel, "payload evaluation");
});

test("the page carries a CSP with a fresh nonce and no 'unsafe-inline', and the browser enforces it", async () => {
  const first = exportWithCli(samplePath("cellular_off_adapted"), join(dir, "csp-1.html"));
  const panel = await browser.open(first);
  const { page } = panel;
  const page1 = await page.evaluate(() => ({
    csp: document.querySelector<HTMLMetaElement>("meta[http-equiv='Content-Security-Policy']")?.content ?? "",
    nonces: [...document.querySelectorAll<HTMLScriptElement | HTMLStyleElement>("script[nonce], style[nonce]")].map((e) => e.nonce ?? ""),
  }));
  const nonce = /script-src 'nonce-([A-Za-z0-9_-]+)'/.exec(page1.csp)?.[1];
  assert.ok(nonce, page1.csp);
  assert.match(page1.csp, /^default-src 'none';/);
  assert.doesNotMatch(page1.csp, /unsafe-inline|unsafe-eval/);
  assert.deepEqual(page1.nonces, [nonce, nonce], "the bundled style and script carry the nonce");
  const second = await browser.open(exportWithCli(samplePath("cellular_off_adapted"), join(dir, "csp-2.html")));
  const csp2 = await second.page.evaluate(
    () => document.querySelector<HTMLMetaElement>("meta[http-equiv='Content-Security-Policy']")?.content ?? "",
  );
  assert.notEqual(/script-src 'nonce-([^']+)'/.exec(csp2)?.[1], nonce, "every export renders a new nonce");
  assertNothingRan(panel, "clean sample");

  // What a payload would try from script: an inline script, an inline event handler, a
  // string-to-HTML sink. Trusted Types refuse each one.
  const attempts = await page.evaluate(async () => {
    const violations: string[] = [];
    document.addEventListener("securitypolicyviolation", (e) => violations.push(e.violatedDirective));
    // Anonymous functions only: tsx would wrap named ones in a helper the page does not have.
    const tries: [string, () => void][] = [
      [
        "inlineScript",
        () => {
          const script = document.createElement("script");
          script.textContent = "window.__pwned = 'inline script'";
          document.body.appendChild(script);
        },
      ],
      [
        "handler",
        () => {
          const img = document.createElement("img");
          img.setAttribute("onerror", "window.__pwned = 'handler'");
          img.src = "data:,not-an-image";
          document.body.appendChild(img);
        },
      ],
      ["innerHTML", () => document.body.insertAdjacentHTML("beforeend", "<img src=x onerror=\"window.__pwned='html'\">")],
    ];
    const outcomes: Record<string, string> = {};
    for (const [label, run] of tries) {
      try {
        run();
        outcomes[label] = "no exception";
      } catch (e) {
        outcomes[label] = e instanceof Error ? e.name : String(e);
      }
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
    return { pwned: (window as { __pwned?: unknown }).__pwned, outcomes, violations: [...new Set(violations)].sort() };
  });
  assert.equal(attempts.pwned, undefined, JSON.stringify(attempts));
  assert.deepEqual(
    attempts.outcomes,
    { inlineScript: "TypeError", handler: "TypeError", innerHTML: "TypeError" },
    JSON.stringify(attempts),
  );
  assert.deepEqual(attempts.violations, ["require-trusted-types-for"]);

  // And if escaping ever failed, so that markup reached the page itself: the CSP blocks it.
  const html = readFileSync(first, "utf8").replace(
    "<body>",
    `<body><script>window.__pwned='inline'</script><img src="data:," onerror="window.__pwned='handler'"><script src="https://example.invalid/x.js"></script>`,
  );
  const broken = await browser.open(writeFileAt(join(dir, "csp-broken.html"), html));
  await broken.page.waitForTimeout(200);
  assert.equal(await broken.page.evaluate(() => (window as { __pwned?: unknown }).__pwned), undefined);
  assert.ok(Number.isInteger(await shownIndex(broken.page)), "the panel itself still runs");
  const refusals = broken.problems.consoleErrors
    .filter((e) => /violates the following Content Security Policy directive.*script-src.*The action has been blocked\.$/s.test(e))
    .map((e) => /^(Executing inline script|Executing inline event handler|Loading the script '[^']*')/.exec(e)?.[1])
    .sort();
  assert.deepEqual(
    refusals,
    ["Executing inline event handler", "Executing inline script", "Loading the script 'https://example.invalid/x.js'"],
    broken.problems.consoleErrors.join("\n"),
  );
  assert.deepEqual(broken.problems.requests, ["https://example.invalid/x.js"]);
  assert.deepEqual(broken.problems.blockedByCsp, broken.problems.requests, "the script never left the browser");
});

function writeFileAt(file: string, text: string): string {
  writeFileSync(file, text);
  return file;
}

test("a page whose embedded data is not a trajectory says so and runs nothing", async () => {
  const file = writePanelPage(join(dir, "garbage.html"), [{ type: "message", message: { html: payload(0) } }, payload(1), 42], "garbage");
  const panel = await browser.open(file, "[data-testid=notice]:not([hidden])");
  const { page } = panel;
  assert.match(
    await textOf(page, "[data-testid=notice]"),
    /^3 messages were ignored because they are not valid \(first: \/lines\/0\/message\/sandbox_message_index must be a whole number >= 0\)\.$/,
  );
  assert.match(await textOf(page, "[data-testid=empty-panel]"), /holds no trajectory/);
  assert.deepEqual(await injected(page), { pwned: undefined, elements: [], scripts: 2 });
  assert.equal(panel.problems.consoleWarnings.length, 3, "each rejected line is logged");
  assert.deepEqual(panel.problems.consoleErrors, []);
  assert.deepEqual(panel.problems.dialogs, []);
});

function readFirstMessages(lines: readonly TrajectoryLine[], count: number): TrajectoryLine[] {
  const out: TrajectoryLine[] = [];
  let messages = 0;
  for (const line of lines) {
    if (line.type === "message") {
      if (messages === count) break;
      messages++;
    }
    if (line.type === "header" || line.type === "message") out.push(line);
  }
  return out;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

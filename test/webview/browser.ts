/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
// Debian's Chromium driven by playwright-core, for the panel tests and the panel benchmark. Each
// launch gets a fresh profile directory; each page records everything a test must find empty:
// console errors, uncaught exceptions, dialogs, and requests other than the page itself.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { chromium, type BrowserContext, type Page } from "playwright-core";

const CHROMIUM = process.env.TOOLSANDBOX_CHROMIUM ?? "/usr/bin/chromium";
const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
];

export interface Problems {
  readonly consoleErrors: string[];
  readonly consoleWarnings: string[];
  readonly pageErrors: string[];
  readonly dialogs: string[];
  /** Every request the page started (Chromium reports even those the CSP then blocks). */
  readonly requests: string[];
  /** The requests the CSP stopped before they left the browser. */
  readonly blockedByCsp: string[];
}

export interface PanelPage {
  readonly page: Page;
  readonly problems: Problems;
}

export class PanelBrowser {
  private constructor(
    private readonly context: BrowserContext,
    private readonly profile: string,
  ) {}

  static async launch(): Promise<PanelBrowser> {
    const profile = mkdtempSync(join(tmpdir(), "toolsandbox-chromium-"));
    try {
      const context = await chromium.launchPersistentContext(profile, {
        executablePath: CHROMIUM,
        headless: true,
        args: CHROMIUM_ARGS,
        viewport: { width: 1360, height: 860 },
      });
      return new PanelBrowser(context, profile);
    } catch (e) {
      rmSync(profile, { recursive: true, force: true });
      throw new Error(`cannot start Chromium at ${CHROMIUM} (apt-get install chromium, or set TOOLSANDBOX_CHROMIUM): ${String(e)}`);
    }
  }

  /** Opens an HTML file and waits until the panel shows a message (or `ready` says otherwise). */
  async open(file: string, ready = "[data-testid=message]"): Promise<PanelPage> {
    const page = await this.context.newPage();
    const url = pathToFileURL(file).href;
    const problems: Problems = { consoleErrors: [], consoleWarnings: [], pageErrors: [], dialogs: [], requests: [], blockedByCsp: [] };
    page.on("console", (m) => {
      if (m.type() === "error") problems.consoleErrors.push(m.text());
      if (m.type() === "warning") problems.consoleWarnings.push(m.text());
    });
    page.on("pageerror", (e) => problems.pageErrors.push(e.message));
    page.on("dialog", (d) => {
      problems.dialogs.push(`${d.type()}: ${d.message()}`);
      void d.dismiss();
    });
    page.on("request", (r) => {
      if (r.url() !== url) problems.requests.push(r.url());
    });
    page.on("requestfailed", (r) => {
      if (r.failure()?.errorText === "csp") problems.blockedByCsp.push(r.url());
    });
    await page.goto(url);
    await page.waitForSelector(ready);
    return { page, problems };
  }

  async close(): Promise<void> {
    await this.context.close();
    rmSync(this.profile, { recursive: true, force: true });
  }
}

/** Text of the first element matching `selector`, trimmed. */
export async function textOf(page: Page, selector: string): Promise<string> {
  return ((await page.locator(selector).first().textContent()) ?? "").trim();
}

/** The index of the message the detail pane shows. */
export async function shownIndex(page: Page): Promise<number> {
  return Number(await page.locator("[data-testid=message]").getAttribute("data-index"));
}

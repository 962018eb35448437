/// <reference lib="dom" />
// The VS Code workbench in Debian's Chromium, driven the way a person uses it: the command
// palette, Quick Open, typing in the editor, the Problems view, webviews. Every step a test takes
// can be recorded as a screenshot in the test's artifact folder.
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { chromium, type BrowserContext, type FrameLocator, type Locator, type Page } from "playwright-core";
import { CodeServer } from "./code-server.js";

const CHROMIUM = process.env.TOOLSANDBOX_CHROMIUM ?? "/usr/bin/chromium";
const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];
/** Generous: the workbench with the extension active takes 5 to 7 s on 2 quiet cores, and CI is not quiet. */
const STEP_TIMEOUT = 60_000;
/** How long one opening of the command palette may take to list a command before it is opened again. */
const PALETTE_ATTEMPT = 15_000;
const MOD = process.platform === "darwin" ? "Meta" : "Control";

interface WorkbenchOptions {
  /** `payload` pairs for the URL (extensionDevelopmentPath, extensionTestsPath). */
  readonly payload?: ReadonlyArray<readonly [string, string]>;
  /** Functions exposed on the page before it loads (codeAutomationExit, codeAutomationLog). */
  readonly expose?: Readonly<Record<string, (...args: unknown[]) => unknown>>;
}

/** Matches a whole text, surrounding white space aside. */
const exactly = (text: string): RegExp => new RegExp(`^\\s*${text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}\\s*$`);

export class Workbench {
  private shots = 0;

  private constructor(
    private readonly context: BrowserContext,
    readonly page: Page,
    private readonly artifacts: string,
  ) {}

  /** Opens `folder` in a fresh browser profile; resolves once the workbench has laid out. */
  static async open(server: CodeServer, folder: string, artifacts: string, options: WorkbenchOptions = {}): Promise<Workbench> {
    mkdirSync(artifacts, { recursive: true });
    const context = await chromium.launchPersistentContext(join(server.run, "chromium-profile"), {
      executablePath: CHROMIUM,
      headless: true,
      args: CHROMIUM_ARGS,
      env: CodeServer.environment(server.run),
      viewport: { width: 1920, height: 1080 },
    });
    try {
      context.setDefaultTimeout(STEP_TIMEOUT);
      const page = context.pages()[0] ?? (await context.newPage());
      for (const [name, fn] of Object.entries(options.expose ?? {})) await page.exposeFunction(name, fn);
      const workbench = new Workbench(context, page, artifacts);
      await page.goto(server.url(folder, options.payload));
      await page.locator(".monaco-workbench .part.statusbar").waitFor({ state: "attached" });
      return workbench;
    } catch (e) {
      await context.close();
      throw e;
    }
  }

  async close(): Promise<void> {
    await this.context.close();
  }

  /** Saves a screenshot as `NN-name.png` in the artifact folder (numbered in the order taken). */
  async screenshot(name: string): Promise<string> {
    this.shots += 1;
    const file = join(this.artifacts, `${String(this.shots).padStart(2, "0")}-${name}.png`);
    await this.page.screenshot({ path: file });
    return file;
  }

  /**
   * F1, the command's title, Enter: what a person does in the command palette. A command that
   * opens a Quick Pick of its own (`opensQuickPick`) reuses the palette's widget, which then never
   * hides: the caller waits for the command's own rows instead.
   */
  async runCommand(title: string, options: { readonly opensQuickPick?: boolean } = {}): Promise<void> {
    const row = this.page
      .locator(".quick-input-list .monaco-list-row")
      .filter({ has: this.page.locator(".label-name", { hasText: exactly(title) }) })
      .first();
    // Just after start-up the palette can close under the keyboard (the welcome page or a
    // notification takes focus) or list the commands before the extensions' are read; a person
    // opens it again, and so does this, until the step's own time is spent.
    const deadline = Date.now() + STEP_TIMEOUT;
    for (;;) {
      await this.page.keyboard.press("F1");
      const input = this.page.locator(".quick-input-widget input");
      await input.waitFor();
      await input.fill(`>${title}`);
      try {
        await row.waitFor({ timeout: Math.max(1_000, Math.min(PALETTE_ATTEMPT, deadline - Date.now())) });
        break;
      } catch (e) {
        if (Date.now() + 1_000 >= deadline) throw e;
        await this.page.keyboard.press("Escape");
      }
    }
    await this.quickPick(title, undefined, { waitHidden: options.opensQuickPick !== true });
  }

  /** Picks the Quick Input row whose label is exactly `label` (and whose description contains `description`). */
  async quickPick(label: string, description?: string, options: { readonly waitHidden?: boolean } = {}): Promise<void> {
    let row = this.page
      .locator(".quick-input-list .monaco-list-row")
      .filter({ has: this.page.locator(".label-name", { hasText: exactly(label) }) });
    if (description !== undefined) row = row.filter({ has: this.page.locator(".label-description", { hasText: description }) });
    await row.first().waitFor();
    await row.first().click();
    if (options.waitHidden !== false) await this.page.locator(".quick-input-widget").waitFor({ state: "hidden" });
  }

  /** Types `text` into the open Quick Input (long lists render only the rows in view). */
  async filterQuickInput(text: string): Promise<void> {
    const input = this.page.locator(".quick-input-widget input");
    await input.waitFor();
    await input.fill(text);
  }

  /** Whether the palette lists a command with this title (typing it and reading the rows). */
  async commandListed(title: string): Promise<boolean> {
    await this.page.keyboard.press("F1");
    const input = this.page.locator(".quick-input-widget input");
    await input.fill(`>${title}`);
    const rows = this.page.locator(".quick-input-list .monaco-list-row .label-name");
    // The list settles once the filter has run; an empty result shows "No matching commands".
    await this.page.locator(".quick-input-list .monaco-list-row, .quick-input-message:has-text('No matching')").first().waitFor();
    const labels = await rows.allTextContents();
    await this.page.keyboard.press("Escape");
    return labels.some((l) => l.trim() === title);
  }

  /** Opens a workspace file through Quick Open (its path typed, the row chosen) in its default editor. */
  async openFile(relativePath: string): Promise<void> {
    const name = relativePath.split("/").pop() ?? relativePath;
    await this.page.keyboard.press(`${MOD}+P`);
    const input = this.page.locator(".quick-input-widget input");
    await input.waitFor();
    await input.fill(relativePath);
    // File search results arrive after the recent files and re-sort the list, so a row can move
    // under the mouse; an exact name ranks first once the list has settled, and Enter opens it.
    await this.page.locator(".quick-input-list .monaco-list-row.focused .label-name", { hasText: exactly(name) }).waitFor();
    await input.press("Enter");
    await this.page.locator(".quick-input-widget").waitFor({ state: "hidden" });
    await this.page.locator(`.editor-group-container.active .tab.active[data-resource-name="${name}"]`).waitFor();
  }

  /** Opens a workspace text file through Quick Open; resolves with its editor once the text shows. */
  async openEditor(relativePath: string): Promise<Locator> {
    await this.openFile(relativePath);
    const editor = this.activeEditor();
    await editor.locator(".view-lines").waitFor();
    return editor;
  }

  /** The text editor that has focus (or was last focused) in the editor area. */
  activeEditor(): Locator {
    return this.page.locator(".editor-group-container.active .monaco-editor").first();
  }

  /** Moves the cursor with "Go to Line/Column" (1-based line and column). */
  async goTo(line: number, column: number): Promise<void> {
    await this.page.keyboard.press(`${MOD}+G`);
    const input = this.page.locator(".quick-input-widget input");
    await input.waitFor();
    await input.fill(`:${line}:${column}`);
    await input.press("Enter");
    await this.page.locator(".quick-input-widget").waitFor({ state: "hidden" });
  }

  /**
   * The links (one per command) of the CodeLens right above `line` (1-based) of the active editor,
   * once it has rendered. The editor renders lenses only near the lines in view, so the cursor goes
   * to the line first; a lens belongs to the line whose number sits right below it.
   */
  async codeLensesAbove(line: number): Promise<Locator> {
    await this.goTo(line, 1);
    const editor = this.activeEditor();
    const lineNumber = editor.locator(".margin-view-overlays .line-numbers").filter({ hasText: new RegExp(`^${line}$`) });
    await lineNumber.waitFor();
    // Index of that lens among the editor's lenses, polled until the lens has rendered.
    const found = await this.page.waitForFunction(
      ([editorEl, wanted]) => {
        const number = [...editorEl.querySelectorAll<HTMLElement>(".margin-view-overlays .line-numbers")].find(
          (n) => n.textContent?.trim() === wanted,
        );
        if (number === undefined) return null;
        const { top, height } = number.getBoundingClientRect();
        const index = [...editorEl.querySelectorAll<HTMLElement>(".codelens-decoration")].findIndex((lens) => {
          const bottom = lens.getBoundingClientRect().bottom;
          return lens.querySelector("a") !== null && bottom <= top + 2 && bottom > top - 2 * height;
        });
        return index >= 0 ? index : null;
      },
      [await editor.elementHandle(), String(line)] as const,
    );
    return editor
      .locator(".codelens-decoration")
      .nth(Number(await found.jsonValue()))
      .locator("a");
  }

  /**
   * What the active editor says about `line` (1-based) once both read `pattern`: the CodeLens right
   * above it and the text decoration at its end. Polled, because both are redrawn a moment after
   * the extension's results change (a re-score while typing).
   */
  /** The CodeLens above `line` (matching `pattern`) and the result at its end (matching `endPattern`). */
  async resultsOn(line: number, pattern: RegExp, endPattern: RegExp = /./): Promise<{ readonly lens: string; readonly lineEnd: string }> {
    await this.goTo(line, 1);
    const editor = this.activeEditor();
    await editor
      .locator(".margin-view-overlays .line-numbers")
      .filter({ hasText: new RegExp(`^${line}$`) })
      .waitFor();
    const found = await this.page.waitForFunction(
      ([editorEl, wanted, source, flags, endSource, endFlags]) => {
        const number = [...editorEl.querySelectorAll<HTMLElement>(".margin-view-overlays .line-numbers")].find(
          (n) => n.textContent?.trim() === wanted,
        );
        if (number === undefined) return null;
        const { top, height } = number.getBoundingClientRect();
        const lens = [...editorEl.querySelectorAll<HTMLElement>(".codelens-decoration")].find((l) => {
          const bottom = l.getBoundingClientRect().bottom;
          return l.querySelector("a") !== null && bottom <= top + 2 && bottom > top - 2 * height;
        });
        const viewLine = [...editorEl.querySelectorAll<HTMLElement>(".view-lines .view-line")].find(
          (l) => Math.abs(l.getBoundingClientRect().top - top) < 2,
        );
        // An `after` decoration is drawn by a CSS rule on a span of the line, not as text in the DOM.
        const lineEnd = [...(viewLine?.querySelectorAll<HTMLElement>("span") ?? [])]
          .map((span) => getComputedStyle(span, "::after").content)
          .find((content) => content !== "none" && content !== "normal" && content !== "");
        const result = {
          lens: lens?.textContent?.trim() ?? "",
          lineEnd: lineEnd === undefined ? "" : lineEnd.replace(/^"|"$/g, "").trim(),
        };
        const accept = new RegExp(source, flags);
        const acceptEnd = new RegExp(endSource, endFlags);
        return accept.test(result.lens) && acceptEnd.test(result.lineEnd) ? result : null;
      },
      [await editor.elementHandle(), String(line), pattern.source, pattern.flags, endPattern.source, endPattern.flags] as const,
    );
    return (await found.jsonValue()) as { lens: string; lineEnd: string };
  }

  /** The editor's hover at a position, as Ctrl+K Ctrl+I shows it; resolves with its text once that matches `pattern`. */
  async hoverAt(line: number, column: number, pattern: RegExp): Promise<string> {
    await this.goTo(line, column);
    await this.page.keyboard.press(`${MOD}+K`);
    await this.page.keyboard.press(`${MOD}+I`);
    const hover = this.page.locator(".monaco-hover:not(.hidden) .monaco-hover-content", { hasText: pattern }).first();
    await hover.waitFor();
    const text = (await hover.textContent()) ?? "";
    await this.page.keyboard.press("Escape");
    return text;
  }

  async type(text: string): Promise<void> {
    await this.page.keyboard.type(text, { delay: 20 });
  }

  async press(key: string): Promise<void> {
    await this.page.keyboard.press(key.replace(/^Mod\+/, `${MOD}+`));
  }

  /** The content of the webview on screen (the panel, or a trajectory file's editor). */
  webview(): FrameLocator {
    return this.page.frameLocator("iframe.webview.ready >> visible=true").frameLocator("#active-frame");
  }
}

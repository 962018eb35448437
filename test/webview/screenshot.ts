// Writes docs/images/panel.png: the replay panel on a saved sample, at the step where the agent's
// call turned cellular on (a world diff and two milestones matched there). Run after a build:
//
//   npm run build && node --import tsx test/webview/screenshot.ts [light|dark]
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PanelBrowser } from "./browser.js";
import { exportWithCli, samplePath } from "./trajectories.js";

const SAMPLE = "send_message_with_contact_content_cellular_off_adapted";
const STEP = 18;

async function main(): Promise<void> {
  const scheme = process.argv[2] === "dark" ? "dark" : "light";
  const out = join(__dirname, "..", "..", "docs", "images", scheme === "dark" ? "panel-dark.png" : "panel.png");
  const dir = mkdtempSync(join(tmpdir(), "toolsandbox-screenshot-"));
  const browser = await PanelBrowser.launch();
  try {
    const { page } = await browser.open(exportWithCli(samplePath(SAMPLE), join(dir, "panel.html")));
    await page.emulateMedia({ colorScheme: scheme });
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.locator("[data-testid=jump]").fill(String(STEP));
    await page.locator("[data-testid=jump]").press("Enter");
    await page.locator("[data-testid=jump]").blur();
    await page.screenshot({ path: out });
    console.log(`wrote ${out}`);
  } finally {
    await browser.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

void main();

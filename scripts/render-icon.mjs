// `node scripts/render-icon.mjs`: renders client/icons/icon.svg (drawn for this project) to the
// 128 px client/icons/icon.png the manifest's `icon` needs (vsce takes no SVG there), in the same
// Chromium the browser tests use. Run it after editing the SVG; the PNG is committed.
import { readFileSync } from "node:fs";
import { chromium } from "playwright-core";

const SIZE = 128;
const svg = readFileSync("client/icons/icon.svg", "utf8");
const browser = await chromium.launch({ executablePath: process.env.TOOLSANDBOX_CHROMIUM ?? "/usr/bin/chromium" });
try {
  const page = await browser.newPage({ viewport: { width: SIZE, height: SIZE } });
  const src = `data:image/svg+xml;base64,${Buffer.from(svg).toString("base64")}`;
  await page.setContent(`<body style="margin:0"><img style="display:block;width:${SIZE}px;height:${SIZE}px" src="${src}"></body>`);
  await page.screenshot({ path: "client/icons/icon.png", omitBackground: true });
} finally {
  await browser.close();
}
console.log("client/icons/icon.png");

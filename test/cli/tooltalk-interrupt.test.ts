// `run --mode tooltalk` with a model agent stops at once on Ctrl-C, even while a model request is
// unanswered: the request is cancelled rather than waited for.
import { after, test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { requireBuild, CLI, removeTempDirs, tempDir } from "./harness.js";
import { importedToolTalkFolder } from "../fixtures/tooltalk-data.js";

let server: Server | undefined;

after(() => {
  server?.closeAllConnections();
  server?.close();
  removeTempDirs();
});

/** An endpoint that takes requests and never answers them; resolves `arrived` at the first one. */
async function silentEndpoint(): Promise<{ url: string; arrived: Promise<void> }> {
  let signal: () => void = () => undefined;
  const arrived = new Promise<void>((resolve) => (signal = resolve));
  server = createServer(() => signal());
  await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, arrived };
}

test("Ctrl-C during an unanswered model request ends the ToolTalk run with exit 130", { timeout: 60_000 }, async () => {
  requireBuild();
  const { url, arrived } = await silentEndpoint();
  const out = tempDir("tooltalk-sigint");
  const args = [
    "run",
    join(importedToolTalkFolder(), "tooltalk_add_alarm_easy.scenario.yaml"),
    "--mode",
    "tooltalk",
    "--agent",
    "openai:mock",
    "--base-url",
    url,
    "--out",
    out,
  ];
  const child = spawn(process.execPath, [CLI, ...args], { env: { PATH: process.env.PATH ?? "", OPENAI_API_KEY: "test-key" } });
  let stderr = "";
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const finished = new Promise<number | null>((resolve, reject) => {
    child.on("error", reject);
    child.on("close", (code) => resolve(code));
  });
  await arrived;
  child.kill("SIGINT");
  assert.equal(await finished, 130, stderr);
  assert.match(stderr.trimEnd().split("\n").at(-1) ?? "", /^toolsandbox: interrupted: 0 of 1 conversation finished$/);
});

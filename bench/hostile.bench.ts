// Hostile and large documents (docs/limits.md): how long they hold up the language server and the
// CLI, and how much memory they take.
//
// Language server (the built dist/server.js over stdio), a fresh one per document: an ordinary file
// is open, and hovers on it are sent one after another the whole time ("longest block": the longest
// wait for one of them, i.e. the longest the document kept the server from serving anything else,
// its reference scoring in the background included). The document is opened ("open": time to its
// diagnostics), then one character is typed at its end ("edit"). "peak memory": the server
// process's peak resident memory (VmHWM), its reference-scoring worker included (files up to
// 512 KB are scored while editing, docs/limits.md).
//
// CLI: `validate` of valid scenarios growing up to the size limit, and of the hostile documents:
// wall time and peak resident memory (GNU time), to show both stay linear up to the limits.
//
//   npm run bench:hostile
//   npm run bench:hostile -- "50,000"     (only the rows whose name contains the text)
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { HoverRequest } from "vscode-languageserver/node";
import {
  aliasBomb,
  BASE_SCENARIO,
  deepBlockNesting,
  deepFlowNesting,
  longLine,
  manyLines,
  manyMilestones,
} from "../test/fixtures/hostile-documents.js";
import { CLI, LspClient, positionOf, SERVER, uriOf } from "../test/server/protocol/client.js";
import { type BenchReport, startBenchReport } from "./report.js";

const DOCUMENTS: readonly (readonly [string, () => string])[] = [
  ["alias bomb (9^9)", aliasBomb],
  ["flow nesting 800", () => deepFlowNesting(800)],
  ["block nesting 800", () => deepBlockNesting(800)],
  ["50,000 lines (valid)", () => manyLines(50_000)],
  ["10,000 milestones", () => manyMilestones(10_000)],
  ["20 MB line", () => longLine(20_000_000)],
];

/** Rows to run: those whose name contains this text (all when none is given). */
const only = process.argv[2] ?? "";
const chosen = <T extends readonly [string, unknown]>(rows: readonly T[]): T[] => rows.filter(([name]) => name.includes(only));

const ms = (t: number): string => `${t.toFixed(0)} ms`.padStart(9);
const mb = (bytes: number): string => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

/**
 * Hovers on the ordinary file, one after another, until stopped: the longest wait for an answer
 * is the longest time the server was kept from serving anything else.
 */
function probe(hover: () => Promise<unknown>): { stop: () => Promise<number> } {
  let running = true;
  let longest = 0;
  const loop = (async () => {
    while (running) {
      const sent = performance.now();
      await hover();
      longest = Math.max(longest, performance.now() - sent);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  })();
  return {
    stop: async () => {
      running = false;
      await loop;
      return longest;
    },
  };
}

/**
 * The target for the documents the limits are there for (all but the 10,000 milestones, which
 * pass a limit only once the whole file is parsed): the server kept from other files under 1 s,
 * its peak memory under 500 MB.
 */
const BLOCK_TARGET_MS = 1000;
const PEAK_TARGET_MB = 500;
const hasTarget = (name: string): boolean => !name.startsWith("10,000 milestones");

/** Settling time after a document's diagnostics, so the background scoring of its reference is included. */
const SETTLE_MS = 3000;

/** One fresh server per document: its open and an edit at its end, with a probe running throughout. */
async function serverRow(dir: string, name: string, text: string, report: BenchReport): Promise<string> {
  const client = LspClient.start([SERVER, "--stdio"]);
  try {
    await client.initialize(dir);
    const other = uriOf(join(dir, "other.scenario.yaml"));
    await client.open(other, BASE_SCENARIO);
    await client.diagnostics((p) => p.uri === other, "diagnostics of the ordinary file");
    const hoverAt = positionOf(BASE_SCENARIO, "tool: set_cellular", 0, "tool: set".length);
    const hover = (): Promise<unknown> =>
      client.request(client.connection.sendRequest(HoverRequest.type, { textDocument: { uri: other }, position: hoverAt }), "hover");
    const uri = uriOf(join(dir, "hostile.scenario.yaml"));
    const watch = probe(hover);
    const opened = performance.now();
    await client.open(uri, text);
    await client.diagnostics((p) => p.uri === uri && p.version === 1, `diagnostics of ${name}`);
    const openDiagnostics = performance.now() - opened;
    await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
    const lines = text.split("\n").length;
    const edited = performance.now();
    await client.change(uri, 2, [
      { range: { start: { line: lines - 1, character: 0 }, end: { line: lines - 1, character: 0 } }, text: " " },
    ]);
    await client.diagnostics((p) => p.uri === uri && p.version === 2, `diagnostics of ${name}, edited`);
    const editDiagnostics = performance.now() - edited;
    await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
    const blocked = await watch.stop();
    const status = readFileSync(`/proc/${client.pid ?? 0}/status`, "utf8");
    const peakKb = Number(/^VmHWM:\s+(\d+) kB$/m.exec(status)?.[1] ?? NaN);
    await client.shutdown();
    if (hasTarget(name)) {
      const peakMb = peakKb / 1024;
      report.target(
        `server, ${name}: longest block under ${BLOCK_TARGET_MS} ms and peak under ${PEAK_TARGET_MB} MB (${blocked.toFixed(0)} ms, ${peakMb.toFixed(0)} MB)`,
        blocked < BLOCK_TARGET_MS && peakMb < PEAK_TARGET_MB,
      );
    }
    return `${name.padEnd(24)} ${ms(openDiagnostics)}  ${ms(editDiagnostics)}   ${ms(blocked)}   ${mb(peakKb * 1024).padStart(9)}`;
  } finally {
    client.kill();
  }
}

async function serverRows(dir: string, report: BenchReport): Promise<void> {
  console.log("\nlanguage server          diagnostics: open    edit   longest block   peak memory");
  for (const [name, make] of chosen(DOCUMENTS)) console.log(await serverRow(dir, name, make(), report));
}

function cliRows(dir: string): void {
  const gnuTime = "/usr/bin/time";
  if (!existsSync(gnuTime)) {
    console.log(`CLI rows need GNU time at ${gnuTime} (apt-get install time)`);
    process.exitCode = 1;
    return;
  }
  const documents: (readonly [string, () => string])[] = [
    ...[6_250, 12_500, 25_000, 50_000, 70_000].map((n) => [`valid, ${n.toLocaleString("en-US")} lines`, () => manyLines(n)] as const),
    ...DOCUMENTS.filter(([name]) => !name.startsWith("50,000")),
    ["200,000 milestones", () => manyMilestones(200_000)],
  ];
  console.log("\ntoolsandbox validate                 size       time   peak memory");
  for (const [name, make] of chosen(documents)) {
    const file = join(dir, "cli.scenario.yaml");
    const text = make();
    writeFileSync(file, text);
    const r = spawnSync(gnuTime, ["-f", "%e %M", process.execPath, CLI, "validate", file], { encoding: "utf8", maxBuffer: 1 << 26 });
    const [seconds, kb] = (r.stderr.trim().split("\n").at(-1) ?? "").split(" ").map(Number);
    console.log(
      `${name.padEnd(30)} ${mb(Buffer.byteLength(text)).padStart(10)} ${ms((seconds ?? NaN) * 1000)}   ${mb((kb ?? NaN) * 1024).padStart(9)}   exit ${r.status}`,
    );
  }
}

async function main(): Promise<void> {
  const report = startBenchReport("hostile");
  const dir = mkdtempSync(join(tmpdir(), "toolsandbox-bench-hostile-"));
  try {
    await serverRows(dir, report);
    cliRows(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  report.write();
}

void main();

// Our language server against yaml-language-server (Red Hat's, from npm, given our JSON Schema),
// both started as real processes over stdio in one run. For generated valid scenarios of 100,
// 1,000, 10,000 and 50,000 lines it measures, per server:
//   - change -> diagnostics: from sending a didChange (one word of a milestone's `kind` broken,
//     or mended, in turn) to receiving the publishDiagnostics for it; each server's own debounce
//     is part of it, as it is for the person typing;
//   - completion: from sending a completion request (the value of a milestone's `table:`) to its
//     answer, once the document has settled;
//   - completion right after an edit: the same request sent straight after a didChange, before
//     the server has published that version's diagnostics;
//   - burst: 200 single-character edits sent back to back, then the completion; from the last
//     edit sent to the answer. Requests are answered in order after the notifications before
//     them, so that answer is the first to reflect the final text;
//   - peak memory: the server process's peak resident size (VmHWM) after its row.
// Before the servers, the samples' own scenarios in process (bench/lsp-samples.ts): checking each,
// and completion, hover and references at every fifth line.
// Medians of several repetitions after warm-up (the 50,000-line row: a third as many). Asserts
// that both servers report the broken word (so yaml-language-server really validates against
// the schema) and offer SETTING. Prints the targets and whether each row meets them; a bench
// reports, it never fails a build (exit 1 only when a server gives a wrong answer or none).
//
//   npm run bench:lsp                 (9 repetitions)
//   npm run bench:lsp -- 21           (21 repetitions)
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { pathToFileURL } from "node:url";
import { BenchServer, replacement, type ServerSpec } from "./lsp-server.js";
import { scenarioOfLines, type BenchDocument } from "./lsp-documents.js";
import { type BenchReport, median, startBenchReport } from "./report.js";
import { sampleRows } from "./lsp-samples.js";

const SIZES = [100, 1_000, 10_000, 50_000];
const WARMUP = 5;
const BURST_EDITS = 200;
const SCHEMA = join(process.cwd(), "schemas", "scenario.schema.json");

/** The targets the issue sets: ours at most half yaml-language-server's time; completion under 50 ms at 10,000 lines. */
const TARGET_RATIO = 0.5;
const TARGET_COMPLETION_MS = 50;
const TARGET_COMPLETION_LINES = 10_000;

function repetitionsFromArgs(): number {
  const arg = process.argv[2];
  if (arg === undefined) return 9;
  const n = Number(arg);
  if (!Number.isInteger(n) || n < 1) {
    console.error(`bench:lsp: the repetition count must be a positive integer, got "${arg}"`);
    process.exit(2);
  }
  return n;
}

// ---------------------------------------------------------------------------------------------
// Measuring

const OURS: ServerSpec = {
  name: "toolsandbox",
  args: [join(process.cwd(), "dist", "server.js"), "--stdio"],
  languageId: "toolsandbox-scenario",
  settings: () => ({}),
};

const YAML_LANGUAGE_SERVER: ServerSpec = {
  name: "yaml-language-server",
  args: [require.resolve("yaml-language-server/bin/yaml-language-server"), "--stdio"],
  languageId: "yaml",
  settings: (documentUri) => ({
    yaml: {
      validate: true,
      completion: true,
      hover: true,
      schemaStore: { enable: false },
      schemas: { [pathToFileURL(SCHEMA).href]: [documentUri] },
    },
    http: {},
    "[yaml]": {},
    editor: {},
  }),
};

interface Measured {
  readonly diagnosticsMs: number;
  readonly completionMs: number;
  readonly afterEditMs: number;
  readonly burstMs: number;
  readonly peakMb: number | null;
}

const BROKEN_KIND = "snapshoot";
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

async function measure(server: BenchServer, uri: string, doc: BenchDocument, repetitions: number, warmup: number): Promise<Measured> {
  const name = server.spec.name;
  const opened = await server.open(uri, doc.text);
  if (opened.diagnostics.length > 0) {
    throw new Error(`${name}: the generated ${doc.lines}-line document should be clean, got: ${opened.diagnostics[0]?.message}`);
  }
  const at = { line: doc.editLine, character: doc.editCharacter };
  const offersTables = (labels: readonly string[], what: string): void => {
    if (!labels.includes("SETTING")) throw new Error(`${name}: no SETTING among the completions of \`table:\` (${what})`);
  };
  const diagnostics: number[] = [];
  const completions: number[] = [];
  const afterEdits: number[] = [];
  for (let i = 0; i < warmup + repetitions; i++) {
    // Break the word, then mend it: every change alters what is reported.
    const broken = await server.change(uri, at, "snapshot".length, BROKEN_KIND);
    const onEdit = broken.diagnostics.diagnostics.filter((d) => d.range.start.line === doc.editLine);
    if (onEdit.length === 0) throw new Error(`${name}: no diagnostic on the broken \`kind\` (line ${doc.editLine + 1})`);
    const mended = await server.change(uri, at, BROKEN_KIND.length, "snapshot");
    if (mended.diagnostics.diagnostics.some((d) => d.severity === 1)) {
      throw new Error(`${name}: errors left after mending: ${mended.diagnostics.diagnostics[0]?.message}`);
    }
    const completed = await server.complete(uri, doc.completionAt);
    offersTables(completed.labels, "settled");
    // Right after an edit: the request goes out behind the change, before its diagnostics.
    await server.send(uri, replacement(at, "snapshot".length, BROKEN_KIND));
    const afterEdit = await server.complete(uri, doc.completionAt);
    offersTables(afterEdit.labels, "right after an edit");
    await server.settled();
    await server.change(uri, at, BROKEN_KIND.length, "snapshot");
    if (i < warmup) continue;
    diagnostics.push(broken.ms, mended.ms);
    completions.push(completed.ms);
    afterEdits.push(afterEdit.ms);
  }
  const bursts: number[] = [];
  for (let i = 0; i < Math.min(3, repetitions); i++) bursts.push(await burst(server, uri, doc));
  const peakMb = server.peakMemoryMb();
  await server.close(uri);
  return {
    diagnosticsMs: median(diagnostics),
    completionMs: median(completions),
    afterEditMs: median(afterEdits),
    burstMs: median(bursts),
    peakMb,
  };
}

/** Types BURST_EDITS characters at the end of the user's goal, asks for completion, then removes them. */
async function burst(server: BenchServer, uri: string, doc: BenchDocument): Promise<number> {
  const line = doc.burstAt.line;
  let sent = performance.now();
  for (let i = 0; i < BURST_EDITS; i++) {
    sent = performance.now();
    await server.send(uri, replacement({ line, character: doc.burstAt.character + i }, 0, "abcdefghij"[i % 10]!));
  }
  const completed = await server.complete(uri, doc.completionAt);
  const ms = performance.now() - sent;
  if (!completed.labels.includes("SETTING"))
    throw new Error(`${server.spec.name}: no SETTING among the completions after a burst of edits`);
  await server.change(uri, doc.burstAt, BURST_EDITS, "");
  // A server that publishes without versions may still have a publish of the burst on its way.
  await sleep(500);
  return ms;
}

// ---------------------------------------------------------------------------------------------
// Report

interface Row {
  /** The size asked for (the row's name); `lines` is what the generator produced. */
  readonly size: number;
  readonly lines: number;
  readonly ours: Measured;
  readonly theirs: Measured;
}

type Column = readonly [header: string, value: (m: Measured) => number | null];
const COLUMNS: readonly Column[] = [
  ["diagnostics", (m) => m.diagnosticsMs],
  ["completion", (m) => m.completionMs],
  ["after an edit", (m) => m.afterEditMs],
  ["after 200 edits", (m) => m.burstMs],
];

function printTable(rows: readonly Row[]): void {
  const ms = (n: number): string => `${n.toFixed(1)} ms`;
  const mb = (n: number | null): string => (n === null ? "?" : `${n.toFixed(0)} MB`);
  const header = ["lines", ...COLUMNS.flatMap(([h]) => [`${h}: ours`, "yaml-ls", "ours/yaml-ls"]), "peak: ours", "yaml-ls"];
  const body = rows.map((r) => [
    r.lines.toLocaleString("en-US"),
    ...COLUMNS.flatMap(([, value]) => {
      const ours = value(r.ours)!;
      const theirs = value(r.theirs)!;
      return [ms(ours), ms(theirs), `${(ours / theirs).toFixed(2)}`];
    }),
    mb(r.ours.peakMb),
    mb(r.theirs.peakMb),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((row) => row[i]!.length)));
  const line = (cells: readonly string[]): string =>
    cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join("  ");
  console.log(line(header));
  for (const row of body) console.log(line(row));
  console.log("\nours/yaml-ls = our median / yaml-language-server's (below 1: ours is faster).");
}

/** One line per target, met or not, row by row. */
function printTargets(rows: readonly Row[], report: BenchReport): void {
  console.log(
    `\nTargets: diagnostics and completion at most ${TARGET_RATIO}x yaml-language-server's time on every row; completion under ${TARGET_COMPLETION_MS} ms at ${TARGET_COMPLETION_LINES.toLocaleString("en-US")} lines, right after an edit too.`,
  );
  for (const r of rows) {
    const misses: string[] = [];
    for (const [header, value] of COLUMNS.slice(0, 2)) {
      const ratio = value(r.ours)! / value(r.theirs)!;
      if (ratio > TARGET_RATIO) misses.push(`${header} ${ratio.toFixed(2)}x`);
    }
    if (r.size === TARGET_COMPLETION_LINES) {
      for (const [header, value] of COLUMNS.slice(1, 3))
        if (value(r.ours)! >= TARGET_COMPLETION_MS) misses.push(`${header} ${value(r.ours)!.toFixed(1)} ms`);
    }
    console.log(
      `  ${r.lines.toLocaleString("en-US").padStart(6)} lines: ${misses.length === 0 ? "met" : `NOT met (${misses.join(", ")})`}`,
    );
    const completionTarget =
      r.size === TARGET_COMPLETION_LINES ? `, completion under ${TARGET_COMPLETION_MS} ms settled and right after an edit` : "";
    report.target(
      `${r.lines.toLocaleString("en-US")} lines: diagnostics and completion at most ${TARGET_RATIO}x yaml-language-server's${completionTarget}` +
        (misses.length === 0 ? "" : ` (${misses.join(", ")})`),
      misses.length === 0,
    );
  }
}

async function main(): Promise<number> {
  const report = startBenchReport("lsp");
  const repetitions = repetitionsFromArgs();
  const dir = mkdtempSync(join(tmpdir(), "toolsandbox-bench-lsp-"));
  const servers: BenchServer[] = [];
  try {
    sampleRows(report);
    const rows: Row[] = [];
    for (const size of SIZES) {
      const doc = scenarioOfLines(size);
      const path = join(dir, `bench-${size}.scenario.yaml`);
      writeFileSync(path, doc.text);
      const uri = pathToFileURL(path).href;
      const large = size >= 50_000;
      const reps = large ? Math.max(3, Math.ceil(repetitions / 3)) : repetitions;
      const warmup = large ? 1 : WARMUP;
      // One server process per row, so neither inherits the other's garbage; one at a time, so
      // the two never compete for the CPU.
      const ours = await BenchServer.start(OURS, dir, uri);
      servers.push(ours);
      const oursMeasured = await measure(ours, uri, doc, reps, warmup);
      await ours.stop();
      const theirs = await BenchServer.start(YAML_LANGUAGE_SERVER, dir, uri);
      servers.push(theirs);
      const theirsMeasured = await measure(theirs, uri, doc, reps, warmup);
      await theirs.stop();
      servers.length = 0;
      rows.push({ size, lines: doc.lines, ours: oursMeasured, theirs: theirsMeasured });
      console.error(`bench:lsp: ${doc.lines} lines measured`);
    }
    console.log(
      `Medians of ${repetitions} repetitions after ${WARMUP} warm-up rounds (50,000 lines: ${Math.max(3, Math.ceil(repetitions / 3))} after 1), each server over stdio:\n`,
    );
    printTable(rows);
    printTargets(rows, report);
    report.write();
    return 0;
  } finally {
    await Promise.allSettled(servers.map((s) => s.stop()));
    rmSync(dir, { recursive: true, force: true });
  }
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (e: unknown) => {
    console.error(e instanceof Error ? e.message : String(e));
    process.exitCode = 1;
  },
);

// Tool creation's sandbox: what a fresh sandbox costs per tool, and what a case costs once it runs.
// Figures only, no verdicts.
//
//   npm run bench:creation                  (every tool of both packs, our correct Python)
//   npm run bench:creation -- wifi          (only the tools whose name contains the text)
//   npm run bench:creation -- --pack tooltalk [text]   (one pack's tools)
//
// Per tool, two runs of its correct implementation (test/fixtures/tool-creation/correct/ for
// ToolSandbox's tools, test/fixtures/tool-creation/tooltalk/correct/ for ToolTalk's), each in
// a fresh sandbox as `create-tools` starts one:
// - start-up: spawn to the child's "ready" (Pyodide loaded and locked down), as the host timed it;
// - no call, whole: the run with no call to make, timed from outside (spawn, start-up, the code's
//   top level, the exit): what every tool pays before its first case;
// - per case: the run with its cases repeated REPEAT times, from "ready" to the end, minus the
//   same for the run with no call, over the number of calls.
// The sandbox's child is bundled the way the build bundles it (test/benchmarks/dialogtool/creation/sandbox-child-build.ts).
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { generateCases } from "../engine/benchmarks/dialogtool/creation/cases.js";
import { CREATION_PACKS } from "../engine/benchmarks/dialogtool/creation/packs.js";
import { runInSandbox } from "../engine/benchmarks/dialogtool/creation/sandbox.js";
import type { SandboxCall } from "../engine/benchmarks/dialogtool/creation/sandbox-protocol.js";
import { bundleSandbox } from "../test/benchmarks/dialogtool/creation/sandbox-child-build.js";
import { startBenchReport, median } from "./report.js";

const REPEAT = 20;
const args = process.argv.slice(2);
const packFlag = args.indexOf("--pack");
const packIds = packFlag >= 0 ? [args[packFlag + 1] ?? ""] : [...CREATION_PACKS.keys()];
const only = args.filter((_, i) => packFlag < 0 || (i !== packFlag && i !== packFlag + 1))[0] ?? "";
/** Where each pack's correct Python lives. */
const CORRECT: Readonly<Record<string, string>> = {
  toolsandbox: "test/fixtures/tool-creation/correct",
  tooltalk: "test/fixtures/tool-creation/tooltalk/correct",
};

const ms = (t: number): string => `${t.toFixed(0)} ms`.padStart(9);
async function main(): Promise<void> {
  const report = startBenchReport("creation");
  const { paths, remove } = await bundleSandbox();
  try {
    for (const packId of packIds) {
      const pack = CREATION_PACKS.get(packId);
      const folder = CORRECT[packId];
      if (!pack || !folder) throw new Error(`no pack ${packId} (there are: ${[...CREATION_PACKS.keys()].join(", ")})`);
      const startups: number[] = [];
      const wholes: number[] = [];
      const perCase: number[] = [];
      console.log(`pack ${packId}`);
      console.log(`${"tool".padEnd(34)} ${"start-up".padStart(9)} ${"no call, whole".padStart(15)} ${"per case".padStart(9)}  calls`);
      for (const spec of pack.specs.filter((s) => s.tool.includes(only))) {
        const tool = pack.toolByName(spec.tool)!;
        const code = readFileSync(join(folder, `${spec.tool}.py`), "utf8");
        const cases = generateCases(tool, spec, pack.world);
        const calls: SandboxCall[] = [];
        for (let r = 0; r < REPEAT; r++) for (const c of cases) calls.push({ id: `${c.id}#${r}`, arguments: c.arguments, world: c.world });
        const timed = async (of: readonly SandboxCall[]): Promise<{ whole: number; startup: number; run: number }> => {
          const started = performance.now();
          const run = await runInSandbox(code, spec.tool, of, paths);
          if (run.stopped !== null || run.loadFailure !== null) throw new Error(`${spec.tool}: ${run.stopped ?? run.loadFailure}`);
          return { whole: performance.now() - started, startup: run.startupMs ?? Number.NaN, run: run.runMs ?? Number.NaN };
        };
        const empty = await timed([]);
        const full = await timed(calls);
        const each = Math.max(0, full.run - empty.run) / calls.length;
        startups.push(empty.startup, full.startup);
        wholes.push(empty.whole);
        perCase.push(each);
        console.log(
          `${spec.tool.padEnd(34)} ${ms(empty.startup)} ${ms(empty.whole).padStart(15)} ${`${each.toFixed(2)} ms`.padStart(9)}  ${calls.length}`,
        );
      }
      if (startups.length === 0) continue;
      console.log(
        `${"median".padEnd(34)} ${ms(median(startups))} ${ms(median(wholes)).padStart(15)} ${`${median(perCase).toFixed(2)} ms`.padStart(9)}`,
      );
    }
    report.write();
  } finally {
    remove();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : String(error));
  process.exitCode = 1;
});

// Runs exporter.py with the user's Python and the checkout on PYTHONPATH, once per clock.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { delimiter, join, resolve } from "node:path";
import { parseExportedSuite, type ExportedSuite } from "./export-data.js";
import type { Clock } from "./time-values.js";

export class ExporterError extends Error {}

/** The exporter script shipped with the package (beside this file from source, or in dist/). */
function exporterScript(): string {
  const candidates = [join(__dirname, "exporter.py"), join(__dirname, "toolsandbox-importer", "exporter.py")];
  const found = candidates.find((file) => existsSync(file));
  if (found === undefined)
    throw new ExporterError(`the ToolSandbox exporter script is missing from this installation (looked for ${candidates.join(", ")})`);
  return found;
}

interface ExporterRun {
  readonly suite: ExportedSuite;
  /** What the exporter said on stderr (stand-ins it used), line by line. */
  readonly notes: readonly string[];
}

export function runExporter(checkout: string, python: string, clock: Clock, script = exporterScript()): ExporterRun {
  const root = resolve(checkout);
  if (!existsSync(join(root, "tool_sandbox")))
    throw new ExporterError(`${checkout}: not a ToolSandbox checkout (no tool_sandbox/ package in it)`);
  const env = { ...process.env, PYTHONPATH: [root, process.env.PYTHONPATH].filter(Boolean).join(delimiter), PYTHONDONTWRITEBYTECODE: "1" };
  const result = spawnSync(python, [script, "--now", String(clock.now), "--timezone", clock.timezone], {
    env,
    encoding: "utf8",
    maxBuffer: 256 * 1024 * 1024,
  });
  if (result.error) throw new ExporterError(`cannot run ${python}: ${result.error.message}`);
  const notes = (result.stderr ?? "").split("\n").filter((l) => l.trim() !== "");
  if (result.status !== 0) {
    const last = notes.filter((l) => l.startsWith("exporter:")).pop() ?? notes.pop() ?? `exit code ${String(result.status)}`;
    throw new ExporterError(last.replace(/^exporter: /, ""));
  }
  return { suite: parseExportedSuite(result.stdout), notes };
}

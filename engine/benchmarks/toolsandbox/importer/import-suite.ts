// `toolsandbox import toolsandbox <checkout>`: exports the checkout's base scenarios under two
// clocks (see time-values.ts), converts each one, and writes `<upstream name>.scenario.yaml`,
// with the prompt set of upstream's own texts beside them (prompt-set.ts).
import { makeDirectories, writeFileNoFollow } from "../../../base/output-files.js";
import { join, resolve } from "node:path";
import { PROMPT_SET_FILE } from "../../../scenario/prompts/prompt-set.js";
import { promptSetJson } from "./prompt-set.js";
import type { ExportedSuite } from "./export-data.js";
import { convertScenario, type ConvertedScenario } from "./convert-scenario.js";
import { UnsupportedConstruct } from "./milestones.js";
import { ReferenceFileError, referencesFolder } from "./references.js";
import { runExporter } from "./run-exporter.js";
import type { Clock } from "./time-values.js";
import type { ImportWarning } from "./warnings.js";

/** The scenario clock of imported scenarios: the format's default clock. */
export const IMPORT_CLOCK: Clock = { now: 1768496400, timezone: "America/Los_Angeles" }; // 2026-01-15T09:00:00-08:00, a Thursday
/** The second clock: another weekday and time of day, same zone, same side of daylight saving. */
export const PROBE_CLOCK: Clock = { now: 1770762600, timezone: "America/Los_Angeles" }; // 2026-02-10T14:30:00-08:00, a Tuesday

export interface SuiteImport {
  readonly written: readonly string[];
  readonly converted: readonly ConvertedScenario[];
  /** Scenarios that could not be written, one line each. */
  readonly problems: readonly string[];
  readonly warnings: readonly ImportWarning[];
  /** The exporter's notes (stand-in modules), once. */
  readonly notes: readonly string[];
}

interface SuiteOptions {
  readonly out: string;
  readonly python: string;
  readonly referencesFolder?: string | null;
  readonly schemaPath?: string | null;
  readonly exporterScript?: string;
}

export function convertSuite(
  suites: { a: ExportedSuite; b: ExportedSuite },
  options: Pick<SuiteOptions, "referencesFolder" | "schemaPath">,
): { converted: ConvertedScenario[]; problems: string[] } {
  const converted: ConvertedScenario[] = [];
  const problems: string[] = [];
  const byName = new Map(suites.b.scenarios.map((s) => [s.name, s]));
  for (const a of suites.a.scenarios) {
    const b = byName.get(a.name);
    if (b === undefined) {
      problems.push(`${a.name}: the second export has no scenario of this name`);
      continue;
    }
    try {
      converted.push(
        convertScenario({ a, b }, suites, {
          referencesFolder: options.referencesFolder ?? referencesFolder(),
          schemaPath: options.schemaPath ?? null,
        }),
      );
    } catch (e) {
      if (e instanceof UnsupportedConstruct) problems.push(`${a.name}: ${e.message} cannot be expressed in the scenario format`);
      else if (e instanceof ReferenceFileError) problems.push(`${a.name}: reference solution ${e.message}`);
      else throw e;
    }
  }
  return { converted, problems };
}

export function importToolSandbox(checkout: string, options: SuiteOptions): SuiteImport {
  const a = runExporter(checkout, options.python, IMPORT_CLOCK, options.exporterScript);
  const b = runExporter(checkout, options.python, PROBE_CLOCK, options.exporterScript);
  const { converted, problems } = convertSuite({ a: a.suite, b: b.suite }, options);
  makeDirectories(options.out);
  // Upstream's own texts, for the scenarios' `prompts:` key: read at run time, never committed.
  writeFileNoFollow(join(options.out, PROMPT_SET_FILE), promptSetJson(a.suite, `ToolSandbox checkout at ${resolve(checkout)}`));
  const written: string[] = [];
  for (const scenario of converted) {
    const file = join(options.out, `${scenario.name}.scenario.yaml`);
    writeFileNoFollow(file, scenario.text);
    written.push(file);
  }
  return { written, converted, problems, warnings: converted.flatMap((c) => c.warnings), notes: a.notes };
}

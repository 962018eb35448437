// Strength results in the mutation-testing-report-schema shape (schemaVersion 2), the JSON that
// Stryker's tools share, so mutation-testing-elements and its dashboards can show a suite: the
// file is the scenario, a mutant's location the reference step it changes, and the tests are the
// milestones and minefields. Variants (right agents) have no place in that format and are left out.
import type { YamlSource } from "../scenario/yaml-source.js";
import type { MutantState } from "./catalogue.js";
import type { OutcomeLine, ScenarioStrength } from "./strength.js";

export interface StrengthFile {
  readonly file: string;
  readonly src: YamlSource;
  readonly strength: ScenarioStrength;
}

type ReportStatus = "Killed" | "Survived" | "NoCoverage" | "Timeout" | "RuntimeError" | "Ignored";

const STATUS: Readonly<Record<MutantState, ReportStatus>> = {
  killed: "Killed",
  survived: "Survived",
  "no-coverage": "NoCoverage",
  timeout: "Timeout",
  "runtime-error": "RuntimeError",
  // The schema has no equivalent state; Stryker's users mark such mutants ignored.
  equivalent: "Ignored",
  ignored: "Ignored",
};

interface Location {
  readonly start: { readonly line: number; readonly column: number };
  readonly end: { readonly line: number; readonly column: number };
}

interface MutationTestingReport {
  readonly schemaVersion: "2";
  readonly thresholds: { readonly high: number; readonly low: number };
  readonly framework: { readonly name: string };
  readonly files: Record<string, { language: string; source: string; mutants: unknown[] }>;
  readonly testFiles: Record<string, { tests: { id: string; name: string }[] }>;
}

export function mutationTestingReport(files: readonly StrengthFile[]): MutationTestingReport {
  const out: MutationTestingReport = {
    schemaVersion: "2",
    thresholds: { high: 80, low: 60 },
    framework: { name: "toolsandbox strength" },
    files: {},
    testFiles: {},
  };
  for (const f of files) {
    const nodes = [...f.strength.mutants.flatMap((m) => m.killedBy)];
    const tests = [...new Set(nodes)].sort().map((id) => ({ id: `${f.file}#${id}`, name: id }));
    out.testFiles[f.file] = { tests };
    out.files[f.file] = {
      language: "yaml",
      source: f.src.text,
      mutants: f.strength.mutants.map((m, i) => ({
        id: `${f.file}#${i + 1}`,
        mutatorName: m.operator,
        replacement: m.change,
        location: location(f.src, m),
        status: STATUS[m.state as MutantState],
        ...(reason(m) === null ? {} : { statusReason: reason(m) }),
        ...(m.killedBy.length === 0 ? {} : { killedBy: m.killedBy.map((id) => `${f.file}#${id}`) }),
      })),
    };
  }
  return out;
}

function reason(m: OutcomeLine): string | null {
  if (m.state === "equivalent") return `equivalent${m.note === null ? "" : `: ${m.note}`}`;
  if (m.state === "ignored") return "mutator not selected (--mutators)";
  const parts = [m.note, m.node === null ? null : `${m.node} should decide it`, m.fix === null ? null : `fix: ${m.fix}`].filter(
    (x) => x !== null,
  );
  return parts.length === 0 ? null : parts.join("; ");
}

function location(src: YamlSource, m: OutcomeLine): Location {
  const range = src.rangeAt(["reference", m.step]);
  return {
    start: { line: range.start.line + 1, column: range.start.character + 1 },
    end: { line: range.end.line + 1, column: range.end.character + 1 },
  };
}

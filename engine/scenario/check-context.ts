// What every semantic check needs: where to report, the scenario clock for time expressions, the
// scenario name (ids of added rows derive from it) and the world pack its tables and tools come from.
import type { Diagnostic, Severity } from "../base/diagnostics.js";
import type { WorldPack } from "../packs/types.js";
import type { PromptSet } from "./prompts/prompt-set.js";
import type { ScenarioClock } from "../world/clock.js";
import type { Anchor, Path, YamlSource } from "./yaml-source.js";

interface ReportOptions {
  readonly anchor?: Anchor;
  readonly severity?: Severity;
  readonly data?: Diagnostic["data"];
}

export class Reporter {
  readonly diagnostics: Diagnostic[] = [];

  constructor(readonly src: YamlSource) {}

  report(path: Path, code: string, message: string, options: ReportOptions = {}): void {
    const range = this.src.rangeOf(path, options.anchor ?? "value");
    this.diagnostics.push(this.src.diagnostic(range, options.severity ?? "error", code, message, options.data));
  }

  add(diagnostics: readonly Diagnostic[]): void {
    this.diagnostics.push(...diagnostics);
  }

  get errorCount(): number {
    return this.diagnostics.filter((d) => d.severity === "error").length;
  }
}

export interface CheckContext {
  readonly reporter: Reporter;
  readonly clock: ScenarioClock;
  readonly scenarioName: string;
  readonly pack: WorldPack;
  /** The prompt set in use (the scenario's `prompts:` file, or `run --prompts`), read by the loader. */
  readonly prompts: PromptSet | null;
}

// Loading a scenario file from disk: the text goes through checkScenarioText, and a file that
// cannot be read becomes a diagnostic too, so callers (CLI, suites) handle one kind of result.
// The scenario's prompt set (`prompts:`, or `run --prompts`) is read here too: the pure checker
// reads no files.
import { readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import type { Diagnostic } from "../base/diagnostics.js";
import { parsePromptSet, PromptSetError } from "./prompts/prompt-set.js";
import { readScenarioFileText, type ScenarioFileText } from "./file-text.js";
import { obj, str } from "./raw.js";
import { checkScenarioSource, checkScenarioText, type CheckResult, type PromptSetInput } from "./resolve.js";
import { YamlSource } from "./yaml-source.js";

export { checkScenarioText };

export interface LoadOptions {
  /** A prompt set file to use instead of the scenario's own `prompts:` (`run --prompts`). */
  readonly prompts?: string;
}

export function loadScenarioFile(path: string, options: LoadOptions = {}): CheckResult {
  let read: ScenarioFileText;
  try {
    read = readScenarioFileText(path);
  } catch (err) {
    return { scenario: null, diagnostics: [unreadable(path, err)] };
  }
  return checkFileText(read, path, options);
}

/** The check of a file's text, with what reading it found (an encoding error, a size past the limit). */
export function checkFileText(read: ScenarioFileText, path: string, options: LoadOptions = {}): CheckResult {
  if (!read.ok) return { scenario: null, diagnostics: [read.diagnostic] };
  const result = checkScenarioFileText(read.text, path, options);
  if (read.encoding === null) return result;
  return { scenario: null, diagnostics: [read.encoding, ...result.diagnostics] };
}

/**
 * checkScenarioText for a scenario that lives at `path`: its `prompts:` file (or the one given)
 * is read from beside it and applied.
 */
export function checkScenarioFileText(text: string, path: string, options: LoadOptions = {}): CheckResult {
  return checkScenarioFileSource(new YamlSource(text, path), options);
}

/** checkScenarioFileText for text already parsed (the language server and its worker parse once). */
export function checkScenarioFileSource(src: YamlSource, options: LoadOptions = {}): CheckResult {
  const own = str(obj(src.value)?.prompts);
  const file = options.prompts ?? (own === null ? null : resolve(dirname(src.file), own));
  const prompts = file === null ? undefined : { ...readPromptSet(file), ...(options.prompts === undefined ? {} : { fromOption: true }) };
  return checkScenarioSource(src, prompts === undefined ? {} : { prompts });
}

/** A prompt set file read and checked; a problem becomes the reason it cannot be used. */
function readPromptSet(file: string): PromptSetInput {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (err) {
    return { error: `${file}: ${reasonOf(err)}` };
  }
  try {
    return { set: parsePromptSet(text) };
  } catch (e) {
    if (e instanceof PromptSetError) return { error: `${file}: ${e.message}` };
    throw e;
  }
}

function reasonOf(err: unknown): string {
  const code = typeof err === "object" && err !== null && "code" in err ? String(err.code) : "";
  return code === "ENOENT"
    ? "no such file"
    : code === "EACCES" || code === "EPERM"
      ? "permission denied"
      : code === "EISDIR"
        ? "it is a directory"
        : err instanceof Error
          ? err.message
          : String(err);
}

function unreadable(path: string, err: unknown): Diagnostic {
  const code = typeof err === "object" && err !== null && "code" in err ? String(err.code) : "";
  return {
    file: path,
    range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } },
    offset: [0, 0],
    severity: "error",
    code: code === "ENOENT" ? "file-not-found" : "file-unreadable",
    message: `Cannot read the scenario file: ${reasonOf(err)}.`,
  };
}

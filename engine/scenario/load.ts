// Loading a scenario file from disk: the text goes through checkScenarioText, and a file that
// cannot be read becomes a diagnostic too, so callers (CLI, suites) handle one kind of result.
import type { Diagnostic } from "../diagnostics.js";
import { readScenarioFileText, type ScenarioFileText } from "./file-text.js";
import { checkScenarioText, type CheckResult } from "./resolve.js";

export { checkScenarioText, type CheckResult };

export function loadScenarioFile(path: string): CheckResult {
  let read;
  try {
    read = readScenarioFileText(path);
  } catch (err) {
    return { scenario: null, diagnostics: [unreadable(path, err)] };
  }
  return checkFileText(read, path);
}

/** The check of a file's text, with what reading it found (an encoding error, a size past the limit). */
export function checkFileText(read: ScenarioFileText, path: string): CheckResult {
  if (!read.ok) return { scenario: null, diagnostics: [read.diagnostic] };
  const result = checkScenarioText(read.text, path);
  if (read.encoding === null) return result;
  return { scenario: null, diagnostics: [read.encoding, ...result.diagnostics] };
}

function unreadable(path: string, err: unknown): Diagnostic {
  const code = typeof err === "object" && err !== null && "code" in err ? String(err.code) : "";
  const reason =
    code === "ENOENT"
      ? "no such file"
      : code === "EACCES" || code === "EPERM"
        ? "permission denied"
        : code === "EISDIR"
          ? "it is a directory"
          : err instanceof Error
            ? err.message
            : String(err);
  return {
    file: path,
    range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } },
    offset: [0, 0],
    severity: "error",
    code: code === "ENOENT" ? "file-not-found" : "file-unreadable",
    message: `Cannot read the scenario file: ${reason}.`,
  };
}

// Loading a scenario file from disk: the text goes through checkScenarioText, and a file that
// cannot be read becomes a diagnostic too, so callers (CLI, suites) handle one kind of result.
import { readFileSync } from "node:fs";
import type { Diagnostic } from "../diagnostics.js";
import { checkScenarioText, type CheckResult } from "./resolve.js";

export { checkScenarioText, type CheckResult };

export function loadScenarioFile(path: string): CheckResult {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (err) {
    return { scenario: null, diagnostics: [unreadable(path, err)] };
  }
  return checkScenarioText(text, path);
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

// Reads *.trajectory.jsonl files. Every line is parsed and checked against the trajectory schema
// before it is used. A last line that is not valid JSON is what a killed run leaves behind: it is
// dropped with a warning. Anything wrong earlier in the file is an error naming its line.
import { readFileSync, statSync } from "node:fs";
import type { TrajectoryHeader } from "../episode/types.js";
import { isJsonObject } from "../base/json.js";
import { grouped, limitValue, overLimitMessage } from "../base/limits.js";
import { TrajectoryError, type TrajectoryWarning } from "./errors.js";
import { checkEvent, checkHeader } from "./schema.js";
import { EventOrderError, type Trajectory, TrajectoryBuilder } from "./trajectory.js";

const FORMAT = "toolsandbox-trajectory";
const VERSION = 1;

/**
 * Reads and checks a file. File system errors (missing, unreadable) are thrown as they are; a file
 * past the size limit (docs/limits.md) is a TrajectoryError, before it is read.
 */
export function readTrajectoryFile(path: string): Trajectory {
  const size = statSync(path).size;
  if (size > limitValue("trajectoryBytes"))
    throw new TrajectoryError(path, null, overLimitMessage("trajectoryBytes", `the file is ${grouped(size)} bytes`));
  return parseTrajectory(readFileSync(path, "utf8"), path);
}

/** Parses the text of a trajectory file; `file` names it in errors and warnings. */
export function parseTrajectory(text: string, file: string): Trajectory {
  // A BOM that an editor put in front is not part of the header's JSON.
  const lines = splitLines(text.replace(/^\uFEFF/, ""));
  const maxMessages = limitValue("trajectoryMessages");
  let messages = 0;
  const warnings: TrajectoryWarning[] = [];
  const fail = (line: number, reason: string): never => {
    throw new TrajectoryError(file, line, reason);
  };

  // Parse first, so a bad JSON line can be told apart as "last line, cut short" or "corrupt".
  const values: { line: number; value: unknown }[] = [];
  for (const [i, raw] of lines.entries()) {
    const lineNo = i + 1;
    const parsed = parseJson(raw);
    if (parsed.ok) {
      if (isJsonObject(parsed.value) && parsed.value.type === "message" && ++messages > maxMessages) {
        fail(lineNo, overLimitMessage("trajectoryMessages", `more than ${grouped(maxMessages)} messages`));
      }
      values.push({ line: lineNo, value: parsed.value });
    } else if (i === lines.length - 1 && i > 0) {
      warnings.push({
        line: lineNo,
        message: `the last line is incomplete, so the run was cut short; read the ${values.length} complete lines before it`,
      });
    } else {
      fail(lineNo, raw.trim() === "" ? "empty line" : `invalid JSON (${parsed.error})`);
    }
  }

  const first = values[0];
  if (!first) throw new TrajectoryError(file, null, "the file is empty (no header line)");
  const builder = new TrajectoryBuilder(readHeader(first.value, (reason) => fail(first.line, reason)));
  for (const { line, value } of values.slice(1)) {
    const event = checkEvent(value);
    if (!event.ok) fail(line, event.error);
    else {
      try {
        builder.add(event.value);
      } catch (e) {
        if (e instanceof EventOrderError) fail(line, e.message);
        throw e;
      }
    }
  }
  const trajectory = builder.build(warnings);
  // One line per problem: a cut-short last line already says the run did not finish.
  if (!trajectory.end && warnings.length === 0) warnings.push({ line: null, message: "the run did not finish (there is no end event)" });
  return trajectory;
}

function readHeader(value: unknown, fail: (reason: string) => never): TrajectoryHeader {
  // Say plainly when this is not a trajectory at all, or one from another format version,
  // before the schema would list the first property it dislikes.
  if (!isJsonObject(value) || value.type !== "header") return fail("the first line is not a trajectory header");
  if (value.format !== FORMAT) return fail(`not a ToolSandbox trajectory (format ${JSON.stringify(value.format ?? null)})`);
  if (value.version !== VERSION) {
    return fail(
      `trajectory format version ${JSON.stringify(value.version ?? null)} is not supported (this build reads version ${VERSION})`,
    );
  }
  const header = checkHeader(value);
  return header.ok ? header.value : fail(`header: ${header.error}`);
}

/** Lines of the file; the newline that ends the last line does not start another one. */
function splitLines(text: string): string[] {
  if (text === "") return [];
  const lines = text.split("\n").map((l) => (l.endsWith("\r") ? l.slice(0, -1) : l));
  if (text.endsWith("\n")) lines.pop();
  return lines;
}

function parseJson(text: string): { ok: true; value: unknown } | { ok: false; error: string } {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (e) {
    return { ok: false, error: e instanceof Error ? e.message : String(e) };
  }
}

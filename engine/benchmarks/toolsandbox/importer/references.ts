// Reference solutions for imported ToolSandbox scenarios. Upstream ships none; ours are kept in
// `references/<upstream name>.yaml`, written for this project, and merged in at import so each
// imported scenario can be played and scored. A reference file holds `reference:` steps in the
// scenario format, plus one import-only step: `say_milestone: <milestone id>`, the agent saying
// the text a milestone expects of it, taken from the user's checkout at import (so upstream's
// wording is never stored here). `fill: {name: value}` fills the `{name}` placeholders of a
// tool_trace_extract target with the values the reference's own tool calls return.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { parse } from "yaml";
import type { JsonObject, JsonValue } from "../../../base/json.js";
import { isJsonObject } from "../../../base/json.js";

/** A reference file that cannot be read; the scenario is reported and the others are imported. */
export class ReferenceFileError extends Error {}

interface ReferenceFile {
  readonly steps: readonly JsonValue[];
  /** Why no honest reference can reach every milestone, when that is the case. */
  readonly finding: string | null;
}

/** The folder of reference files shipped with the package (beside this file, or beside dist/). */
export function referencesFolder(): string | null {
  const candidates = [join(__dirname, "references"), join(__dirname, "toolsandbox-importer", "references")];
  return candidates.find((dir) => existsSync(dir)) ?? null;
}

export function readReference(folder: string | null, name: string): ReferenceFile | null {
  if (folder === null) return null;
  const file = join(folder, `${name}.yaml`);
  if (!existsSync(file)) return null;
  let doc: unknown;
  try {
    doc = parse(readFileSync(file, "utf8")) as unknown;
  } catch (e) {
    throw new ReferenceFileError(`${file}: ${e instanceof Error ? e.message.split("\n")[0] : String(e)}`);
  }
  if (!isJsonObject(doc) || !Array.isArray(doc.reference))
    throw new ReferenceFileError(`${file}: expected a mapping with a \`reference\` list`);
  return { steps: doc.reference, finding: typeof doc.finding === "string" ? doc.finding : null };
}

/** Replaces each `say_milestone` step with the agent text that milestone's SANDBOX target expects. */
export function resolveReferenceSteps(
  steps: readonly JsonValue[],
  milestones: readonly JsonObject[],
): { steps: JsonValue[]; problems: string[] } {
  const problems: string[] = [];
  const resolved = steps.map((step): JsonValue => {
    if (!isJsonObject(step) || typeof step.say_milestone !== "string") return step;
    const id = step.say_milestone;
    const fill = isJsonObject(step.fill) ? step.fill : {};
    const template = agentTextOf(milestones.find((m) => m.id === id));
    const text =
      template === null
        ? null
        : template.replace(/\{(\w+)\}/g, (whole, key: string) => (typeof fill[key] === "string" ? fill[key] : whole));
    if (text === null || /\{\w+\}/.test(text)) {
      problems.push(
        `say_milestone ${id}: ${text === null ? "that milestone expects no agent text" : `no fill value for a placeholder of "${text}"`}`,
      );
      return { agent: "(no text)" };
    }
    return { agent: text };
  });
  return { steps: resolved, problems };
}

function agentTextOf(milestone: JsonObject | undefined): string | null {
  const constraints = Array.isArray(milestone?.constraints) ? milestone.constraints : [];
  for (const c of constraints) {
    if (!isJsonObject(c) || c.table !== "SANDBOX" || !Array.isArray(c.target)) continue;
    const row = c.target[0];
    if (isJsonObject(row) && row.sender === "agent" && typeof row.content === "string") return row.content;
  }
  return null;
}

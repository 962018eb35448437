// Shared helpers for the scenario checker tests: build a scenario from sections and look at what
// a diagnostic underlines (the text the author sees squiggled), not just its code.
import assert from "node:assert/strict";
import type { Diagnostic } from "../../engine/base/diagnostics.js";
import { checkScenarioText, type CheckResult } from "../../engine/scenario/resolve.js";

const DEFAULTS: Readonly<Record<string, string>> = {
  name: "name: test_scenario",
  user: "user:\n  goal: Get something done.\n  opening: Please do it.",
  reference: "reference:\n  - agent: Done.\n  - end_conversation: true",
};

const ORDER = [
  "name",
  "description",
  "categories",
  "clock",
  "world",
  "web",
  "tools",
  "agent",
  "user",
  "max_messages",
  "options",
  "milestones",
  "minefields",
  "reference",
];

/** A scenario text from top-level sections (each written with its key); name, user and reference have defaults. */
function scenarioText(sections: Readonly<Record<string, string>>): string {
  return `${ORDER.map((key) => sections[key] ?? DEFAULTS[key])
    .filter((s): s is string => s !== undefined)
    .join("\n")}\n`;
}

interface Checked extends CheckResult {
  readonly text: string;
}

export function check(sectionsOrText: Readonly<Record<string, string>> | string): Checked {
  const text = typeof sectionsOrText === "string" ? sectionsOrText : scenarioText(sectionsOrText);
  return { text, ...checkScenarioText(text, "test.scenario.yaml") };
}

/** The source text a diagnostic underlines. */
export function underlined(checked: Checked, d: Diagnostic): string {
  return checked.text.slice(d.offset[0], d.offset[1]);
}

/** The one diagnostic of the result (fails listing them all when there are more or none). */
export function single(checked: Checked): Diagnostic {
  assert.equal(checked.diagnostics.length, 1, describe(checked));
  return checked.diagnostics[0]!;
}

/** Asserts exactly one diagnostic, with this code, underlining this text; returns it for more checks. */
export function expectOne(checked: Checked, code: string, text: string): Diagnostic {
  const d = single(checked);
  assert.equal(d.code, code, describe(checked));
  assert.equal(underlined(checked, d), text);
  return d;
}

export function expectClean(checked: Checked): NonNullable<CheckResult["scenario"]> {
  assert.deepEqual(checked.diagnostics, [], describe(checked));
  assert.ok(checked.scenario);
  return checked.scenario;
}

export function describe(checked: Checked): string {
  return checked.diagnostics
    .map((d) => `${d.range.start.line + 1}:${d.range.start.character + 1} ${d.code} [${underlined(checked, d)}] ${d.message}`)
    .join("\n");
}

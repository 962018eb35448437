// The scenario "New Scenario" starts from: the language server's skeleton snippet (a minimal valid
// scenario, two spaces per level like every sample), named after the file, and the checks on the
// name typed. Pure, so the template is validated by the engine's own checker in the tests.
import { SKELETON_SNIPPET, snippetToText } from "../../server/service/snippets.js";

const NAME = /^[a-z0-9_]+$/;

/** Why `name` cannot name a new scenario (the schema's pattern), or null. */
export function scenarioNameProblem(name: string): string | null {
  if (name === "") return "A name: lower-case letters, digits and underscores, such as find_contact.";
  return NAME.test(name) ? null : "Lower-case letters, digits and underscores only (the scenario's `name`).";
}

/** The skeleton as a snippet, with `name` as its first placeholder's default. */
export function scenarioSnippet(name: string): string {
  return SKELETON_SNIPPET.body.replace("${1:my_scenario}", `\${1:${name}}`);
}

/** The skeleton as plain text (what the file holds once every placeholder keeps its default). */
export function scenarioText(name: string): string {
  return snippetToText(scenarioSnippet(name));
}

export const scenarioFileName = (name: string): string => `${name}.scenario.yaml`;

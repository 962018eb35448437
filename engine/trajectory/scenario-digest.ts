// The digest of a resolved scenario: what tells runs of an edited scenario from runs of the
// original when both carry one name. It is taken over the scenario as the header embeds it, with
// object keys sorted, so the same scenario always gives the same digest whatever the key order.
// The runner writes it into the header (`scenario_digest`); files written before that have none,
// and their digest is computed from the embedded scenario, which gives the same value.
import { createHash } from "node:crypto";
import type { TrajectoryHeader } from "../episode/types.js";
import type { Scenario } from "../scenario/model.js";

/** The digest of the scenario a run played: the header's own, or computed for a file that has none. */
export function headerScenarioDigest(header: Pick<TrajectoryHeader, "scenario" | "scenario_digest">): string {
  return header.scenario_digest ?? scenarioDigest(header.scenario);
}

/** "sha256:" and the first 16 hex digits of the SHA-256 of the scenario's canonical JSON. */
export function scenarioDigest(scenario: Scenario): string {
  return `sha256:${createHash("sha256").update(canonicalJson(scenario)).digest("hex").slice(0, 16)}`;
}

function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(",")}}`;
  }
  return JSON.stringify(value);
}

// The authoring check `validate` makes after the scenario checker: the reference solution is
// played by the scripted roles and scored like any run. A reference is the author's own answer,
// so it should score 1.0; when it does not, either a milestone or the reference is wrong, and the
// finding goes on the line of the node's `id`.
//
//   reference-misses-milestone (error)   a milestone the reference never reaches (similarity 0)
//   reference-partial-milestone (warning) reached only partly (0 < similarity < 1), e.g. an answer
//                                          text worded differently from the milestone's target
//   reference-hits-minefield (error)     the reference steps on one of the scenario's minefields
//   reference-run-failed (error)         the engine failed playing or scoring it, or it scores 0
//                                          for an upstream-style crash
import type { Diagnostic, Severity } from "../base/diagnostics.js";
import { Episode } from "../episode/episode.js";
import { createScriptedRoles } from "../roles/scripted.js";
import type { Scenario } from "../scenario/model.js";
import { list, obj, str } from "../scenario/raw.js";
import type { Path, YamlSource } from "../scenario/yaml-source.js";
import { evaluate } from "./evaluate.js";
import { formatScore, nodeWhy } from "./highlights.js";
import type { EvaluationResult, NodeResult } from "./result.js";

/** The seed of the reference run; `toolsandbox run` defaults to the same. */
export const REFERENCE_SEED = 0;

/** Plays the reference and scores it; the scenario must be the checked result of `src`. */
export async function checkReferenceScore(scenario: Scenario, src: YamlSource): Promise<Diagnostic[]> {
  let result: EvaluationResult;
  try {
    result = await scoreReference(scenario);
  } catch (e) {
    const reason = e instanceof Error ? e.message : String(e);
    return [
      src.diagnostic(
        src.rangeOf(["reference"]),
        "error",
        "reference-run-failed",
        `The reference solution could not be played and scored: ${reason}.`,
      ),
    ];
  }
  return referenceFindings(result, src);
}

/**
 * The findings of a reference run already played and scored (the editor's strength plays the
 * reference first and hands its score here, so the reference is played once per scoring).
 */
export function referenceFindings(result: EvaluationResult, src: YamlSource): Diagnostic[] {
  const report = (path: Path, severity: Severity, code: string, message: string): Diagnostic =>
    src.diagnostic(src.rangeOf(path), severity, code, message);
  const out: Diagnostic[] = [];
  if (result.zero_reason !== null && result.minefields.every((m) => m.matched_at === null)) {
    out.push(report(["reference"], "error", "reference-run-failed", `The reference solution scores 0: ${result.zero_reason}.`));
  }
  result.milestones.forEach((node) => {
    const path = nodeFieldPath(src, "milestones", node.id) ?? ["milestones"];
    if (node.matched_at === null) {
      out.push(
        report(
          path,
          "error",
          "reference-misses-milestone",
          `The reference solution never reaches this milestone (${nodeWhy(node, "milestone")}).`,
        ),
      );
    } else if (node.similarity < 1) {
      out.push(report(path, "warning", "reference-partial-milestone", partialMessage(node)));
    }
  });
  for (const node of result.minefields) {
    if (node.matched_at === null) continue;
    const path = nodeFieldPath(src, "minefields", node.id) ?? ["minefields"];
    out.push(
      report(
        path,
        "error",
        "reference-hits-minefield",
        `The reference solution steps on this minefield at message ${node.matched_at} (similarity ${formatScore(node.similarity)}).`,
      ),
    );
  }
  return out;
}

/**
 * The scripted roles play the reference and the finished episode is scored, however it ended: a
 * reference that stops where the agent would speak (the checker's `reference-incomplete`
 * warning) ends the episode early, and what it did is still worth scoring.
 */
export async function scoreReference(scenario: Scenario): Promise<EvaluationResult> {
  const { agent, user } = createScriptedRoles(scenario);
  const episode = new Episode({ scenario, agent, user, seed: REFERENCE_SEED });
  await episode.run();
  return evaluate(scenario, episode.messages, (i) => episode.world.at(i), episode.firstUserIndex, {
    endReason: episode.ended?.reason ?? null,
  });
}

function partialMessage(node: NodeResult): string {
  return `The reference solution reaches this milestone only partly: ${formatScore(node.similarity)} at message ${node.matched_at} (${nodeWhy(node, "milestone")}).`;
}

/**
 * The path of a node's `id` (or its `after`) in the file, where a finding about the node goes (the
 * nodes of a checked scenario are in file order); null when `section` lists no node `id`. The
 * strength findings (strength/strength-findings.ts) place theirs by it too.
 */
export function nodeFieldPath(
  src: YamlSource,
  section: "milestones" | "minefields",
  id: string,
  field: "id" | "after" = "id",
): Path | null {
  const position = list(obj(src.value)?.[section]).findIndex((node) => str(obj(node)?.id) === id);
  return position < 0 ? null : [section, position, field];
}

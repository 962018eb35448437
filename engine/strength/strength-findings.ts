// A scenario's strength as the editor and the CLI say it: the one-line verdict (the CLI's line per
// scenario and the CodeLens on `milestones:`), and each survivor and refused variant as a finding on
// the line that should have decided it: the milestone or minefield blamed, the milestone at the
// end of a blamed `after` edge, or else the reference step the mutant changed.
import type { Diagnostic } from "../base/diagnostics.js";
import { plural } from "../base/text.js";
import { nodeFieldPath } from "../evaluation/reference-check.js";
import type { Path, YamlSource } from "../scenario/yaml-source.js";
import type { OutcomeLine, ScenarioStrength } from "./strength.js";
import type { SurvivorRef } from "./survivor-run.js";

/** A score as a whole percentage; "-" when there is none. */
export const percent = (x: number | null): string => (x === null ? "-" : `${Math.round(x * 100)}%`);

/** The one-line verdict per scenario: "strength 7/9 (78%) · 2 wrong agents pass · 0 right agents refused". */
export function strengthLine(s: ScenarioStrength): string {
  if (s.error !== null) return `strength not measured: ${s.error}`;
  const undetected = s.counts.survived + s.counts["no-coverage"];
  const parts = [
    `strength ${s.detected}/${s.valid}${s.valid > 0 ? ` (${percent(s.score)})` : ""}`,
    `${plural(undetected, "wrong agent")} ${undetected === 1 ? "passes" : "pass"}`,
    `${plural(s.refused, "right agent")} refused`,
  ];
  const extra = [
    s.counts.equivalent > 0 ? `${s.counts.equivalent} equivalent` : null,
    s.counts["runtime-error"] > 0 ? `${s.counts["runtime-error"]} not playable` : null,
    s.counts.ignored > 0 ? `${s.counts.ignored} ignored` : null,
  ].filter((x) => x !== null);
  return `${parts.join(" · ")}${extra.length > 0 ? ` (${extra.join(", ")})` : ""}`;
}

/** One survivor or refusal: the state, the operator, what changed, the score, who decides, the fix. */
export function outcomeText(l: OutcomeLine): string {
  const call = l.call === null ? "" : `${l.call.tool}${l.call.argument === null ? "" : `.${l.call.argument}`}: `;
  const score = l.score === null ? "" : `; scores ${l.score.toFixed(2)}`;
  const node =
    l.node === null
      ? l.kind === "mutant"
        ? "; no milestone decides it"
        : ""
      : l.kind === "mutant"
        ? `; ${l.node} should decide it`
        : `; refused by ${l.node}`;
  const fix = l.fix === null ? "" : `; fix: ${l.fix}`;
  return `${l.state} ${l.operator}: ${call}${l.change}${score}${node}${fix}`;
}

/** The survivors (survived and no-coverage mutants) and the refused variants, in report order. */
export function undecidedOutcomes(s: ScenarioStrength): OutcomeLine[] {
  return [
    ...s.mutants.filter((l) => l.state === "survived" || l.state === "no-coverage"),
    ...s.variants.filter((l) => l.state === "refused"),
  ];
}

/** Where a finding about `l` goes in the file. */
function outcomePath(src: YamlSource, l: OutcomeLine): Path {
  const edge = l.node === null ? null : /^(\S+) -> (\S+)$/.exec(l.node);
  const nodeId = edge ? edge[2]! : l.node;
  if (nodeId !== null) {
    for (const section of ["milestones", "minefields"] as const) {
      const path = nodeFieldPath(src, section, nodeId, edge ? "after" : "id");
      if (path !== null) return path;
    }
  }
  return ["reference", l.step];
}

/**
 * The findings per survivor and per refused variant, for the language server: a warning
 * `strength-survivor` ("a wrong agent passes": the scenario would score a wrong agent as right) and
 * a note `strength-refused-variant` ("a right agent fails": often a reworded reply under rouge_l,
 * which the author may accept).
 */
export function strengthDiagnostics(s: ScenarioStrength, src: YamlSource): Diagnostic[] {
  return undecidedOutcomes(s).map((l) => {
    // The edit a quick fix makes, where the fix is correct by construction (blame.ts).
    const edit = l.edit === null ? undefined : { ...l.edit };
    // A survivor also says which mutant it is, so the editor can play it again as a run (survivor-run.ts).
    const survivor: SurvivorRef | null =
      l.kind === "mutant" ? { mutant: s.mutants.indexOf(l), operator: l.operator, step: l.step, change: l.change } : null;
    const [severity, code, words] =
      survivor === null
        ? (["info", "strength-refused-variant", "A right agent fails"] as const)
        : (["warning", "strength-survivor", "A wrong agent passes"] as const);
    const data = survivor === null ? edit : { ...edit, ...survivor };
    return src.diagnostic(src.rangeOf(outcomePath(src, l)), severity, code, `${words}: ${outcomeText(l)}.`, data);
  });
}

// The judge's answer, read as the rubric asks: one JSON object (answerObject, which accepts a
// Markdown fence around it) with a score (an integer from 1 to 5) and a reason per criterion. The
// answer comes from a model, so anything else is a failure described in one line, never an exception.
import { isJsonObject } from "../../../base/json.js";
import { answerObject, quotedAnswer, type VerdictReading } from "../../../roles/openai/model-verdict.js";
import type { CriterionScore } from "../../../trajectory/events.js";
import { ROLE_PLAY_CRITERIA } from "./rubric.js";

/** The judge's reading of the rubric's criteria and their mean. */
interface RolePlayVerdict {
  readonly criteria: readonly CriterionScore[];
  readonly overall: number;
}

export function readVerdict(content: string | null): VerdictReading<RolePlayVerdict> {
  const fail = (problem: string): VerdictReading<RolePlayVerdict> => ({ ok: false, problem });
  const answer = answerObject(content, "judge");
  if (!answer.ok) return answer;
  const parsed = answer.verdict;
  const criteria: CriterionScore[] = [];
  for (const { id } of ROLE_PLAY_CRITERIA) {
    const entry = parsed[id];
    if (entry === undefined) return fail(`the judge's answer has no "${id}"`);
    if (!isJsonObject(entry)) return fail(`the judge's "${id}" is not an object with a score and a reason`);
    const { score, reason } = entry;
    if (typeof score !== "number" || !Number.isInteger(score) || score < 1 || score > 5) {
      return fail(`the judge's "${id}" score is ${quotedAnswer(JSON.stringify(score ?? null))}, not a whole number from 1 to 5`);
    }
    if (typeof reason !== "string") return fail(`the judge's "${id}" has no reason`);
    criteria.push({ id, score, reason });
  }
  const mean = criteria.reduce((sum, c) => sum + c.score, 0) / criteria.length;
  // Two decimals: the same scores always give the same bytes.
  return { ok: true, verdict: { criteria, overall: Math.round(mean * 100) / 100 } };
}

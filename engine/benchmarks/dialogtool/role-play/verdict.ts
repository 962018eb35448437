// The judge's answer, read as the rubric asks: one JSON object with a score (an integer from 1 to
// 5) and a reason per criterion. The answer comes from a model, so anything else is a failure
// described in one line, never an exception. A JSON object wrapped in a Markdown code fence, as
// chat models often write it, is accepted.
import { isJsonObject } from "../../../base/json.js";
import type { CriterionScore } from "../../../trajectory/events.js";
import { ROLE_PLAY_CRITERIA } from "./rubric.js";

type Verdict =
  | { readonly ok: true; readonly criteria: readonly CriterionScore[]; readonly overall: number }
  | { readonly ok: false; readonly problem: string };

const MAX_QUOTED = 80;

export function readVerdict(content: string | null): Verdict {
  const fail = (problem: string): Verdict => ({ ok: false, problem });
  if (content === null || content.trim() === "") return fail("the judge answered with no text");
  const text = unfenced(content.trim());
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return fail(`the judge's answer is not JSON: ${quoted(text)}`);
  }
  if (!isJsonObject(parsed)) return fail(`the judge's answer is not a JSON object: ${quoted(text)}`);
  const criteria: CriterionScore[] = [];
  for (const { id } of ROLE_PLAY_CRITERIA) {
    const entry = parsed[id];
    if (entry === undefined) return fail(`the judge's answer has no "${id}"`);
    if (!isJsonObject(entry)) return fail(`the judge's "${id}" is not an object with a score and a reason`);
    const { score, reason } = entry;
    if (typeof score !== "number" || !Number.isInteger(score) || score < 1 || score > 5) {
      return fail(`the judge's "${id}" score is ${quoted(JSON.stringify(score ?? null))}, not a whole number from 1 to 5`);
    }
    if (typeof reason !== "string") return fail(`the judge's "${id}" has no reason`);
    criteria.push({ id, score, reason });
  }
  const mean = criteria.reduce((sum, c) => sum + c.score, 0) / criteria.length;
  // Two decimals: the same scores always give the same bytes.
  return { ok: true, criteria, overall: Math.round(mean * 100) / 100 };
}

/** The inside of a ```json ... ``` fence around the whole answer; the text itself otherwise. */
function unfenced(text: string): string {
  const fence = /^```[a-zA-Z]*\s*\n([\s\S]*?)\n?```$/.exec(text);
  return fence ? fence[1]!.trim() : text;
}

function quoted(text: string): string {
  const flat = text.replace(/\s+/g, " ");
  return JSON.stringify(flat.length > MAX_QUOTED ? `${flat.slice(0, MAX_QUOTED)}...` : flat);
}

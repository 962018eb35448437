// The judgement line at the panel's boundary (the role-play judge's verdict), checked field by
// field against schemas/trajectory.schema.json and projected onto what the panel shows: the
// judge, each criterion's score and reason, the overall score or the failure. Reasons are model
// text; the view only ever sets them as text.
import type { PanelJudgement } from "../../../engine/panel/protocol.js";
import type { CriterionScore } from "../../../engine/trajectory/events.js";
import { finite, list, nullable, prop, record, str, WireError, type Reader } from "./check.js";

export function judgementLine(o: Readonly<Record<string, unknown>>, path: string): PanelJudgement {
  const failure = prop(o, "failure");
  return {
    type: "judgement",
    judge: str(prop(o, "judge"), `${path}/judge`),
    criteria: list(criterion)(prop(o, "criteria"), `${path}/criteria`),
    overall: nullable(score(1, 5, false))(prop(o, "overall"), `${path}/overall`),
    ...(failure === undefined ? {} : { failure: str(failure, `${path}/failure`) }),
  };
}

const criterion: Reader<CriterionScore> = (value, path) => {
  const o = record(value, path);
  return {
    id: str(prop(o, "id"), `${path}/id`),
    score: score(1, 5, true)(prop(o, "score"), `${path}/score`),
    reason: str(prop(o, "reason"), `${path}/reason`),
  };
};

function score(min: number, max: number, integer: boolean): Reader<number> {
  return (value, path) => {
    const n = finite(value, path);
    if (n < min || n > max || (integer && !Number.isInteger(n)))
      throw new WireError(path, `must be ${integer ? "a whole number" : "a number"} from ${min} to ${max}`);
    return n;
  };
}

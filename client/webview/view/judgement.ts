// The role-play judge's verdict under the run's scores: who judged, the overall score, and one row
// per criterion with its score and the judge's reason, or the one line saying why there is no
// verdict. The reasons are model text: set as text nodes only, never parsed as HTML.
import type { PanelJudgement } from "../../../engine/panel/protocol.js";
import { el } from "./dom.js";

export function judgementSection(judgement: PanelJudgement | null): HTMLElement | null {
  if (judgement === null) return null;
  // The judge's id is a model name: shown as written, not in the label's capitals.
  const heading = el(
    "div",
    { class: "judgement-title" },
    el("span", { class: "stat-label", text: "role play" }),
    el("span", { class: "judgement-judge", text: `judged by ${judgement.judge}` }),
  );
  if (judgement.overall === null || judgement.failure !== undefined) {
    return el(
      "section",
      { class: "judgement failed", attrs: { "aria-label": "Role-play verdict", "data-testid": "judgement" } },
      heading,
      el("div", {
        class: "judgement-failure",
        text: `No verdict: ${judgement.failure ?? "no scores"}`,
        attrs: { "data-testid": "judgement-failure" },
      }),
    );
  }
  heading.append(
    el("span", { class: "judgement-overall", text: `${judgement.overall.toFixed(2)} of 5`, attrs: { "data-testid": "judgement-overall" } }),
  );
  return el(
    "section",
    { class: "judgement", attrs: { "aria-label": "Role-play verdict", "data-testid": "judgement" } },
    heading,
    el(
      "table",
      { class: "judgement-criteria" },
      el(
        "tbody",
        {},
        ...judgement.criteria.map((c) =>
          el(
            "tr",
            { attrs: { "data-criterion": c.id } },
            el("th", { text: c.id.replace(/_/g, " "), attrs: { scope: "row" } }),
            el("td", { class: `judgement-score score-${c.score}`, text: `${c.score}/5` }),
            el("td", { class: "judgement-reason", text: c.reason }),
          ),
        ),
      ),
    ),
  );
}

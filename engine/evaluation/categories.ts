// Mean score and mean turn count per category, as upstream's CLI aggregates a run (reference
// 5.10, 1.10) and the paper tabulates it: every scenario counts once in each of its category
// tags, scenario categories and tool augmentations alike, plus once in ALL_CATEGORIES. As
// upstream, a scrambled variant (a copy of the 3-distraction-tools variant) is not counted under
// THREE_DISTRACTION_TOOLS, so that column holds only the unscrambled variants.
// Each row carries a 95% percentile-bootstrap interval of its mean score over its scenarios
// (statistics/intervals.ts), seeded so the same scores always give the same interval.
import { CATEGORIES, type Category } from "../scenario/model.js";
import { scenarioMeanInterval, type Interval } from "./statistics/intervals.js";

export const ALL_CATEGORIES = "ALL_CATEGORIES";

const SCRAMBLED_CATEGORIES: readonly Category[] = [
  "TOOL_NAME_SCRAMBLED",
  "TOOL_DESCRIPTION_SCRAMBLED",
  "ARG_DESCRIPTION_SCRAMBLED",
  "ARG_TYPE_SCRAMBLED",
];

/** The tags upstream's augmentation adds to the variants of each scenario (reference 1.10). */
export const AUGMENTATION_CATEGORIES: readonly Category[] = [
  "NO_DISTRACTION_TOOLS",
  "THREE_DISTRACTION_TOOLS",
  "TEN_DISTRACTION_TOOLS",
  "ALL_TOOLS_AVAILABLE",
  ...SCRAMBLED_CATEGORIES,
];

export interface ScoredScenario {
  readonly categories: readonly Category[];
  readonly score: number;
  readonly turn_count: number;
}

export interface CategoryRow {
  readonly category: Category | typeof ALL_CATEGORIES;
  /** "scenario" categories (what a scenario tests), tool "augmentation" tags, or "all". */
  readonly group: "scenario" | "augmentation" | "all";
  readonly scenarios: number;
  readonly score: number;
  /** 95% bootstrap interval of the mean score over the row's scenarios. */
  readonly interval: Interval | null;
  readonly turn_count: number;
}

/** The tags a scenario is counted under (upstream's rule for scrambled variants applied). */
export function countedCategories(categories: readonly Category[]): Category[] {
  const scrambled = categories.some((c) => SCRAMBLED_CATEGORIES.includes(c));
  return [...new Set(categories)].filter((c) => !(scrambled && c === "THREE_DISTRACTION_TOOLS"));
}

/**
 * One row per category that has a scenario, scenario categories first, then augmentations, in
 * the order of CATEGORIES; then ALL_CATEGORIES (absent when there are no scenarios).
 */
export function aggregateByCategory(results: readonly ScoredScenario[]): CategoryRow[] {
  const members = new Map<Category, ScoredScenario[]>();
  for (const r of results) {
    for (const c of countedCategories(r.categories)) {
      const list = members.get(c) ?? [];
      list.push(r);
      members.set(c, list);
    }
  }
  const row = (category: Category, group: CategoryRow["group"]): CategoryRow[] => {
    const rows = members.get(category);
    return rows ? [meansRow(category, group, rows)] : [];
  };
  const scenarioRows = CATEGORIES.filter((c) => !AUGMENTATION_CATEGORIES.includes(c)).flatMap((c) => row(c, "scenario"));
  const augmentationRows = CATEGORIES.filter((c) => AUGMENTATION_CATEGORIES.includes(c)).flatMap((c) => row(c, "augmentation"));
  const all = results.length === 0 ? [] : [meansRow(ALL_CATEGORIES, "all", results)];
  return [...scenarioRows, ...augmentationRows, ...all];
}

function meansRow(category: CategoryRow["category"], group: CategoryRow["group"], rows: readonly ScoredScenario[]): CategoryRow {
  const scores = rows.map((r) => r.score);
  return {
    category,
    group,
    scenarios: rows.length,
    score: scores.reduce((a, b) => a + b, 0) / rows.length,
    interval: scenarioMeanInterval(scores),
    turn_count: rows.reduce((n, r) => n + r.turn_count, 0) / rows.length,
  };
}

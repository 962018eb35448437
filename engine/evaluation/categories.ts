// Mean score and mean turn count per category, as upstream's CLI aggregates a run (reference
// 5.10, 1.10) and the paper tabulates it: every scenario counts once in each of its category
// tags, scenario categories and tool augmentations alike, plus once in ALL_CATEGORIES. As
// upstream, a scrambled variant (a copy of the 3-distraction-tools variant) is not counted under
// THREE_DISTRACTION_TOOLS, so that column holds only the unscrambled variants.
import { CATEGORIES, type Category } from "../scenario/model.js";

export const ALL_CATEGORIES = "ALL_CATEGORIES";

export const SCRAMBLED_CATEGORIES: readonly Category[] = [
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
  const sums = new Map<Category, { n: number; score: number; turns: number }>();
  for (const r of results) {
    for (const c of countedCategories(r.categories)) {
      const s = sums.get(c) ?? { n: 0, score: 0, turns: 0 };
      sums.set(c, { n: s.n + 1, score: s.score + r.score, turns: s.turns + r.turn_count });
    }
  }
  const row = (category: Category, group: CategoryRow["group"]): CategoryRow[] => {
    const s = sums.get(category);
    return s ? [{ category, group, scenarios: s.n, score: s.score / s.n, turn_count: s.turns / s.n }] : [];
  };
  const scenarioRows = CATEGORIES.filter((c) => !AUGMENTATION_CATEGORIES.includes(c)).flatMap((c) => row(c, "scenario"));
  const augmentationRows = CATEGORIES.filter((c) => AUGMENTATION_CATEGORIES.includes(c)).flatMap((c) => row(c, "augmentation"));
  const all: CategoryRow[] =
    results.length === 0
      ? []
      : [
          {
            category: ALL_CATEGORIES,
            group: "all",
            scenarios: results.length,
            score: results.reduce((n, r) => n + r.score, 0) / results.length,
            turn_count: results.reduce((n, r) => n + r.turn_count, 0) / results.length,
          },
        ];
  return [...scenarioRows, ...augmentationRows, ...all];
}

// Upstream's tool augmentations (reference 1.10): every scenario is played as eight variants that
// differ only in which tools the agent is offered and how their schemas read. The ranking of
// distraction tools lives in distraction.ts, the schema scrambling in scrambling.ts.
import { AUGMENTATION_CATEGORIES, type Category, type Scenario, type ToolAugmentation } from "../model.js";
import { packById } from "../../packs/registry.js";
import { rankDistractionTools } from "./distraction.js";

export { rankDistractionTools } from "./distraction.js";

const AUGMENTATION_TAGS: readonly Category[] = AUGMENTATION_CATEGORIES;

/** The scrambled variants, in upstream's order, with the tag each adds. */
const SCRAMBLINGS: readonly { readonly augmentation: ToolAugmentation; readonly tag: Category }[] = [
  { augmentation: "tool_description_scrambled", tag: "TOOL_DESCRIPTION_SCRAMBLED" },
  { augmentation: "arg_type_scrambled", tag: "ARG_TYPE_SCRAMBLED" },
  { augmentation: "arg_description_scrambled", tag: "ARG_DESCRIPTION_SCRAMBLED" },
  { augmentation: "tool_name_scrambled", tag: "TOOL_NAME_SCRAMBLED" },
];

/** True when the scenario is itself a variant (it carries an augmentation tag or scrambling). */
function isAugmentedVariant(scenario: Scenario): boolean {
  return scenario.categories.some((c) => AUGMENTATION_TAGS.includes(c)) || (scenario.options.augmentations?.length ?? 0) > 0;
}

/**
 * The eight upstream variants of a scenario, named and tagged as upstream names them:
 * `<name>_3_distraction_tools` (THREE_DISTRACTION_TOOLS), `<name>_10_distraction_tools`
 * (TEN_DISTRACTION_TOOLS), `<name>_all_tools` (ALL_TOOLS_AVAILABLE), `<name>` itself
 * (NO_DISTRACTION_TOOLS), then copies of the 3-distraction variant with one scrambling each:
 * `..._tool_description_scrambled`, `..._arg_type_scrambled`, `..._arg_description_scrambled`,
 * `..._tool_name_scrambled`. The copies keep THREE_DISTRACTION_TOOLS, as upstream's do; the
 * category table leaves it out for them.
 *
 * Distraction tools join the allow list; the deny list still applies, so a denied distractor
 * is never offered (upstream quirk). A scenario that allows every tool has no distractors, and a
 * scenario that is already a variant is returned alone, so expanding twice changes nothing.
 */
export function expandAugmentations(scenario: Scenario): Scenario[] {
  if (isAugmentedVariant(scenario)) return [scenario];
  const allow = scenario.tools.allow;
  const ranked = allow === null ? [] : rankDistractionTools(packById(scenario.world.pack).tools, allow);
  const variant = (suffix: string, tag: Category, distractors: readonly string[]): Scenario => ({
    ...scenario,
    name: `${scenario.name}${suffix}`,
    categories: [...scenario.categories, tag],
    tools: { ...scenario.tools, allow: allow === null ? null : [...allow, ...distractors] },
  });
  const three = variant("_3_distraction_tools", "THREE_DISTRACTION_TOOLS", ranked.slice(0, 3));
  const scrambled = SCRAMBLINGS.map(({ augmentation, tag }) => ({
    ...three,
    name: `${three.name}_${augmentation}`,
    categories: [...three.categories, tag],
    options: { ...scenario.options, augmentations: [augmentation] },
  }));
  return [
    three,
    variant("_10_distraction_tools", "TEN_DISTRACTION_TOOLS", ranked.slice(0, 10)),
    variant("_all_tools", "ALL_TOOLS_AVAILABLE", ranked),
    variant("", "NO_DISTRACTION_TOOLS", []),
    ...scrambled,
  ];
}

// Distraction tools (reference 1.10, upstream rank_tools_by_similarity): the tools a scenario does
// not need, ranked by how easily an agent could mistake them for one it does need.
import { wRatioProcessed } from "../../tools/fuzzy/wratio.js";
import type { ToolDefinition } from "../../tools/types.js";

/** Upstream's allow lists always include the user's tool, so it takes part in the ranking. */
const ALWAYS_ALLOWED = "end_conversation";

/**
 * Every tool of `tools` (the scenario pack's, in the pack's order) outside `allowed`, best distraction first:
 * - section A: tools from the module of an allowed tool; section B: all others;
 * - within each section, descending by the best WRatio (rapidfuzz-style processing) between the
 *   tool's name and an allowed tool's name; ties keep the pack's order (the sort is
 *   stable, as upstream's).
 */
export function rankDistractionTools(tools: readonly ToolDefinition[], allowed: readonly string[]): string[] {
  const allowedNames = new Set([...allowed, ALWAYS_ALLOWED]);
  const allowedTools = tools.filter((t) => allowedNames.has(t.name));
  const modules = new Set(allowedTools.map((t) => t.module));
  const candidates = tools
    .filter((t) => !allowedNames.has(t.name))
    .map((tool) => ({
      name: tool.name,
      sameModule: modules.has(tool.module),
      score: Math.max(0, ...allowedTools.map((a) => wRatioProcessed(tool.name, a.name))),
    }));
  const bySimilarity = (section: typeof candidates): string[] =>
    section
      .map((c, position) => ({ ...c, position }))
      .sort((a, b) => b.score - a.score || a.position - b.position)
      .map((c) => c.name);
  return [...bySimilarity(candidates.filter((c) => c.sameModule)), ...bySimilarity(candidates.filter((c) => !c.sameModule))];
}

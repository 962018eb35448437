// Builds a tool's Google-style docstring from its summary, its parameters and its return text, so
// the `Args:` lines can never drift from the parameter descriptions the catalog shows. The layout
// is the one upstream's schema converter (openai-schema.ts) and the description/argument
// scrambling regexes expect: blocks separated by one blank line, one `name: text` line per
// argument, no `Args:` block for a tool without arguments.
import type { ToolParameter } from "./types.js";

export function googleDocstring(
  summary: readonly string[],
  parameters: readonly Pick<ToolParameter, "name" | "description">[],
  returns: string,
): string {
  const blocks = [...summary];
  if (parameters.length > 0) blocks.push(["Args:", ...parameters.map((p) => `    ${p.name}: ${p.description}`)].join("\n"));
  blocks.push(`Returns:\n    ${returns}`);
  return blocks.join("\n\n");
}

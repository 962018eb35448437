// Which name a request uses for a catalog tool. The tool-name scrambling augmentation (reference
// 1.10) shows the agent `<module>_<k>` instead of the real name, where the tools of each module
// are sorted by name and k counts from 0 within the module. The scheme is a pure function of the
// catalog, so the mock can translate both ways without being told which augmentation is on.
import { SCRAMBLED_TOOL_NAMES } from "../tools/scrambling.js";

export { SCRAMBLED_TOOL_NAMES };

const REAL_BY_SCRAMBLED: ReadonlyMap<string, string> = new Map([...SCRAMBLED_TOOL_NAMES].map(([real, scrambled]) => [scrambled, real]));

/** The name under which `tool` is offered: its own name, else its scrambled name; null when neither is offered. */
export function offeredNameOf(tool: string, offered: ReadonlySet<string>): string | null {
  if (offered.has(tool)) return tool;
  const scrambled = SCRAMBLED_TOOL_NAMES.get(tool);
  return scrambled !== undefined && offered.has(scrambled) ? scrambled : null;
}

/** The catalog name behind an offered name (itself when it is not a scrambled name). */
export function realNameOf(offeredName: string): string {
  return SCRAMBLED_TOOL_NAMES.has(offeredName) ? offeredName : (REAL_BY_SCRAMBLED.get(offeredName) ?? offeredName);
}

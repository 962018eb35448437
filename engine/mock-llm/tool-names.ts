// Which name a request uses for a pack's tool. The tool-name scrambling augmentation (reference
// 1.10) shows the agent `<module>_<k>` instead of the real name, where the tools of each module
// are sorted by name and k counts from 0 within the module. The scheme is a pure function of each
// pack's tools, so the mock can translate both ways without being told which augmentation is on
// (or, before it has identified the scenario, which pack it plays).
import { PACKS } from "../packs/registry.js";
import { scrambledToolNames } from "../scenario/augmentations/scrambling.js";

interface NameMaps {
  /** Every pack's real name -> scrambled name (real names do not repeat across packs' scrambling). */
  readonly scrambled: readonly ReadonlyMap<string, string>[];
  readonly realNames: ReadonlySet<string>;
  /** Scrambled name -> real name; the first pack wins should two packs share a module name. */
  readonly realByScrambled: ReadonlyMap<string, string>;
}

let maps: NameMaps | null = null;

function nameMaps(): NameMaps {
  if (maps) return maps;
  const scrambled = PACKS.map((pack) => scrambledToolNames(pack.tools));
  const realByScrambled = new Map<string, string>();
  for (const names of scrambled) for (const [real, name] of names) if (!realByScrambled.has(name)) realByScrambled.set(name, real);
  maps = { scrambled, realNames: new Set(scrambled.flatMap((names) => [...names.keys()])), realByScrambled };
  return maps;
}

/** The name under which `tool` is offered: its own name, else its scrambled name; null when neither is offered. */
export function offeredNameOf(tool: string, offered: ReadonlySet<string>): string | null {
  if (offered.has(tool)) return tool;
  for (const names of nameMaps().scrambled) {
    const scrambled = names.get(tool);
    if (scrambled !== undefined && offered.has(scrambled)) return scrambled;
  }
  return null;
}

/** The real tool name behind an offered name (itself when it is a real name or no pack's scrambled name). */
export function realNameOf(offeredName: string): string {
  const { realNames, realByScrambled } = nameMaps();
  return realNames.has(offeredName) ? offeredName : (realByScrambled.get(offeredName) ?? offeredName);
}

/** Whether a name is some pack's tool, under its real or its scrambled name. */
export function isPackToolName(name: string): boolean {
  const { realNames, realByScrambled } = nameMaps();
  return realNames.has(name) || realByScrambled.has(name);
}

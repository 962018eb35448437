// checkScenarioText: scenario text in, resolved Scenario (or null) and diagnostics out. A pure
// function over the text, cheap enough for the language server to call on every keystroke, and
// it never throws: whatever goes wrong becomes a diagnostic.
import { mergeKeyDiagnostics } from "./merge-keys.js";
import type { Diagnostic } from "../base/diagnostics.js";
import { DEFAULT_AGENT_SYSTEM_PROMPT } from "./prompts/prompts.js";
import type { PromptSet } from "./prompts/prompt-set.js";
import { grouped, limitValue, overLimitMessage } from "../base/limits.js";
import type { WorldPack } from "../packs/types.js";
import { CATEGORIES, TOOL_AUGMENTATIONS, type Category, type Scenario, type ToolAugmentation } from "./model.js";
import { Reporter } from "./check-context.js";
import { resolveNodes } from "./milestones.js";
import { resolvePack } from "./pack-tables.js";
import { obj, str } from "./raw.js";
import { resolvePersona } from "./persona.js";
import { resolveReferenceSteps } from "./reference-steps.js";
import { resolveClock } from "./scenario-clock.js";
import { schemaDiagnostics } from "./schema-diagnostics.js";
import type { ToolCatalogView, ToolContext } from "./tool-calls.js";
import { resolveToolLists } from "./tool-calls.js";
import { resolveUser } from "./user-resolution.js";
import { resolveWeb } from "./web-resolution.js";
import { resolveWorld } from "./world-resolution.js";
import { withFiniteTolerances } from "./tolerances.js";
import { YamlSource } from "./yaml-source.js";

export interface CheckResult {
  /** The resolved scenario; null when any diagnostic is an error. */
  readonly scenario: Scenario | null;
  /** Sorted by position. */
  readonly diagnostics: readonly Diagnostic[];
}

const DEFAULT_MAX_MESSAGES = 30;

/**
 * A prompt set the loader read for this scenario (the checker itself reads no files): the set, or
 * why it could not be used. `fromOption` when it came from `run --prompts` rather than the file's
 * own `prompts:` key, which decides where a problem is reported.
 */
export type PromptSetInput = ({ readonly set: PromptSet } | { readonly error: string }) & { readonly fromOption?: boolean };

interface CheckOptions {
  readonly prompts?: PromptSetInput;
}

/** The tools a scenario may name: those of its pack. */
function catalogOf(pack: WorldPack): ToolCatalogView {
  return { names: pack.tools.map((t) => t.name), byName: (name) => pack.toolByName(name) };
}

export function checkScenarioText(text: string, file: string, options: CheckOptions = {}): CheckResult {
  return guarded(text, file, () => check(new YamlSource(text, file), options));
}

/** The same check over text already parsed (the language server parses each version once). */
export function checkScenarioSource(src: YamlSource, options: CheckOptions = {}): CheckResult {
  return guarded(src.text, src.file, () => check(src, options));
}

function guarded(text: string, file: string, run: () => CheckResult): CheckResult {
  try {
    return run();
  } catch (err) {
    // A bug in a check must not take the editor down with it; say so where the author can see it.
    const detail = err instanceof Error ? err.message : String(err);
    const firstLineEnd = text.search(/\r?\n|$/);
    return {
      scenario: null,
      diagnostics: [
        {
          file,
          range: { start: { line: 0, character: 0 }, end: { line: 0, character: firstLineEnd } },
          offset: [0, firstLineEnd],
          severity: "error",
          code: "internal-error",
          message: `The scenario checker failed (${detail}); please report this file.`,
        },
      ],
    };
  }
}

function check(src: YamlSource, checkOptions: CheckOptions): CheckResult {
  if (src.syntaxDiagnostics.length > 0) return { scenario: null, diagnostics: sortByPosition(src.syntaxDiagnostics) };
  if (src.value === null || src.value === undefined) {
    const empty = src.diagnostic(
      [0, 0],
      "error",
      "empty-file",
      "The file is empty. A scenario needs at least `name`, `user` and `reference`.",
    );
    return { scenario: null, diagnostics: [empty] };
  }
  const mergeKeys = mergeKeyDiagnostics(src);
  if (mergeKeys.length > 0) return { scenario: null, diagnostics: mergeKeys };
  const schema = schemaDiagnostics(withFiniteTolerances(src.value), src);
  const root = obj(src.value);
  if (!root) return { scenario: null, diagnostics: sortByPosition(schema) };

  const reporter = new Reporter(src);
  const clock = resolveClock(reporter, root.clock);
  const pack = resolvePack(root.world);
  const prompts = usablePromptSet(reporter, checkOptions.prompts, pack);
  const ctx: ToolContext = { reporter, clock, scenarioName: str(root.name) ?? "scenario", pack, catalog: catalogOf(pack), prompts };
  const tables = resolveWorld(ctx, root.world);
  const tools = resolveToolLists(ctx, root.tools);
  const user = resolveUser(ctx, root.user);
  const milestones = resolveNodes(ctx, "milestones", root.milestones);
  const minefields = resolveNodes(ctx, "minefields", root.minefields);
  const reference = resolveReferenceSteps(ctx, root.reference, tools);
  const maxMessages = limitValue("trajectoryMessages");
  if (typeof root.max_messages === "number" && root.max_messages > maxMessages) {
    // Its run could write a trajectory that nothing would read back.
    reporter.report(
      ["max_messages"],
      "limit-messages",
      overLimitMessage("trajectoryMessages", `max_messages is ${grouped(root.max_messages)}`),
    );
  }

  const diagnostics = sortByPosition([...mergeOverlapping(schema, reporter.diagnostics), ...src.treeWarnings]);
  if (diagnostics.some((d) => d.severity === "error")) return { scenario: null, diagnostics };
  const agent = obj(root.agent);
  const persona = resolvePersona(agent?.persona);
  const options = obj(root.options);
  const scenario: Scenario = {
    name: str(root.name) ?? "",
    description: str(root.description) ?? "",
    categories: Array.isArray(root.categories) ? root.categories.filter(isCategory) : [],
    clock,
    world: { pack: pack.id, tables },
    web: resolveWeb(root.web),
    tools: prompts === null ? tools : { ...tools, descriptions: toolDescriptions(prompts, pack) },
    agent: {
      system_prompt: str(agent?.system_prompt) ?? prompts?.agent_system_prompt ?? DEFAULT_AGENT_SYSTEM_PROMPT,
      // Left out when absent, so scenarios without one resolve (and run) exactly as before.
      ...(persona !== null ? { persona } : {}),
    },
    user,
    max_messages: typeof root.max_messages === "number" ? root.max_messages : DEFAULT_MAX_MESSAGES,
    milestones,
    minefields,
    reference,
    options: {
      invalid_tool_call: options?.invalid_tool_call === "end" ? "end" : "recover",
      ...resolveAugmentations(options?.augmentations),
      // Like augmentations, left out in the default case so older trajectories stay the same.
      ...(options?.feedback === "toolscan" ? { feedback: "toolscan" as const } : {}),
    },
  };
  return { scenario, diagnostics };
}

/** The set when it can be used with this scenario's pack; otherwise null, with the reason reported. */
function usablePromptSet(reporter: Reporter, input: PromptSetInput | undefined, pack: WorldPack): PromptSet | null {
  if (input === undefined) return null;
  const where = input.fromOption ? [] : ["prompts"];
  const label = input.fromOption ? "The prompt set given with --prompts" : "The prompt set";
  if ("error" in input) {
    reporter.report(where, "prompt-set", `${label} cannot be used: ${input.error}.`);
    return null;
  }
  if (input.set.pack !== pack.id) {
    reporter.report(
      where,
      "prompt-set",
      `${label} describes the ${input.set.pack} pack's tools; this scenario's world.pack is ${pack.id}.`,
    );
    return null;
  }
  return input.set;
}

/** The set's docstrings of the pack's tools, in the pack's order. */
function toolDescriptions(prompts: PromptSet, pack: WorldPack): Record<string, string> {
  return Object.fromEntries(
    pack.tools.flatMap((t) => (prompts.tools[t.name] === undefined ? [] : [[t.name, prompts.tools[t.name] as string]])),
  );
}

/** Known names in the order given, each once; the key is left out when there are none, so older trajectories stay the same. */
function resolveAugmentations(value: unknown): { augmentations?: ToolAugmentation[] } {
  if (!Array.isArray(value)) return {};
  const known = [...new Set(value.filter((v): v is ToolAugmentation => TOOL_AUGMENTATIONS.some((a) => a === v)))];
  return known.length > 0 ? { augmentations: known } : {};
}

function isCategory(v: unknown): v is Category {
  return CATEGORIES.some((c) => c === v);
}

/**
 * One diagnostic per node: where a semantic check and the schema flag the same value (a row cell
 * holding a mapping, say), the semantic one is kept because it knows the column or tool.
 */
function mergeOverlapping(schema: readonly Diagnostic[], semantic: readonly Diagnostic[]): Diagnostic[] {
  const semanticRanges = new Set(semantic.filter((d) => d.severity === "error").map((d) => `${d.offset[0]}:${d.offset[1]}`));
  return [...schema.filter((d) => !semanticRanges.has(`${d.offset[0]}:${d.offset[1]}`)), ...semantic];
}

export function sortByPosition(diagnostics: readonly Diagnostic[]): Diagnostic[] {
  return diagnostics
    .map((d, i) => ({ d, i }))
    .sort((a, b) => a.d.offset[0] - b.d.offset[0] || a.d.offset[1] - b.d.offset[1] || a.i - b.i)
    .map(({ d }) => d);
}

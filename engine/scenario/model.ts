// The resolved scenario: what a loaded, checked *.scenario.yaml becomes. Everything relative is
// made absolute here (timestamps, default world, default data, default tool lists), so an
// episode, the evaluation and a trajectory header need nothing else.
import type { JsonValue } from "../base/json.js";
import type { CellValue, Tables } from "../world/types.js";
import type { WebData } from "../tools/web-data.js";
import type { RoleName } from "../base/message-parts.js";
import type { PackId } from "../packs/types.js";
import type { DialogAction } from "./dialog-actions.js";

/** Tags the tool augmentations add (reference 1.10). */
export const AUGMENTATION_CATEGORIES = [
  "NO_DISTRACTION_TOOLS",
  "THREE_DISTRACTION_TOOLS",
  "TEN_DISTRACTION_TOOLS",
  "ALL_TOOLS_AVAILABLE",
  "TOOL_NAME_SCRAMBLED",
  "TOOL_DESCRIPTION_SCRAMBLED",
  "ARG_DESCRIPTION_SCRAMBLED",
  "ARG_TYPE_SCRAMBLED",
] as const;

export const CATEGORIES = [
  "SINGLE_TOOL_CALL",
  "MULTIPLE_TOOL_CALL",
  "SINGLE_USER_TURN",
  "MULTIPLE_USER_TURN",
  "STATE_DEPENDENCY",
  "CANONICALIZATION",
  "COREFERENCE",
  "DISAMBIGUATION",
  "INSUFFICIENT_INFORMATION",
  ...AUGMENTATION_CATEGORIES,
] as const;
export type Category = (typeof CATEGORIES)[number];

/** Table names a constraint may target: the world tables plus the message bus. */
export type TableName = string;

/** How one column of a target row is compared with a row of the snapshot (reference 5.3). */
export type ColumnMeasure =
  | { readonly kind: "exact" }
  | { readonly kind: "close"; readonly atol: number }
  | { readonly kind: "contains" }
  | { readonly kind: "rouge_l" }
  | { readonly kind: "any" }
  /** Golden traces: tool name plus the arguments that must match; `atol` per numeric argument. */
  | { readonly kind: "tool_trace"; readonly atol?: Readonly<Record<string, number>> };

/** A golden tool trace in a SANDBOX target's tool_trace column. */
export interface GoldenTrace {
  readonly tool_name: string;
  readonly arguments: Readonly<Record<string, JsonValue>>;
}

/** A target row: column -> expected value (a list for a string_list column). On SANDBOX, tool_trace holds golden trace alternatives. */
export type TargetRow = Readonly<Record<string, CellValue | readonly GoldenTrace[] | readonly RoleName[]>>;

/** Which earlier state a constraint compares against: the initial world or a milestone's match. */
export type ConstraintReference = { readonly kind: "initial" } | { readonly kind: "milestone"; readonly id: string };

/** Pulls values out of a referenced milestone's tool trace into the expectations (reference 5.6). */
export interface ExtractionRule {
  /** Dotted path into the trace: "result", "result.current_temperature", "arguments.latitude". */
  readonly path: string;
  /** Placeholder / argument name it fills. */
  readonly as: string;
  /** float_formats: the value as "{:.0f}".."{:.3f}" strings (upstream normalisation); int: int(value); raw: as is. */
  readonly normalize: "float_formats" | "int" | "raw";
}

export type Constraint =
  | {
      readonly kind: "snapshot";
      readonly table: TableName;
      readonly target: readonly TargetRow[];
      readonly measures: Readonly<Record<string, ColumnMeasure>>;
      readonly reference: ConstraintReference | null;
    }
  | {
      readonly kind: "addition" | "removal" | "update";
      readonly table: TableName;
      readonly target: readonly TargetRow[];
      readonly measures: Readonly<Record<string, ColumnMeasure>>;
      readonly reference: ConstraintReference;
    }
  | {
      /** Upstream tool_trace_dependant_similarity: fill the target from a referenced trace, then compare. */
      readonly kind: "tool_trace_extract";
      readonly table: "SANDBOX";
      readonly target: readonly TargetRow[];
      readonly measures: Readonly<Record<string, ColumnMeasure>>;
      readonly reference: ConstraintReference;
      /** The upstream extractor name when one was used (kept for display), and its rules. */
      readonly extractor: string | null;
      readonly extract: readonly ExtractionRule[];
      /** "content": str.format the target content; "tool_trace": merge into golden trace arguments. */
      readonly fill: "content" | "tool_trace";
    };

export interface Milestone {
  readonly id: string;
  readonly description: string | null;
  /** DAG edges: this node must match at an index >= each of these nodes' indices. */
  readonly after: readonly string[];
  readonly constraints: readonly Constraint[];
  /** Tables the automatic guardrails watch (null = all world tables), minus `exclude`. */
  readonly guardrails: { readonly tables: readonly TableName[] | null; readonly exclude: readonly TableName[] };
}

export type KnowledgeReveal = "when_asked" | "never";

export interface KnowledgeFact {
  /** A sentence the user simulator is told, e.g. "Homer S's phone number is +10000000000". */
  readonly fact: string;
  /** The literal value the fact carries, checked for leaks (e.g. "+10000000000"). */
  readonly value: string | null;
  readonly reveal: KnowledgeReveal;
}

export interface DemonstrationMessage {
  readonly sender: RoleName;
  readonly recipient: RoleName;
  readonly content: string;
}

export interface Demonstration {
  readonly name: string;
  readonly goal: string;
  readonly messages: readonly DemonstrationMessage[];
}

export interface ReferenceCall {
  readonly id: string;
  readonly tool: string;
  readonly arguments: Readonly<Record<string, JsonValue>>;
}

/** One step of the scripted solution; the scripted agent and user play these in order. */
export type ReferenceStep =
  /** `action`: DialogTool's dialogue action, when the step names it (absent: derived when scored). */
  | { readonly kind: "agent_text"; readonly text: string; readonly action?: DialogAction }
  /** One agent turn; two or more calls are parallel (all-orderings check). */
  | { readonly kind: "agent_calls"; readonly calls: readonly ReferenceCall[] }
  | { readonly kind: "user_text"; readonly text: string }
  | { readonly kind: "end_conversation" };

/** Schema-level changes to the tools the agent sees (upstream tool_augmentation_list, reference 1.10). */
export const TOOL_AUGMENTATIONS = [
  "tool_name_scrambled",
  "tool_description_scrambled",
  "arg_description_scrambled",
  "arg_type_scrambled",
] as const;
export type ToolAugmentation = (typeof TOOL_AUGMENTATIONS)[number];

export interface ScenarioOptions {
  /** recover: an unknown tool or malformed arguments come back to the agent as an error; end: upstream (episode ends, scored 0). */
  readonly invalid_tool_call: "recover" | "end";
  /** Scrambling applied to the agent's tool schemas; absent (not empty) when there is none. */
  readonly augmentations?: readonly ToolAugmentation[];
  /**
   * toolscan: a call to an unknown tool, with an unknown or missing argument or an argument of the
   * wrong type is answered with ToolScan's feedback text instead of the engine's error. Absent
   * (the default) for the engine's own errors, so headers of runs without it stay the same.
   */
  readonly feedback?: "toolscan";
}

export interface Scenario {
  readonly name: string;
  readonly description: string;
  readonly categories: readonly Category[];
  readonly clock: { readonly now: number; readonly now_iso: string; readonly timezone: string };
  /** World pack and the fully resolved initial tables. */
  readonly world: { readonly pack: PackId; readonly tables: Tables };
  readonly web: WebData;
  /**
   * Effective lists; allow null = every tool. end_conversation is always allowed for the user.
   * `descriptions`: with a prompt set, the docstrings the models' tool schemas are derived from
   * instead of the pack's own (absent otherwise, so other trajectories stay the same).
   */
  readonly tools: {
    readonly allow: readonly string[] | null;
    readonly deny: readonly string[];
    readonly descriptions?: Readonly<Record<string, string>>;
  };
  /** `persona`: the character the agent plays (DialogTool's role play); absent when none is given. */
  readonly agent: { readonly system_prompt: string; readonly persona?: Persona };
  readonly user: {
    /** Replaces the default user-simulator instruction; absent when the scenario keeps the default. */
    readonly preamble?: string;
    readonly goal: string;
    readonly knowledge: readonly KnowledgeFact[];
    readonly demonstrations: readonly Demonstration[];
    readonly opening: string;
  };
  readonly max_messages: number;
  readonly milestones: readonly Milestone[];
  readonly minefields: readonly Milestone[];
  readonly reference: readonly ReferenceStep[];
  readonly options: ScenarioOptions;
}

/** The 16 Myers-Briggs types a persona's `mbti` may name (the schema's enum lists the same). */
export const MBTI_TYPES = [
  "INTJ",
  "INTP",
  "ENTJ",
  "ENTP",
  "INFJ",
  "INFP",
  "ENFJ",
  "ENFP",
  "ISTJ",
  "ISFJ",
  "ESTJ",
  "ESFJ",
  "ISTP",
  "ISFP",
  "ESTP",
  "ESFP",
] as const;
export type MbtiType = (typeof MBTI_TYPES)[number];

/** DialogTool's role configuration: who the agent is while it helps. Only `name` is required. */
export interface Persona {
  readonly name: string;
  readonly gender?: string;
  readonly mbti?: MbtiType;
  readonly language_features?: string;
  readonly emotional_traits?: string;
}

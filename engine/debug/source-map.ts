// Lines of a scenario file, as the debugger sees them: which line a breakpoint binds to (a
// milestone, a minefield, a tool under tools.allow, a reference step or call, a demonstration's
// message, the opening), and which line a message comes from (the Call Stack's source). Ranges
// come from the parsed YAML tree (YamlSource), the same positions the checker's diagnostics use.
import { isScalar, isSeq } from "yaml";
import type { Scenario } from "../scenario/model.js";
import type { Path } from "../scenario/yaml-source.js";
import { YamlSource } from "../scenario/yaml-source.js";

/** What a line breakpoint stands for. */
export type LineTarget =
  | { readonly kind: "milestone"; readonly list: "milestones" | "minefields"; readonly id: string }
  | { readonly kind: "tool"; readonly name: string }
  /** A step of `reference:`; `call` is one call of a step of calls, null for the whole step. */
  | { readonly kind: "reference"; readonly step: number; readonly call: number | null }
  | { readonly kind: "demonstration"; readonly demo: number; readonly message: number }
  | { readonly kind: "opening" };

type Binding =
  | { readonly ok: true; readonly target: LineTarget /** 0-based line the breakpoint shows on. */; readonly line: number }
  | { readonly ok: false; readonly reason: string };

interface Span {
  readonly first: number;
  readonly last: number;
}

export class ScenarioSourceMap {
  private readonly src: YamlSource;

  constructor(
    readonly file: string,
    text: string,
    private readonly scenario: Scenario,
  ) {
    this.src = new YamlSource(text, file);
  }

  /** The 0-based lines a node of the file spans, or null when the path is not in the file. */
  span(path: Path): Span | null {
    const { node, complete } = this.src.locate(path);
    if (!complete || node?.range == null) return null;
    const [start, valueEnd] = node.range;
    const first = this.src.position(start).line;
    // valueEnd is past the node's last character (and often on the next line for block nodes).
    const last = this.src.position(Math.max(start, valueEnd - 1)).line;
    return { first, last: Math.max(first, last) };
  }

  /** The line of the key that holds `path` (`opening:` rather than its possibly folded value). */
  keyLine(path: Path): number | null {
    const { pair, complete } = this.src.locate(path);
    if (!complete || !pair || !isScalar(pair.key) || !pair.key.range) return this.span(path)?.first ?? null;
    return this.src.position(pair.key.range[0]).line;
  }

  private listLength(path: Path): number {
    const { node, complete } = this.src.locate(path);
    return complete && isSeq(node) ? node.items.length : 0;
  }

  /** Binds a 0-based line to what a breakpoint there stands for, or says why nothing is there. */
  bind(line: number): Binding {
    for (const list of ["milestones", "minefields"] as const) {
      const nodes = this.scenario[list];
      for (let i = 0; i < this.listLength([list]); i++) {
        const span = this.span([list, i]);
        const node = nodes[i];
        if (span && node && line >= span.first && line <= span.last) {
          return { ok: true, target: { kind: "milestone", list, id: node.id }, line: span.first };
        }
      }
    }
    for (let i = 0; i < this.listLength(["tools", "allow"]); i++) {
      const span = this.span(["tools", "allow", i]);
      if (!span || line < span.first || line > span.last) continue;
      const { node } = this.src.locate(["tools", "allow", i]);
      const name = isScalar(node) ? String(node.value) : "";
      if (this.scenario.tools.allow?.includes(name)) return { ok: true, target: { kind: "tool", name }, line: span.first };
      return { ok: false, reason: `"${name}" is not a tool this scenario allows` };
    }
    for (let i = 0; i < this.listLength(["reference"]); i++) {
      const span = this.span(["reference", i]);
      if (!span || line < span.first || line > span.last) continue;
      const step = this.scenario.reference[i];
      if (step?.kind === "agent_calls") {
        for (let j = 0; j < step.calls.length; j++) {
          const call = this.span(["reference", i, "calls", j]);
          if (call && line >= call.first && line <= call.last) {
            return { ok: true, target: { kind: "reference", step: i, call: j }, line: call.first };
          }
        }
      }
      return { ok: true, target: { kind: "reference", step: i, call: null }, line: span.first };
    }
    const demos = this.listLength(["user", "demonstrations"]);
    for (let d = 0; d < demos; d++) {
      for (let m = 0; m < this.listLength(["user", "demonstrations", d, "messages"]); m++) {
        const span = this.span(["user", "demonstrations", d, "messages", m]);
        if (span && line >= span.first && line <= span.last) {
          return { ok: true, target: { kind: "demonstration", demo: d, message: m }, line: span.first };
        }
      }
    }
    const opening = this.span(["user", "opening"]);
    const openingKey = this.keyLine(["user", "opening"]);
    if (opening && openingKey !== null && line >= openingKey && line <= opening.last) {
      return { ok: true, target: { kind: "opening" }, line: openingKey };
    }
    return {
      ok: false,
      reason:
        "nothing to stop at on this line: breakpoints go on a milestone or minefield, a tool under tools.allow, a reference step, a demonstration's message or the opening",
    };
  }

  /** The 0-based line a message's origin was written on, or null when the file has none. */
  lineOf(origin: MessageOrigin): number | null {
    switch (origin.kind) {
      case "system":
        return this.keyLine(["agent"]) ?? this.keyLine(["name"]);
      case "goal":
        return this.keyLine(["user", "goal"]) ?? this.keyLine(["user"]);
      case "opening":
        return this.keyLine(["user", "opening"]);
      case "demonstration":
        return origin.message === null
          ? (this.span(["user", "demonstrations", origin.demo])?.first ?? this.keyLine(["user"]))
          : (this.span(["user", "demonstrations", origin.demo, "messages", origin.message])?.first ?? null);
      case "reference": {
        const call = origin.call === null ? null : this.span(["reference", origin.step, "calls", origin.call]);
        return call?.first ?? this.span(["reference", origin.step])?.first ?? null;
      }
      case "tool": {
        return this.toolLines().get(origin.name) ?? this.keyLine(["tools"]);
      }
      case "model":
        return null;
    }
  }

  private toolLineCache: Map<string, number> | null = null;

  private toolLines(): Map<string, number> {
    if (this.toolLineCache) return this.toolLineCache;
    const lines = new Map<string, number>();
    for (let i = 0; i < this.listLength(["tools", "allow"]); i++) {
      const { node } = this.src.locate(["tools", "allow", i]);
      const span = this.span(["tools", "allow", i]);
      if (isScalar(node) && span) lines.set(String(node.value), span.first);
    }
    this.toolLineCache = lines;
    return lines;
  }
}

/** Where a message comes from in the scenario. */
export type MessageOrigin =
  | { readonly kind: "system" }
  | { readonly kind: "demonstration"; readonly demo: number; readonly message: number | null }
  | { readonly kind: "goal" }
  | { readonly kind: "opening" }
  /** Played from the reference by a scripted role; `response`: the environment's answer to that call. */
  | { readonly kind: "reference"; readonly step: number; readonly call: number | null; readonly response: boolean }
  /** A tool request or response a model-backed agent caused. */
  | { readonly kind: "tool"; readonly name: string }
  /** Said by a model-backed role. */
  | { readonly kind: "model" };

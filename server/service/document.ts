// API SKELETON (H18): signatures are final, bodies are being written.
import type { TextDocument } from "vscode-languageserver-textdocument";
import type { Range } from "vscode-languageserver";
import type { CheckResult } from "../../engine/scenario/resolve.js";
import type { PathSegment, YamlSource } from "../../engine/scenario/yaml-source.js";

export type IdSection = "milestones" | "minefields";

/** One occurrence of a milestone or minefield id: its definition, an `after:` entry or a `reference:`. */
export interface IdOccurrence {
  readonly section: IdSection;
  readonly id: string;
  readonly role: "definition" | "after" | "reference";
  /** Index of the node (in its section) the occurrence is written in. */
  readonly node: number;
  /** Offsets of the id text itself (inside quotes when quoted). */
  readonly start: number;
  readonly end: number;
  readonly range: Range;
}

/** Where the cursor is, in YAML terms; robust on lines still being typed. */
export interface CursorContext {
  /** On "key": the path of the mapping whose key is typed. On "value": the path of the value typed. */
  readonly path: readonly PathSegment[];
  readonly on: "key" | "value";
  /** The part of the current word before the cursor. */
  readonly prefix: string;
  /** Offsets of the whole word under the cursor (what a completion replaces). */
  readonly tokenStart: number;
  readonly tokenEnd: number;
  /** Inside a flow collection ([...] or {...}). */
  readonly inFlow: boolean;
  /** A value right after `- ` with nothing else on the item yet: it may also start a mapping. */
  readonly itemStart: boolean;
  /** Column where a key of the mapping at `path` starts (for multi-line inserts). */
  readonly indent: number;
}

export interface ScenarioDocument {
  readonly uri: string;
  readonly version: number;
  readonly text: string;
  readonly textDocument: TextDocument;
  /** The parsed YAML (yaml Document, positions, path lookup). */
  readonly source: YamlSource;
  /** The engine's check (schema + semantic diagnostics, resolved scenario); computed on first use. */
  readonly check: CheckResult;
  /** Every milestone / minefield id occurrence, in source order; computed on first use. */
  readonly ids: readonly IdOccurrence[];
  pathAt(offset: number): CursorContext;
  offsetAt(position: { line: number; character: number }): number;
  rangeOf(start: number, end: number): Range;
}

export declare function getScenarioDocument(doc: TextDocument): ScenarioDocument;

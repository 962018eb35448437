// A scenario document as the language service sees it: parsed once per (uri, version), with the
// engine's check, the id table, the line structure and the world pack computed on first use and
// then shared by every request on that version.
//
// A new version is parsed by section (engine/scenario/yaml-sections.ts): only the top-level
// sections an edit touched are parsed again, so completion and hover right after an edit answer
// from the new text without a whole-file parse, and without the semantic check, which only the
// diagnostics ask for (`check`, run after the answer).
import { fileURLToPath } from "node:url";
import type { TextDocument } from "vscode-languageserver-textdocument";
import type { Position, Range } from "vscode-languageserver";
import type { WorldPack } from "../../engine/packs/types.js";
import { resolvePack } from "../../engine/scenario/pack-tables.js";
import { obj } from "../../engine/scenario/raw.js";
import { checkScenarioFileSource } from "../../engine/scenario/load.js";
import type { CheckResult } from "../../engine/scenario/resolve.js";
import { withLineFeeds, YamlSource } from "../../engine/scenario/yaml-source.js";
import { SectionedParser } from "../../engine/scenario/yaml-sections.js";
import { sortByPosition } from "../../engine/scenario/resolve.js";
import { findingsBesideSyntaxErrors } from "./syntax-recovery.js";
import { schemaModelineDiagnostics } from "./schema-modeline.js";
import { cursorContext, type CursorContext } from "./cursor-context.js";
import { limitValue } from "../../engine/base/limits.js";
import { isPastLimits } from "./document-limits.js";
import { guarded } from "./guard.js";
import { buildIdTable, type IdTable } from "./id-table.js";
import { pathKey, rescanLines, scanLines, type LineStructure } from "./line-structure.js";

export type { CursorContext } from "./cursor-context.js";
export type { IdTable } from "./id-table.js";

export interface ScenarioDocument {
  readonly uri: string;
  readonly version: number;
  readonly text: string;
  readonly textDocument: TextDocument;
  /** The parsed YAML: the yaml Document, source positions and path lookup. */
  readonly source: YamlSource;
  /** The engine's check (diagnostics, resolved scenario); computed on first use. */
  readonly check: CheckResult;
  /** Milestone and minefield ids: definitions and every reference; computed on first use. */
  readonly ids: IdTable;
  /** The block structure read line by line (works on half-typed lines). */
  readonly lines: LineStructure;
  /** The world pack `world.pack` names (the default pack when it names none): its tables and tools are what the document may use. */
  readonly pack: WorldPack;
  /** Where an offset is in YAML terms. */
  pathAt(offset: number): CursorContext;
  offsetAt(position: Position): number;
  rangeOf(start: number, end: number): Range;
}

class ParsedScenario implements ScenarioDocument {
  readonly uri: string;
  readonly version: number;
  readonly text: string;
  readonly source: YamlSource;
  private readonly file: string;
  private checked: CheckResult | null = null;
  private idTable: IdTable | null = null;
  private structure: LineStructure | null = null;
  private worldPack: WorldPack | null = null;

  constructor(
    readonly textDocument: TextDocument,
    private readonly incremental: Incremental,
  ) {
    this.uri = textDocument.uri;
    this.version = textDocument.version;
    this.text = withLineFeeds(textDocument.getText());
    this.file = fileName(textDocument.uri);
    // Past the size limit nothing is parsed (YamlSource answers with one diagnostic), not even by sections.
    const parsed = Buffer.byteLength(this.text, "utf8") > limitValue("scenarioBytes") ? undefined : incremental.parser.parse(this.text);
    this.source = new YamlSource(this.text, this.file, parsed);
  }

  get check(): CheckResult {
    // With a YAML syntax error a whole parse may stop where sections go on: the diagnostics are
    // the whole parse's, as `validate` reports them. A limit passed (nesting, milestones) is found
    // the same in both, so the sections' parse is kept: parsing a large file again costs a second.
    // The scenario's prompt set is read from beside it, as `validate` does.
    if (this.checked !== null) return this.checked;
    const reparse = this.source.syntaxDiagnostics.some((d) => d.code.startsWith("yaml-"));
    const engine = checkScenarioFileSource(reparse ? new YamlSource(this.text, this.file) : this.source);
    // A schema modeline that points nowhere is the editor's concern, not `validate`'s.
    const modeline = guarded("schema modeline", [], () => schemaModelineDiagnostics(this.text, this.file));
    const checked = modeline.length === 0 ? engine : { ...engine, diagnostics: sortByPosition([...engine.diagnostics, ...modeline]) };
    const syntax = checked.diagnostics.filter((d) => d.code.startsWith("yaml-"));
    if (syntax.length === 0) this.incremental.lastParsed = this.text;
    // Only plain syntax errors stand in the way; a merge key or a limit passed is the whole finding.
    if (syntax.length === 0 || !engine.diagnostics.every((d) => d.code === "yaml-syntax" || d.code === "yaml-duplicate-key")) {
      this.checked = checked;
      return checked;
    }
    // The sections that still parse keep their findings (syntax-recovery.ts).
    const beside = guarded("syntax recovery", [], () =>
      findingsBesideSyntaxErrors(
        this.text,
        syntax,
        this.incremental.lastParsed,
        (text) => checkScenarioFileSource(new YamlSource(text, this.file)).diagnostics,
      ),
    );
    this.checked = beside.length === 0 ? checked : { ...checked, diagnostics: sortByPosition([...checked.diagnostics, ...beside]) };
    return this.checked;
  }

  get ids(): IdTable {
    this.idTable ??= guarded("ids", { occurrences: [], nodes: { milestones: [], minefields: [] } }, () => buildIdTable(this.source));
    return this.idTable;
  }

  get lines(): LineStructure {
    if (this.structure === null) {
      const previous = this.incremental.lines;
      const text = isPastLimits(this.source) ? "" : this.text;
      this.structure = guarded("lines", { lines: [], keysByPath: new Map() }, () =>
        previous && text !== "" ? rescanLines(previous, text, this.source.doc) : scanLines(text, this.source.doc),
      );
      this.incremental.lines = { text, structure: this.structure };
    }
    return this.structure;
  }

  get pack(): WorldPack {
    this.worldPack ??= guarded("pack", resolvePack(null), () => resolvePack({ pack: this.writtenPack() }));
    return this.worldPack;
  }

  /** `world.pack` from the parsed tree, or from the text when the tree is broken around it. */
  private writtenPack(): unknown {
    const world = obj(obj(this.source.value)?.world);
    if (world && "pack" in world) return world.pack;
    return this.lines.keysByPath.get(pathKey(["world"]))?.find((k) => k.name === "pack")?.value;
  }

  pathAt(offset: number): CursorContext {
    return cursorContext(this.lines, isPastLimits(this.source) ? "" : this.text, offset);
  }

  offsetAt(position: Position): number {
    return this.textDocument.offsetAt(position);
  }

  rangeOf(start: number, end: number): Range {
    return { start: this.textDocument.positionAt(start), end: this.textDocument.positionAt(end) };
  }
}

function fileName(uri: string): string {
  if (!uri.startsWith("file:")) return uri;
  try {
    return fileURLToPath(uri);
  } catch {
    return uri;
  }
}

/** Documents kept parsed, the latest version of each; a few, since an editor works on a handful of files at once. */
const CACHE_SIZE = 16;
const cache = new Map<string, ParsedScenario>();
/** What a document's next version is computed from: its sections' parses and its last line structure. */
interface Incremental {
  readonly parser: SectionedParser;
  lines: { readonly text: string; readonly structure: LineStructure } | null;
  /** The last version's text that had no YAML syntax error: what a broken section is checked as. */
  lastParsed: string | null;
}
const incrementals = new Map<string, Incremental>();

/** The parsed scenario for this document version (reused while the uri, version and text are the same). */
export function getScenarioDocument(doc: TextDocument): ScenarioDocument {
  const cached = cache.get(doc.uri);
  cache.delete(doc.uri);
  let incremental = incrementals.get(doc.uri);
  if (!incremental) {
    incremental = { parser: new SectionedParser(), lines: null, lastParsed: null };
    incrementals.set(doc.uri, incremental);
  }
  const parsed =
    cached && cached.version === doc.version && cached.text === withLineFeeds(doc.getText())
      ? cached
      : new ParsedScenario(doc, incremental);
  cache.set(doc.uri, parsed);
  while (cache.size > CACHE_SIZE) {
    const oldest = cache.keys().next().value;
    if (oldest === undefined) break;
    cache.delete(oldest);
    incrementals.delete(oldest);
  }
  return parsed;
}

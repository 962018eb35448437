// Parsing a scenario again after an edit without parsing all of it: the text is cut at its
// top-level keys (`world:`, `milestones:`, ...), each section is parsed on its own, and a section
// whose text did not change is taken from the previous parse, its source ranges moved to where it
// now starts. An edit in the milestones of a 50,000-line file re-parses the milestones only.
//
// The result is the same tree, errors and value a whole-text parse gives (test/scenario/
// yaml-sections.test.ts compares them on edited samples). Where cutting could change the meaning,
// the whole text is parsed instead: anchors and aliases (they reach across sections), directives
// and document markers, content before the first key, a duplicated top-level key, and a section
// whose parse runs into its own end (an unclosed quote or bracket that may continue in the next section).
import { Document, isMap, isNode, parseDocument, visit, YAMLMap, type Pair, type ParsedNode } from "yaml";

/** What the scenario reader needs of a parse: the tree, the parser's problems and the plain value. */
export interface ParsedYaml {
  readonly doc: Document.Parsed;
  readonly errors: readonly YamlProblem[];
  /** The document's plain value; throws as yaml's toJS does (a missing anchor, too many aliases). */
  toValue(maxAliasCount: number): unknown;
}

export interface YamlProblem {
  readonly pos: readonly [number, number];
  readonly code: string;
  readonly message: string;
}

// logLevel "error": warnings (e.g. collection keys) become our diagnostics, never stderr noise.
const OPTIONS = { prettyErrors: false, uniqueKeys: true, logLevel: "error" } as const;

/** One parse of the whole text. */
export function parseWhole(text: string): ParsedYaml {
  const doc = parseDocument(text, OPTIONS);
  return { doc, errors: doc.errors, toValue: (maxAliasCount) => doc.toJS({ maxAliasCount }) };
}

/** A line that opens a top-level key: a plain key at column 0 followed by `:`. */
const TOP_LEVEL_KEY = /^[A-Za-z_][A-Za-z0-9_]*[ \t]*:(?=[ \t]|\r?$)/;
/** Text that reaches across sections or documents: anchors, aliases, tags, directives and markers. */
const NOT_SPLITTABLE = /(^|[\s[{,])[&*!][^\s,[\]{}]|^(---|\.\.\.|%)/m;

interface Section {
  readonly text: string;
  /** Where the section's nodes' ranges currently start (moved in place when reused elsewhere). */
  start: number;
  readonly doc: Document.Parsed;
  readonly items: readonly Pair<ParsedNode, ParsedNode | null>[];
  readonly value: Readonly<Record<string, unknown>> | null;
}

/**
 * Parses successive versions of one document, reusing the sections that did not change. Holds
 * the sections of the last version only; a reused section's nodes are moved in place, so a parse
 * handed out earlier must not be read after a later one (the language server keeps the latest).
 */
export class SectionedParser {
  private sections = new Map<string, Section>();

  parse(text: string): ParsedYaml {
    const cuts = cutSections(text);
    if (cuts === null) {
      this.sections.clear();
      return parseWhole(text);
    }
    const next = new Map<string, Section>();
    const used: Section[] = [];
    for (const [start, end] of cuts) {
      const sectionText = text.slice(start, end);
      // Two sections with the same text (a duplicated key) cannot share one tree.
      const known = this.sections.get(sectionText);
      const section = known && !next.has(sectionText) ? moved(known, start) : parseSection(sectionText, start);
      if (section === null) {
        this.sections.clear();
        return parseWhole(text);
      }
      next.set(sectionText, section);
      used.push(section);
    }
    this.sections = next;
    // yaml reports a duplicated key where its own rules place it: leave that to a whole parse.
    if (hasDuplicateKey(used)) return parseWhole(text);
    return assemble(text, used);
  }
}

/** [start, end) of each top-level section, or null when the text must be parsed whole. */
function cutSections(text: string): [number, number][] | null {
  if (NOT_SPLITTABLE.test(text)) return null;
  const starts: number[] = [];
  let offset = 0;
  while (offset < text.length) {
    const newline = text.indexOf("\n", offset);
    const end = newline < 0 ? text.length : newline;
    const first = text[offset];
    if (first !== undefined && first !== " " && first !== "\t" && first !== "#" && first !== "\r" && first !== "\n") {
      if (!TOP_LEVEL_KEY.test(text.slice(offset, Math.min(end, offset + 200)))) {
        // Content at column 0 before any key belongs to no section; elsewhere it stays in the section above.
        if (starts.length === 0) return null;
      } else {
        starts.push(offset);
      }
    }
    offset = end + 1;
  }
  if (starts.length < 2) return null;
  // Comments and blank lines before the first key go with it.
  starts[0] = 0;
  return starts.map((start, i) => [start, starts[i + 1] ?? text.length]);
}

function parseSection(text: string, start: number): Section | null {
  const doc = parseDocument(text, OPTIONS);
  const contents = doc.contents;
  if (!isMap(contents)) return null;
  // An error at the section's end may be a construct the next section continues: parse it all.
  const contentEnd = text.trimEnd().length;
  if (doc.errors.some((e) => e.pos[0] >= contentEnd)) return null;
  let value: Record<string, unknown> | null = null;
  if (doc.errors.length === 0) {
    const js: unknown = doc.toJS();
    if (typeof js !== "object" || js === null || Array.isArray(js)) return null;
    value = js as Record<string, unknown>;
  }
  const section: Section = { text, start: 0, doc, items: contents.items as Pair<ParsedNode, ParsedNode | null>[], value };
  return moved(section, start);
}

/** The section with every source range moved so that it starts at `start`. */
function moved(section: Section, start: number): Section {
  const delta = start - section.start;
  if (delta === 0) return section;
  visit(section.doc, (_key, node) => {
    if (isNode(node) && node.range) {
      const [a, b, c] = node.range;
      node.range = [a + delta, b + delta, c + delta];
    }
  });
  section.start = start;
  return section;
}

function hasDuplicateKey(sections: readonly Section[]): boolean {
  const seen = new Set<string>();
  for (const section of sections) {
    for (const item of section.items) {
      const key = item.key && "value" in item.key ? String(item.key.value) : "";
      if (seen.has(key)) return true;
      seen.add(key);
    }
  }
  return false;
}

function assemble(text: string, sections: readonly Section[]): ParsedYaml {
  const root = new YAMLMap<ParsedNode, ParsedNode | null>();
  root.items = sections.flatMap((s) => s.items);
  const first = sections[0]?.items[0]?.key?.range?.[0] ?? 0;
  (root as YAMLMap.Parsed).range = [first, text.length, text.length];
  const doc = new Document(null, OPTIONS) as Document.Parsed;
  doc.contents = root as YAMLMap.Parsed;
  doc.range = [0, text.length, text.length];
  const errors = sections.flatMap((section) =>
    section.doc.errors.map(
      (e): YamlProblem => ({ pos: [e.pos[0] + section.start, e.pos[1] + section.start], code: e.code, message: e.message }),
    ),
  );
  errors.sort((a, b) => a.pos[0] - b.pos[0]);
  return {
    doc,
    errors,
    toValue: () => Object.assign({}, ...sections.map((s) => s.value ?? {})) as Record<string, unknown>,
  };
}

// Snippets for whole entries of a list: a milestone, a minefield, a constraint, a reference step,
// and the skeleton of a new scenario. Bodies are written from column 0 and indented to where they
// land, so they read right in any client (they are inserted as is, not re-indented).

export interface Snippet {
  readonly label: string;
  readonly detail: string;
  /** Snippet body from column 0; `indent` is added to every line after the first. */
  readonly body: string;
}

/** A snippet choice `${n|A,B,C|}` of table names (upper-case words: nothing to escape). */
function tableChoice(n: number, tables: readonly string[]): string {
  return `\${${n}|${tables.join(",")}|}`;
}

/**
 * A milestone or minefield; with `after` (explicit-edge mode) it is attached to `previousId`.
 * `tables`: the world tables of the document's pack.
 */
export function nodeSnippet(section: "milestones" | "minefields", after: string | null, tables: readonly string[]): Snippet {
  const noun = section === "milestones" ? "milestone" : "minefield";
  const afterLine = after === null ? "" : `after: [\${2:${escapeSnippet(after)}}]\n`;
  return {
    label: noun,
    detail: section === "milestones" ? "A milestone: an event that must happen" : "A minefield: an event that must not happen",
    body:
      `id: \${1:${noun}_id}\n` +
      afterLine +
      "constraints:\n" +
      "  - kind: ${3|snapshot,addition,removal,update|}\n" +
      `    table: ${tableChoice(4, [...tables, "SANDBOX"])}\n` +
      "    target:\n" +
      "      - $0",
  };
}

/** Constraint entries; `tables`: the world tables of the document's pack. */
export const constraintSnippets = (tables: readonly string[]): readonly Snippet[] => [
  {
    label: "snapshot constraint",
    detail: "The table at the matched message looks like the target",
    body: `kind: snapshot\ntable: ${tableChoice(1, tables)}\ntarget:\n  - $0`,
  },
  {
    label: "change constraint",
    detail: "Exactly these rows were added, removed or changed since the reference",
    body: `kind: \${1|addition,removal,update|}\ntable: ${tableChoice(2, tables)}\ntarget:\n  - $0`,
  },
  {
    label: "message constraint",
    detail: "A message of the conversation (SANDBOX)",
    body: "kind: snapshot\ntable: SANDBOX\ntarget:\n  - sender: ${1|agent,user,execution_environment|}\n    recipient: ${2|user,agent,execution_environment|}\n    content: $0",
  },
  {
    label: "tool call constraint",
    detail: "A tool call the agent made (SANDBOX tool trace)",
    body: "kind: snapshot\ntable: SANDBOX\ntarget:\n  - sender: execution_environment\n    recipient: agent\n    tool_trace:\n      tool_name: $1\n      arguments: { $0 }",
  },
];

export const STEP_SNIPPETS: readonly Snippet[] = [
  { label: "calls step", detail: "An agent turn of tool calls", body: "calls:\n  - tool: $1\n    arguments: { $0 }" },
  { label: "agent step", detail: "Text the agent says to the user", body: "agent: ${1:text}" },
  { label: "user step", detail: "Text the user says to the agent", body: "user: ${1:text}" },
  { label: "end_conversation step", detail: "The user ends the conversation", body: "end_conversation: true$0" },
];

/** A minimal scenario that passes the checker, for an empty file. */
export const SKELETON_SNIPPET: Snippet = {
  label: "scenario skeleton",
  detail: "A minimal valid scenario",
  body:
    "name: ${1:my_scenario}\n" +
    "description: ${2:What this scenario tests.}\n" +
    "user:\n" +
    "  goal: ${3:Find out Homer S's phone number.}\n" +
    "  opening: ${4:What's Homer's number?}\n" +
    "milestones:\n" +
    "  - id: ${5:found_contact}\n" +
    "    constraints:\n" +
    "      - kind: snapshot\n" +
    "        table: SANDBOX\n" +
    "        target:\n" +
    "          - sender: execution_environment\n" +
    "            recipient: agent\n" +
    "            tool_trace: { tool_name: search_contacts }\n" +
    "reference:\n" +
    "  - calls:\n" +
    "      - tool: search_contacts\n" +
    "        arguments: { name: Homer S }\n" +
    "  - agent: ${6:Homer S's number is +10000000000.}\n" +
    "  - end_conversation: true\n$0",
};

/** The snippet body with every line after the first indented by `indent` spaces. */
export function indentBody(body: string, indent: number): string {
  const pad = " ".repeat(Math.max(0, indent));
  return body
    .split("\n")
    .map((line, i) => (i === 0 || line.length === 0 ? line : pad + line))
    .join("\n");
}

/** The snippet with its placeholders replaced by their defaults: plain text for a workspace edit. */
export function snippetToText(body: string): string {
  return body
    .replace(/\$\{\d+\|([^,|}]*)[^}]*\|\}/g, "$1")
    .replace(/\$\{\d+:([^}]*)\}/g, "$1")
    .replace(/\$\{?\d+\}?/g, "")
    .replace(/\\([$}\\])/g, "$1");
}

export function escapeSnippet(text: string): string {
  return text.replace(/[$}\\]/g, (c) => `\\${c}`);
}

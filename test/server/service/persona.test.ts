// The language service knows `agent.persona` from the scenario schema: its key, its fields, the 16
// MBTI types, and their descriptions on hover.
import { test } from "node:test";
import assert from "node:assert/strict";
import type { CompletionList } from "vscode-languageserver";
import { completion } from "../../../server/service/completion.js";
import { hover } from "../../../server/service/hover.js";
import { MBTI_TYPES } from "../../../engine/scenario/model.js";
import { withCursor } from "./cursor.js";

const HEAD = `name: demo
user: { goal: g, opening: o }
`;

function labels(text: string): string[] {
  const { doc, position } = withCursor(text);
  return (completion(doc, position) as CompletionList).items.map((i) => i.label);
}

function hoverText(text: string): string {
  const { doc, position } = withCursor(text);
  const contents = hover(doc, position)?.contents;
  return typeof contents === "object" && contents !== null && "value" in contents ? contents.value : String(contents);
}

test("completion offers persona in the agent section, then its fields, then the MBTI types", () => {
  assert.deepEqual(labels(`${HEAD}agent:\n  $0\n`).sort(), ["persona", "system_prompt"]);
  assert.deepEqual(labels(`${HEAD}agent:\n  persona:\n    name: Nova\n    $0\n`).sort(), [
    "emotional_traits",
    "gender",
    "language_features",
    "mbti",
  ]);
  assert.deepEqual(labels(`${HEAD}agent:\n  persona:\n    name: Nova\n    mbti: $0\n`), [...MBTI_TYPES]);
});

test("hover on a persona key shows the schema's description", () => {
  assert.match(hoverText(`${HEAD}agent:\n  pers$0ona:\n    name: Nova\n`), /character the agent plays/);
  assert.match(hoverText(`${HEAD}agent:\n  persona:\n    name: Nova\n    mb$0ti: INTJ\n`), /Myers-Briggs/);
});

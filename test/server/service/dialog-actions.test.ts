// The language service and the checker know DialogTool's `action:` on a reference `agent:` step:
// completion offers the nine actions with what each means, hover explains the one written, an
// unknown action, an action on another kind of step and two step keys are reported; hover on a
// transactional tool says it needs the user's confirmation.
import { test } from "node:test";
import assert from "node:assert/strict";
import type { CompletionList } from "vscode-languageserver";
import { completion } from "../../../server/service/completion.js";
import { documentDiagnostics } from "../../../server/service/diagnostics.js";
import { hover } from "../../../server/service/hover.js";
import { DIALOG_ACTIONS } from "../../../engine/scenario/dialog-actions.js";
import { scenarioDoc, withCursor } from "./cursor.js";

const HEAD = `name: demo
user: { goal: g, opening: o }
reference:
`;

function hoverText(text: string): string {
  const { doc, position } = withCursor(text);
  const contents = hover(doc, position)?.contents;
  return typeof contents === "object" && contents !== null && "value" in contents ? contents.value : String(contents);
}

const problems = (text: string): { code: unknown; message: string }[] =>
  documentDiagnostics(scenarioDoc(text)).map((d) => ({
    code: d.code,
    message: typeof d.message === "string" ? d.message : d.message.value,
  }));

test("completion offers DialogTool's nine actions on an agent step, each with what it means", () => {
  const { doc, position } = withCursor(`${HEAD}  - agent: Shall I send it?\n    action: $0\n  - end_conversation: true\n`);
  const items = (completion(doc, position) as CompletionList).items;
  assert.deepEqual(
    items.map((i) => i.label),
    [...DIALOG_ACTIONS],
  );
  assert.match(String(items.find((i) => i.label === "Confirm")?.detail), /confirm before a transactional tool/);
});

test("hover on an action explains it; a written action passes the checker", () => {
  const text = `${HEAD}  - agent: Shall I send it?\n    action: Con$0firm\n  - end_conversation: true\n`;
  assert.match(hoverText(text), /\*\*Confirm\*\* \(DialogTool action\)/);
  assert.deepEqual(problems(text.replace("$0", "")), []);
});

test("an unknown action, an action on a calls step and two step keys are each reported", () => {
  const unknown = problems(`${HEAD}  - agent: hi\n    action: Confrim\n  - end_conversation: true\n`);
  assert.equal(unknown.length, 1, JSON.stringify(unknown));
  assert.match(unknown[0]?.message ?? "", /Confirm/);
  const onCalls = problems(
    `${HEAD}  - calls: [{ tool: get_wifi_status }]\n    action: Inform\n  - agent: on\n  - end_conversation: true\n`,
  );
  assert.deepEqual(
    onCalls.map((p) => p.code),
    ["reference-action"],
  );
  const twoKeys = problems(`${HEAD}  - agent: hi\n    user: there\n  - end_conversation: true\n`);
  assert.ok(
    twoKeys.some((p) => p.code === "reference-step-keys"),
    JSON.stringify(twoKeys),
  );
});

test("hover on a transactional tool says the user must confirm it first; a read-only tool does not", () => {
  const call = (tool: string): string => `${HEAD}  - calls: [{ tool: ${tool}$0 }]\n  - agent: done\n  - end_conversation: true\n`;
  assert.match(hoverText(call("set_wifi_status")), /transactional: confirm with the user before calling it/);
  assert.doesNotMatch(hoverText(call("get_wifi_status")), /transactional/);
});

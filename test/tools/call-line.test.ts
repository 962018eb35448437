// Call lines as a person types them (engine/tools/call-line.ts) and their completion
// (engine/tools/call-completion.ts): the split into name and arguments, the line written for a call
// reading back to the same call, and the candidates Tab offers at each point of a line.
import { test } from "node:test";
import assert from "node:assert/strict";
import { completeCallLine, type CompletableTool } from "../../engine/tools/call-completion.js";
import { CallLineError, callLineText, parseArguments, splitCallLine } from "../../engine/tools/call-line.js";
import type { ToolParameter } from "../../engine/tools/types.js";
import type { Tables } from "../../engine/world/types.js";

test("a call line splits into the name and the argument text; anything else is not a call", () => {
  assert.deepEqual(splitCallLine('  search_contacts (name="Fredrik")  '), { name: "search_contacts", argumentText: 'name="Fredrik"' });
  assert.deepEqual(splitCallLine("get_wifi_status()"), { name: "get_wifi_status", argumentText: "" });
  assert.equal(splitCallLine("Your wifi is off."), null);
  assert.equal(splitCallLine('search_contacts(name="Fredrik"'), null);
});

test("the line written for a call reads back as the same arguments, escapes and all", () => {
  const args = { content: 'Line one\nline "two" \u0001 é', n: 3.5, on: false, none: null, tags: ["a", "b"], nested: { k: [1] } };
  const line = callLineText("send_message", args);
  assert.ok(!line.includes("\n"), line);
  const split = splitCallLine(line);
  assert.ok(split);
  assert.equal(split.name, "send_message");
  assert.deepEqual(parseArguments(split.argumentText), args);
});

test("a bad argument text is a CallLineError naming the column", () => {
  assert.throws(
    () => parseArguments("on=maybe"),
    (e: unknown) => e instanceof CallLineError && e.message === "expected a value at column 4 of the arguments",
  );
  assert.throws(() => parseArguments('name="x'), /a string in the arguments is not closed/);
});

const param = (name: string, type: ToolParameter["type"], required = false): ToolParameter => ({
  name,
  type,
  description: "",
  required,
  annotation: "",
});
const TOOLS: readonly CompletableTool[] = [
  { name: "search_contacts", parameters: [param("name", "string"), param("phone_number", "string"), param("is_self", "boolean")] },
  { name: "send_message_with_phone_number", parameters: [param("phone_number", "string", true), param("content", "string", true)] },
  { name: "set_wifi_status", parameters: [param("on", "boolean", true)] },
];
const WORLD: Tables = {
  CONTACT: [
    { person_id: "p1", name: "Fredrik Thordendal", phone_number: "+12453344098", is_self: false },
    { person_id: "p2", name: "Homer S", phone_number: "+10000000000", is_self: true },
  ],
  MESSAGE: [{ message_id: "m1", recipient_phone_number: "+19876543210", content: "Hi" }],
};

test("completion offers tool names, then the arguments not given yet, then values from the world", () => {
  const complete = (line: string) => completeCallLine(line, TOOLS, WORLD, ["/quit", "/tools"]);
  assert.deepEqual(complete("se"), {
    candidates: ["search_contacts(", "send_message_with_phone_number(", "set_wifi_status("],
    fragment: "se",
  });
  assert.deepEqual(complete("sea"), { candidates: ["search_contacts("], fragment: "sea" });
  assert.deepEqual(complete("/q"), { candidates: ["/quit"], fragment: "/q" });
  assert.deepEqual(complete("search_contacts("), { candidates: ["is_self=", "name=", "phone_number="], fragment: "" });
  assert.deepEqual(complete('search_contacts(name="a, b", '), { candidates: ["is_self=", "phone_number="], fragment: "" });
  assert.deepEqual(complete("search_contacts(name="), { candidates: ['"Fredrik Thordendal"', '"Homer S"'], fragment: "" });
  assert.deepEqual(complete('search_contacts(name="Fr'), { candidates: ['"Fredrik Thordendal"'], fragment: '"Fr' });
  // A column that ends with the argument's name counts too (the numbers messages went to).
  assert.deepEqual(complete("send_message_with_phone_number(phone_number="), {
    candidates: ['"+10000000000"', '"+12453344098"', '"+19876543210"'],
    fragment: "",
  });
  assert.deepEqual(complete("set_wifi_status(on="), { candidates: ["True", "False"], fragment: "" });
  assert.deepEqual(complete("search_contacts(is_self=F"), { candidates: ["False"], fragment: "F" });
  // Past the closing parenthesis, or for a name that is no tool, nothing is offered.
  assert.deepEqual(complete("set_wifi_status(on=True) "), { candidates: [], fragment: "" });
  assert.deepEqual(complete("nothing(x="), { candidates: [], fragment: "" });
});

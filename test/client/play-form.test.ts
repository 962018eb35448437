// Issue 36, "Play Scenario as Agent…": the form is built from each tool's JSON Schema (a field per
// argument, typed by the schema, the world's values offered), and what is typed in it is read by
// the field's kind before anything is sent to the host.
import { test } from "node:test";
import assert from "node:assert/strict";
import { fieldFromSchema, playTools } from "../../engine/panel/play-form.js";
import type { PlayTool } from "../../engine/panel/play-protocol.js";
import { formArguments } from "../../client/webview/model/play-arguments.js";
import { resolveScenario, scenarioText } from "./fixtures.js";

test("each JSON Schema type gets its field kind; arrays, objects and untyped properties are JSON", () => {
  const kind = (property: Record<string, unknown>): string => fieldFromSchema("x", property, true, []).kind;
  assert.equal(kind({ type: "string" }), "string");
  assert.equal(kind({ type: "integer" }), "integer");
  assert.equal(kind({ type: "number" }), "number");
  assert.equal(kind({ type: "boolean" }), "boolean");
  assert.equal(kind({ type: ["string", "null"] }), "string");
  assert.equal(kind({ type: "array", items: { type: "string" } }), "json");
  assert.equal(kind({ type: "object" }), "json");
  assert.equal(kind({ type: ["string", "integer"] }), "json");
  assert.equal(kind({ description: "no type at all (arg_type_scrambled)" }), "json");
});

test("an enum is a choice of its values, whatever its type says", () => {
  const field = fieldFromSchema("unit", { type: "string", enum: ["celsius", "fahrenheit"], description: "The unit." }, false, ["kelvin"]);
  assert.equal(field.kind, "enum");
  assert.deepEqual(field.options, ['"celsius"', '"fahrenheit"']);
  assert.deepEqual(field.suggestions, [], "an enum offers its own values only");
  assert.equal(field.description, "The unit.");
  assert.equal(field.required, false);
});

test("a JSON field is offered no world values: a cell's text is not the JSON it wants", () => {
  assert.deepEqual(fieldFromSchema("tags", { type: "array" }, false, ["a"]).suggestions, []);
  assert.deepEqual(fieldFromSchema("name", { type: "string" }, false, ["Fredrik Thordendal"]).suggestions, ["Fredrik Thordendal"]);
});

test("a sample's form lists the agent's tools with typed fields, required ones marked, and the world's values", () => {
  const scenario = resolveScenario(scenarioText("remove_contact_by_phone_adapted"));
  const tools = playTools(scenario, scenario.world.tables);
  const search = tools.find((t) => t.name === "search_contacts");
  assert.ok(search, `search_contacts in ${tools.map((t) => t.name).join(", ")}`);
  assert.match(search.description, /contact/i);
  const phone = search.fields.find((f) => f.name === "phone_number");
  assert.equal(phone?.kind, "string");
  assert.equal(phone?.required, false);
  assert.ok(phone?.suggestions.includes("+12453344098"), `the world's phone numbers: ${phone?.suggestions.join(", ")}`);
  const remove = tools.find((t) => t.name === "remove_contact");
  assert.deepEqual(
    remove?.fields.map((f) => [f.name, f.kind, f.required]),
    [["person_id", "string", true]],
  );
  const cellular = tools.find((t) => t.name === "set_cellular_service_status");
  if (cellular)
    assert.deepEqual(
      cellular.fields.map((f) => [f.name, f.kind]),
      [["on", "boolean"]],
    );
});

test("scrambled tool names are the names the form calls", () => {
  const text = scenarioText("cellular_off_adapted").replace(/^options:.*$/m, "");
  const scrambled = resolveScenario(`${text.trimEnd()}\noptions:\n  augmentations: [tool_name_scrambled]\n`);
  const names = playTools(scrambled, scrambled.world.tables).map((t) => t.name);
  assert.ok(!names.includes("set_cellular_service_status"), names.join(", "));
  assert.ok(names.length > 0);
});

const TOOL: PlayTool = {
  name: "t",
  description: "",
  fields: [
    { name: "text", description: "", required: true, kind: "string", options: [], suggestions: [] },
    { name: "count", description: "", required: false, kind: "integer", options: [], suggestions: [] },
    { name: "ratio", description: "", required: false, kind: "number", options: [], suggestions: [] },
    { name: "on", description: "", required: false, kind: "boolean", options: [], suggestions: [] },
    { name: "unit", description: "", required: false, kind: "enum", options: ['"c"', '"f"'], suggestions: [] },
    { name: "tags", description: "", required: false, kind: "json", options: [], suggestions: [] },
  ],
};

test("the form's texts become the call's arguments by each field's kind; empty fields are not given", () => {
  const texts = new Map([
    ["text", " Hello "],
    ["count", "3"],
    ["ratio", "-2.5e1"],
    ["on", "false"],
    ["unit", '"f"'],
    ["tags", '["a", "b"]'],
  ]);
  assert.deepEqual(formArguments(TOOL, texts), {
    ok: true,
    arguments: { text: " Hello ", count: 3, ratio: -25, on: false, unit: "f", tags: ["a", "b"] },
  });
  assert.deepEqual(formArguments(TOOL, new Map([["count", "  "]])), { ok: true, arguments: {} });
});

test("a value that does not read as its field's kind is refused with the field named", () => {
  const problem = (name: string, text: string): string => {
    const read = formArguments(TOOL, new Map([[name, text]]));
    assert.equal(read.ok, false, `${name}=${text}`);
    return read.ok ? "" : read.problem;
  };
  assert.match(problem("count", "2.5"), /^count: "2.5" is not a whole number$/);
  assert.match(problem("count", "0x10"), /^count: .* is not a number$/);
  assert.match(problem("ratio", "Infinity"), /not a number/);
  assert.match(problem("on", "yes"), /^on: "yes" is not true or false$/);
  assert.match(problem("unit", '"k"'), /^unit: "k" is not one of "c", "f"$/);
  assert.match(problem("tags", "[a]"), /^tags: \[a\] is not JSON/);
});

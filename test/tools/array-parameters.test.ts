// Array parameters (a list of strings, ToolTalk's only list kind): the type check, the schema the
// agent is shown, the catalog entry, and what the tool trace records.
import { test } from "node:test";
import assert from "node:assert/strict";
import { fitsToolScanType } from "../../engine/tools/toolscan-checks.js";
import { toolScanTypeRepr } from "../../engine/tools/toolscan-checks.js";
import { packById } from "../../engine/packs/registry.js";
import { catalogEntry } from "../../engine/tools/catalog-entry.js";
import { executeTool } from "../../engine/tools/execute.js";
import { openAiToolSchemaFrom } from "../../engine/tools/openai-schema.js";
import type { ToolDefinition, ToolParameter } from "../../engine/tools/types.js";
import { makeContext } from "./fixtures.js";

const TO: ToolParameter = { name: "to", type: "array", description: "Addresses.", required: true, annotation: "typing.List[str]" };

const echo: ToolDefinition = {
  name: "echo_list",
  module: "test",
  domain: "Test",
  docstring: "Echo the list.\n\nArgs:\n    to: Addresses.",
  parameters: [TO],
  returns: { description: "", schema: {} },
  action: false,
  stateDependencies: [],
  errors: [],
  visibleTo: ["agent"],
  webBacked: false,
  typechecked: true,
  run: (args) => args.to ?? null,
};

test("a list of strings passes the type check and is recorded in the trace as given", () => {
  const out = executeTool(echo, { to: ["a@b.com", "c@d.com"] }, makeContext());
  assert.ok(out.ok);
  assert.deepEqual(out.trace.arguments, { to: ["a@b.com", "c@d.com"] });
  assert.equal(out.text, "['a@b.com', 'c@d.com']");
});

test("a scalar or a list with a non-string item fails with a Python-style TypeError", () => {
  const scalar = executeTool(echo, { to: "a@b.com" }, makeContext());
  assert.equal(scalar.text, "TypeError: Parameter 'to' is of type '<class 'str'>', but expected 'typing.List[str]'.");
  const item = executeTool(echo, { to: ["a@b.com", 3] }, makeContext());
  assert.equal(item.text, "TypeError: Parameter 'to' holds an item of type '<class 'int'>', but expected 'typing.List[str]'.");
});

test("the agent sees an array parameter as a list of strings", () => {
  const schema = openAiToolSchemaFrom({ name: "echo_list", docstring: echo.docstring, parameters: [TO] });
  assert.deepEqual(schema.function.parameters.properties.to, { type: "array", items: { type: "string" }, description: "Addresses." });
  const untyped = openAiToolSchemaFrom({ name: "echo_list", docstring: echo.docstring, parameters: [{ ...TO, type: null }] });
  assert.deepEqual(untyped.function.parameters.properties.to, { description: "Addresses." });
});

test("the catalog entry of a ToolTalk tool describes its array parameter with items", () => {
  const sendEmail = packById("tooltalk").toolByName("SendEmail");
  assert.ok(sendEmail);
  const parameters = catalogEntry(sendEmail).parameters as { properties: Record<string, { type: unknown; items?: unknown }> };
  assert.equal(parameters.properties.to?.type, "array");
  assert.deepEqual(parameters.properties.to?.items, { type: "string" });
});

test("ToolScan's type check and its type text know lists", () => {
  assert.ok(fitsToolScanType(["a"], TO));
  assert.ok(!fitsToolScanType("a", TO));
  assert.equal(toolScanTypeRepr("array"), "<class 'list'>");
});

import { test } from "node:test";
import assert from "node:assert/strict";
import { CONTACT_TOOLS } from "../../engine/packs/toolsandbox/tools/contact.js";
import { executeTool } from "../../engine/tools/execute.js";
import { REMINDER_TOOLS } from "../../engine/packs/toolsandbox/tools/reminder.js";
import { ToolError, type ToolDefinition, type ToolParameter } from "../../engine/tools/types.js";
import { findTool, makeContext } from "./fixtures.js";

const addContact = findTool(CONTACT_TOOLS, "add_contact");

/** A bare tool for exercising binding and type checks; `run` echoes what it was given. */
function probe(parameters: ToolParameter[], overrides: Partial<ToolDefinition> = {}): ToolDefinition {
  return {
    name: "probe",
    module: "utilities",
    domain: "Test",
    docstring: "Probe.",
    parameters,
    returns: { description: "", schema: {} },
    action: false,
    stateDependencies: [],
    errors: [],
    visibleTo: ["agent"],
    webBacked: false,
    typechecked: true,
    run: (args) => ({ ...args }),
    ...overrides,
  };
}

const FLOAT: ToolParameter = { name: "x", type: "number", description: "", required: true, annotation: "<class 'float'>" };
const INT: ToolParameter = { name: "x", type: "integer", description: "", required: true, annotation: "<class 'int'>" };
const STR: ToolParameter = { name: "x", type: "string", description: "", required: true, annotation: "<class 'str'>" };
const BOOL: ToolParameter = { name: "x", type: "boolean", description: "", required: true, annotation: "<class 'bool'>" };

test("a missing required argument is reported before an unknown one", () => {
  const out = executeTool(addContact, { phone_number: "+15550100", foo: 1 }, makeContext());
  assert.equal(out.text, "TypeError: missing a required argument: 'name'");
  assert.equal(out.ok, false);
});

test("the first missing argument in signature order is the one reported", () => {
  assert.equal(executeTool(addContact, { relationship: "x" }, makeContext()).text, "TypeError: missing a required argument: 'name'");
});

test("the first unknown argument in the caller's order is the one reported", () => {
  const out = executeTool(addContact, { name: "A", phone_number: "+15550100", zeta: 1, alpha: 2 }, makeContext());
  assert.equal(out.text, "TypeError: got an unexpected keyword argument 'zeta'");
});

test("argument names in binding errors are Python reprs", () => {
  const out = executeTool(addContact, { name: "A", phone_number: "+15550100", "it's": 1 }, makeContext());
  assert.equal(out.text, `TypeError: got an unexpected keyword argument "it's"`);
});

test("types are checked in parameter order after binding", () => {
  const out = executeTool(addContact, { is_self: "no", phone_number: 5, name: "A" }, makeContext());
  assert.equal(out.text, "TypeError: Parameter 'phone_number' is of type '<class 'int'>', but expected '<class 'str'>'.");
});

test("an int passes where a float is expected, a bool where an int or float is; nothing else converts", () => {
  const ctx = makeContext();
  assert.equal(executeTool(probe([FLOAT]), { x: 3 }, ctx).ok, true);
  assert.equal(executeTool(probe([FLOAT]), { x: true }, ctx).ok, true);
  assert.equal(executeTool(probe([INT]), { x: false }, ctx).ok, true);
  assert.equal(
    executeTool(probe([INT]), { x: 2.5 }, ctx).text,
    "TypeError: Parameter 'x' is of type '<class 'float'>', but expected '<class 'int'>'.",
  );
  assert.equal(
    executeTool(probe([STR]), { x: 3 }, ctx).text,
    "TypeError: Parameter 'x' is of type '<class 'int'>', but expected '<class 'str'>'.",
  );
  assert.equal(
    executeTool(probe([BOOL]), { x: 0 }, ctx).text,
    "TypeError: Parameter 'x' is of type '<class 'int'>', but expected '<class 'bool'>'.",
  );
  assert.equal(
    executeTool(probe([FLOAT]), { x: "3" }, ctx).text,
    "TypeError: Parameter 'x' is of type '<class 'str'>', but expected '<class 'float'>'.",
  );
  assert.equal(
    executeTool(probe([STR]), { x: [] }, ctx).text,
    "TypeError: Parameter 'x' is of type '<class 'list'>', but expected '<class 'str'>'.",
  );
  assert.equal(
    executeTool(probe([STR]), { x: {} }, ctx).text,
    "TypeError: Parameter 'x' is of type '<class 'dict'>', but expected '<class 'str'>'.",
  );
});

test("None passes only for a nullable parameter", () => {
  const ctx = makeContext();
  assert.equal(
    executeTool(probe([FLOAT]), { x: null }, ctx).text,
    "TypeError: Parameter 'x' is of type '<class 'NoneType'>', but expected '<class 'float'>'.",
  );
  const optional: ToolParameter = { ...FLOAT, required: false, default: null, nullable: true, annotation: "typing.Optional[float]" };
  assert.equal(executeTool(probe([optional]), { x: null }, ctx).ok, true);
});

test("a tool that is not typechecked gets its arguments unchecked", () => {
  const out = executeTool(probe([STR], { typechecked: false }), { x: 3 }, makeContext());
  assert.equal(out.ok, true);
  assert.equal(out.ok && JSON.stringify(out.result), '{"x":3}');
});

test("the trace lists arguments in signature order with defaults filled in and NOT_GIVEN ones left out", () => {
  const modify = findTool(REMINDER_TOOLS, "modify_reminder");
  const ctx = makeContext();
  const id = "8f5b6fc6-1c25-5467-91ba-d4d1e17c7129";
  const out = executeTool(modify, { longitude: 1.5, reminder_id: id, latitude: 2 }, ctx);
  assert.ok(out.ok);
  assert.deepEqual(Object.keys(out.trace.arguments), ["reminder_id", "latitude", "longitude"]);
  const add = executeTool(addContact, { is_self: false, phone_number: "+15550100", name: "A" }, ctx);
  assert.ok(add.ok);
  assert.deepEqual(Object.entries(add.trace.arguments), [
    ["name", "A"],
    ["phone_number", "+15550100"],
    ["relationship", null],
    ["is_self", false],
  ]);
  assert.equal(add.trace.tool_name, "add_contact");
});

test("the success text is the repr of the result typed by the return schema", () => {
  const def = probe([], {
    run: () => ({ t: 3, n: 3 }),
    returns: { description: "", schema: { type: "object", properties: { t: { type: "number" } } } },
  });
  assert.equal(executeTool(def, {}, makeContext()).text, "{'t': 3.0, 'n': 3}");
});

test("a ToolError keeps the world changes made before it, and gives no trace", () => {
  const ctx = makeContext();
  const def = probe([], {
    run: (_args, c) => {
      c.world.insert("CONTACT", { person_id: "p", name: "Half Done", phone_number: "+15550100", relationship: null, is_self: false });
      throw new ToolError("RuntimeError", "failed halfway");
    },
  });
  const out = executeTool(def, {}, ctx);
  assert.equal(out.ok, false);
  assert.equal(out.text, "RuntimeError: failed halfway");
  assert.equal("trace" in out, false);
  assert.equal(ctx.world.changes().length, 1);
  assert.equal(ctx.world.rows("CONTACT").at(-1)?.name, "Half Done");
});

test("any other exception is a bug in the tool and propagates", () => {
  const def = probe([], {
    run: () => {
      throw new RangeError("boom");
    },
  });
  assert.throws(() => executeTool(def, {}, makeContext()), RangeError);
});

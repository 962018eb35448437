// OpenAI function schemas derived from docstrings and parameters the way upstream derives them.
import { test } from "node:test";
import assert from "node:assert/strict";
import { toolByName } from "../../engine/packs/toolsandbox/tools/catalog.js";
import { openAiToolSchema, openAiToolSchemaFrom, parseDocstring } from "../../engine/tools/openai-schema.js";

test("the description joins the blocks before Args:/Returns:/Example: with a space, keeping line breaks inside", () => {
  const doc = "First block\nsecond line.\n\nSecond block.\n\nArgs:\n    a: The a.\n\nReturns:\n    Something.";
  assert.equal(parseDocstring(doc).description, "First block\nsecond line. Second block.");
  assert.equal(parseDocstring("Only a summary.").description, "Only a summary.");
});

test("blocks after Returns: or Example: are not description, but a later Args: is still read", () => {
  const doc = "Summary.\n\nReturns:\n    A thing.\n\nTrailing prose.\n\nArgs:\n    x: The x.";
  const parsed = parseDocstring(doc);
  assert.equal(parsed.description, "Summary.");
  assert.deepEqual([...parsed.args], [["x", "The x."]]);
  assert.equal(parseDocstring("Summary.\n\nExample:\n    f(1)\n\nMore.").description, "Summary.");
});

test("argument descriptions: one `name: text` line each, lines without a colon continue the previous one", () => {
  const doc = "S.\n\nArgs:\n    first:   Starts here\n             and goes on\n    second: Has: a colon\n\nReturns:\n    R.";
  assert.deepEqual(
    [...parseDocstring(doc).args],
    [
      ["first", "Starts here and goes on"],
      ["second", "Has: a colon"],
    ],
  );
});

test("properties carry type then description; untyped and undescribed parameters are left out", () => {
  const schema = openAiToolSchemaFrom({
    name: "utilities_3",
    docstring: "Do it.\n\nArgs:\n    a: The a.\n    c: The c.\n\nReturns:\n    Nothing.",
    parameters: [
      { name: "a", type: "string", required: true },
      { name: "b", type: "integer", required: false },
      { name: "c", type: null, required: false },
      { name: "d", type: null, required: true },
    ],
  });
  assert.deepEqual(schema, {
    type: "function",
    function: {
      name: "utilities_3",
      description: "Do it.",
      parameters: {
        type: "object",
        properties: { a: { type: "string", description: "The a." }, b: { type: "integer" }, c: { description: "The c." } },
        required: ["a", "d"],
      },
    },
  });
  assert.deepEqual(Object.keys(schema.function.parameters.properties.a!), ["type", "description"]);
});

test("argument-description scrambling (Args block emptied) leaves typed properties without descriptions", () => {
  const def = toolByName("calculate_lat_lon_distance")!;
  const scrambled = def.docstring.replace(/(?<=Args:\n)([\s\S]*?)(?=\nReturns)/, "");
  const schema = openAiToolSchemaFrom({ name: def.name, docstring: scrambled, parameters: def.parameters });
  assert.deepEqual(schema.function.parameters.properties, {
    latitude_0: { type: "number" },
    longitude_0: { type: "number" },
    latitude_1: { type: "number" },
    longitude_1: { type: "number" },
  });
  assert.equal(schema.function.description, openAiToolSchema(def).function.description);
});

test("catalog tools: search_holiday, get_current_timestamp and convert_currency", () => {
  assert.deepEqual(openAiToolSchema(toolByName("search_holiday")!), {
    type: "function",
    function: {
      name: "search_holiday",
      description:
        "Look up the date of a United States holiday by its name. The date is given as the POSIX timestamp of its local midnight.",
      parameters: {
        type: "object",
        properties: {
          holiday_name: { type: "string", description: "Name of the holiday as people say it, e.g. Thanksgiving." },
          year: { type: "integer", description: "Optional. The year to look in; the current year when left out." },
        },
        required: ["holiday_name"],
      },
    },
  });
  assert.deepEqual(openAiToolSchema(toolByName("get_current_timestamp")!).function.parameters, {
    type: "object",
    properties: {},
    required: [],
  });
  const currency = openAiToolSchema(toolByName("convert_currency")!).function.parameters;
  assert.equal(currency.properties.amount?.type, "number");
  assert.deepEqual(currency.required, ["amount", "from_currency_code", "to_currency_code"]);
  const weather = openAiToolSchema(toolByName("search_weather_around_lat_lon")!);
  assert.deepEqual(weather.function.parameters.required, []);
  assert.match(weather.function.description, /\nthe conditions/);
});

test("every catalog schema is valid JSON with no additionalProperties or strict flag", () => {
  for (const name of ["add_contact", "search_messages", "modify_reminder", "set_wifi_status", "end_conversation", "unit_conversion"]) {
    const schema = openAiToolSchema(toolByName(name)!);
    const text = JSON.stringify(schema);
    assert.doesNotMatch(text, /additionalProperties|strict/, name);
    assert.deepEqual(JSON.parse(text), schema);
  }
});

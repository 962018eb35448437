import { test } from "node:test";
import assert from "node:assert/strict";
import {
  executionErrorFeedback,
  formatErrorFeedback,
  invalidArgumentNameFeedback,
  invalidArgumentTypeFeedback,
  missingArgumentFeedback,
  toolScanTypeRepr,
  unknownFunctionFeedback,
} from "../../../engine/tools/toolscan-checks.js";

test("format error, with and without the parser's exception, keeps ToolScan's spelling and spacing", () => {
  assert.equal(
    formatErrorFeedback({ name: "SyntaxError", message: "invalid syntax" }),
    'ERROR | SyntaxError(invalid syntax) Format error, please response in the format of  "Action: [your action] with Action Input: [your action input]',
  );
  assert.equal(
    formatErrorFeedback(null),
    'ERROR |  Format error, please response in the format of  "Action: [your action] with Action Input: [your action input]',
  );
});

test("unknown function lists the offered names as a Python list", () => {
  assert.equal(
    unknownFunctionFeedback("get_weather", ["get_wifi_status", "set_wifi_status"]),
    "ERROR | Incorrect function name get_weather please refer to the list of function calls available ['get_wifi_status', 'set_wifi_status']",
  );
});

test("invalid argument names: one message per name, run together", () => {
  assert.equal(
    invalidArgumentNameFeedback("set_wifi_status", ["enabled", "now"], ["on"]),
    "ERROR | Incorrect argument name enabled for function set_wifi_status, Valid arguments are ['on']" +
      "ERROR | Incorrect argument name now for function set_wifi_status, Valid arguments are ['on']",
  );
  assert.equal(
    invalidArgumentNameFeedback("get_wifi_status", ["verbose"], []),
    "ERROR | Incorrect argument name verbose for function get_wifi_status, this function does not require any arguments.",
  );
});

test("missing required arguments are listed together", () => {
  assert.equal(
    missingArgumentFeedback("send_message_with_phone_number", ["phone_number", "content"]),
    "ERROR | Insufficient required arguments for function send_message_with_phone_number, Please add the required argument ['phone_number', 'content']",
  );
});

test("invalid argument types print the Python type ToolScan checks against", () => {
  assert.equal(
    invalidArgumentTypeFeedback("set_wifi_status", [{ argument: "on", expected: toolScanTypeRepr("boolean") }]),
    "ERROR | Incorrect argument type for on for function set_wifi_status, Valid argument type is <class 'bool'>",
  );
  assert.equal(toolScanTypeRepr("string"), "<class 'str'>");
  assert.equal(toolScanTypeRepr("number"), "(<class 'int'>, <class 'float'>, <class 'complex'>)");
  assert.equal(toolScanTypeRepr("integer"), "<class 'int'>");
});

test("an execution error is wrapped as Name(message)", () => {
  assert.equal(
    executionErrorFeedback({ name: "ConnectionError", message: "Cellular service is not enabled" }),
    "ERROR | ConnectionError(Cellular service is not enabled)",
  );
});

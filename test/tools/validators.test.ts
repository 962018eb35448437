import { test } from "node:test";
import assert from "node:assert/strict";
import type { JsonValue } from "../../engine/base/json.js";
import { ToolError } from "../../engine/tools/types.js";
import {
  pyTypeOf,
  validateCurrencyCode,
  validateLatitude,
  validateLongitude,
  validatePhoneNumber,
  validateRange,
  validateTimestamp,
  validateType,
} from "../../engine/tools/validators.js";

/** The agent-visible text of the ToolError `fn` throws, or "ok" when it does not throw. */
function outcome(fn: () => void): string {
  try {
    fn();
    return "ok";
  } catch (e) {
    if (e instanceof ToolError) return e.agentText;
    throw e;
  }
}

const phone = (value: JsonValue | undefined) => outcome(() => validatePhoneNumber(value));
const PARSE = "phonenumbers.phonenumberutil.NumberParseException";

test("phone numbers with a leading + and country code parse; validity is not checked", () => {
  for (const ok of ["+11233344455", "+1234560987", "+10000000000", "+44 20 7946 0958", "+1 (650) 555-1234 ext 12", "+1 800 FLOWERS"]) {
    assert.equal(phone(ok), "ok", ok);
  }
  assert.equal(phone(undefined), "ok", "NOT_GIVEN is not checked");
});

test("phone numbers map google-libphonenumber failures to the Python library's texts", () => {
  assert.equal(phone("555-1234"), `${PARSE}: (0) Missing or invalid default region.`);
  assert.equal(phone("tel:12"), `${PARSE}: (0) Missing or invalid default region.`);
  assert.equal(phone("+999 1234567"), `${PARSE}: (0) Could not interpret numbers after plus-sign.`);
  assert.equal(phone("+011 44"), `${PARSE}: (0) Could not interpret numbers after plus-sign.`);
  assert.equal(phone(""), `${PARSE}: (1) The string supplied did not seem to be a phone number.`);
  assert.equal(phone("call me"), `${PARSE}: (1) The string supplied did not seem to be a phone number.`);
  assert.equal(phone("+861"), `${PARSE}: (3) The string supplied is too short to be a phone number.`);
  assert.equal(phone("+1 2345678901234567890"), `${PARSE}: (4) The string supplied is too long to be a phone number.`);
  assert.equal(phone("1".repeat(251)), `${PARSE}: (4) The string supplied was too long to parse.`);
});

test("non-string phone numbers fail as the Python library fails on them", () => {
  assert.equal(phone(null), `${PARSE}: (1) The phone number supplied was None.`);
  assert.equal(phone(5551234), "TypeError: object of type 'int' has no len()");
  assert.equal(phone(true), "TypeError: object of type 'bool' has no len()");
  assert.equal(phone(["+1"]), "AttributeError: 'list' object has no attribute 'find'");
});

test("timestamps must lie between 1980 and 2050, bounds included", () => {
  assert.equal(
    outcome(() => validateTimestamp(315529200, "t")),
    "ok",
  );
  assert.equal(
    outcome(() => validateTimestamp(2524604400, "t")),
    "ok",
  );
  assert.equal(
    outcome(() => validateTimestamp(315529199.9, "t")),
    "ValueError: Parameter 't' is smaller than its valid range minimum of 315529200.0.",
  );
  assert.equal(
    outcome(() => validateTimestamp(2524604400.5, "t")),
    "ValueError: Parameter 't' is larger than its valid range maximum of 2524604400.0.",
  );
  assert.equal(
    outcome(() => validateTimestamp(undefined, "t")),
    "ok",
  );
  assert.equal(
    outcome(() => validateTimestamp(null, "t")),
    "ok",
  );
});

test("latitude and longitude ranges print their bounds as floats", () => {
  assert.equal(
    outcome(() => validateLatitude(90, "lat")),
    "ok",
  );
  assert.equal(
    outcome(() => validateLatitude(-91, "lat")),
    "ValueError: Parameter 'lat' is smaller than its valid range minimum of -90.0.",
  );
  assert.equal(
    outcome(() => validateLongitude(180.5, "lon")),
    "ValueError: Parameter 'lon' is larger than its valid range maximum of 180.0.",
  );
  assert.equal(
    outcome(() => validateRange(true, "flag", 2)),
    "ValueError: Parameter 'flag' is smaller than its valid range minimum of 2.0.",
  );
});

test("validateType follows Python's numeric tower and prints the annotation as given", () => {
  assert.equal(
    outcome(() => validateType(1, "x", "number", "<class 'float'>")),
    "ok",
  );
  assert.equal(
    outcome(() => validateType(true, "x", "integer", "<class 'int'>")),
    "ok",
  );
  assert.equal(
    outcome(() => validateType(null, "x", "number", "typing.Optional[float]", true)),
    "ok",
  );
  assert.equal(
    outcome(() => validateType(1.5, "x", "integer", "typing.Optional[int]", true)),
    "TypeError: Parameter 'x' is of type '<class 'float'>', but expected 'typing.Optional[int]'.",
  );
  assert.deepEqual([null, true, "s", 1, 1.5, [], {}].map(pyTypeOf), ["NoneType", "bool", "str", "int", "float", "list", "dict"]);
});

test("currency codes must be known ISO 4217 codes, in any case", () => {
  assert.equal(
    outcome(() => validateCurrencyCode("USD")),
    "ok",
  );
  assert.equal(
    outcome(() => validateCurrencyCode("eur")),
    "ok",
  );
  assert.equal(
    outcome(() => validateCurrencyCode("XYZ")),
    "ValueError: XYZ is not a known 3 letter ISO 4217 currency code",
  );
  assert.equal(
    outcome(() => validateCurrencyCode("dollars")),
    "ValueError: dollars is not a known 3 letter ISO 4217 currency code",
  );
});

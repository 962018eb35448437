import { test } from "node:test";
import assert from "node:assert/strict";
import type { JsonValue } from "../../engine/base/json.js";
import { SETTING_TOOLS } from "../../engine/packs/toolsandbox/tools/setting.js";
import type { ToolContext } from "../../engine/tools/types.js";
import { call, makeContext, worldWithSettings } from "./fixtures.js";

const run = (name: string, args: Readonly<Record<string, JsonValue>>, ctx: ToolContext) => call(SETTING_TOOLS, name, args, ctx);
const LOW_BATTERY = { low_battery_mode: true, cellular: false, wifi: false, location_service: false };
const setting = (ctx: ReturnType<typeof makeContext>) => ctx.world.rows("SETTING")[0];

test("the status getters report each boolean setting as True or False", () => {
  const getters = {
    get_cellular_service_status: "cellular",
    get_wifi_status: "wifi",
    get_location_service_status: "location_service",
    get_low_battery_mode_status: "low_battery_mode",
  } as const;
  for (const [name, column] of Object.entries(getters)) {
    const expected = column !== "low_battery_mode";
    const out = run(name, {}, makeContext());
    assert.equal(out.text, expected ? "True" : "False", name);
    assert.equal(run(name, {}, makeContext(worldWithSettings({ [column]: !expected }))).text, expected ? "False" : "True", name);
  }
});

test("getters take no arguments", () => {
  assert.equal(run("get_wifi_status", { on: true }, makeContext()).text, "TypeError: got an unexpected keyword argument 'on'");
});

test("get_current_location returns the device position with float coordinates", () => {
  const out = run("get_current_location", {}, makeContext(worldWithSettings({ latitude: 40, longitude: -74.5 })));
  assert.equal(out.text, "{'latitude': 40.0, 'longitude': -74.5}");
  assert.equal(run("get_current_location", {}, makeContext()).text, "{'latitude': 37.334606, 'longitude': -122.009102}");
});

test("get_current_location needs location service", () => {
  const out = run("get_current_location", {}, makeContext(worldWithSettings({ location_service: false })));
  assert.equal(out.text, "PermissionError: Location service is not enabled.");
});

test("turning low battery mode on switches cellular, wifi and location service off", () => {
  const ctx = makeContext();
  const out = run("set_low_battery_mode_status", { on: true }, ctx);
  assert.equal(out.text, "None");
  assert.deepEqual(setting(ctx), { ...makeContext().world.rows("SETTING")[0], ...LOW_BATTERY });
  assert.deepEqual(
    ctx.world.changes().map((c) => (c.op === "update" ? Object.keys(c.new).filter((k) => c.new[k] !== c.old[k]) : [])),
    [["low_battery_mode"], ["cellular"], ["wifi"], ["location_service"]],
  );
});

test("turning low battery mode on leaves services that are already off alone", () => {
  const ctx = makeContext(worldWithSettings({ wifi: false }));
  assert.equal(run("set_low_battery_mode_status", { on: true }, ctx).ok, true);
  assert.equal(ctx.world.changes().length, 3);
  assert.equal(setting(ctx)?.wifi, false);
});

test("turning low battery mode off restores nothing", () => {
  const ctx = makeContext(worldWithSettings(LOW_BATTERY));
  assert.equal(run("set_low_battery_mode_status", { on: false }, ctx).ok, true);
  assert.deepEqual(setting(ctx), { ...makeContext().world.rows("SETTING")[0], ...LOW_BATTERY, low_battery_mode: false });
});

test("setting low battery mode to its current value is an error", () => {
  assert.equal(run("set_low_battery_mode_status", { on: false }, makeContext()).text, "ValueError: low_battery_mode already disabled");
  assert.equal(
    run("set_low_battery_mode_status", { on: true }, makeContext(worldWithSettings(LOW_BATTERY))).text,
    "ValueError: low_battery_mode already enabled",
  );
});

test("set_low_battery_mode_status checks the type of on by hand", () => {
  const ctx = makeContext();
  assert.equal(
    run("set_low_battery_mode_status", { on: 1 }, ctx).text,
    "TypeError: Parameter 'on' is of type '<class 'int'>', but expected '<class 'bool'>'.",
  );
  assert.equal(run("set_low_battery_mode_status", {}, ctx).text, "TypeError: missing a required argument: 'on'");
  assert.deepEqual(ctx.world.changes(), []);
});

const SERVICES = [
  {
    name: "set_cellular_service_status",
    column: "cellular",
    refusal: "PermissionError: Cellular service cannot be turned on in low battery mode",
  },
  { name: "set_wifi_status", column: "wifi", refusal: "PermissionError: Wifi cannot be turned on in low battery mode" },
  {
    name: "set_location_service_status",
    column: "location_service",
    refusal: "PermissionError: Location service cannot be turned on in low battery mode",
  },
] as const;

test("service setters switch their setting and refuse a no-op", () => {
  for (const { name, column } of SERVICES) {
    const ctx = makeContext();
    assert.equal(run(name, { on: true }, ctx).text, `ValueError: ${column} already enabled`, name);
    assert.equal(run(name, { on: false }, ctx).text, "None", name);
    assert.equal(setting(ctx)?.[column], false, name);
    assert.equal(run(name, { on: false }, ctx).text, `ValueError: ${column} already disabled`, name);
    assert.equal(run(name, { on: true }, ctx).text, "None", name);
    assert.equal(setting(ctx)?.[column], true, name);
    assert.equal(ctx.world.changes().length, 2, name);
  }
});

test("service setters cannot turn a service on in low battery mode, but may leave it off", () => {
  for (const { name, column, refusal } of SERVICES) {
    const ctx = makeContext(worldWithSettings(LOW_BATTERY));
    assert.equal(run(name, { on: true }, ctx).text, refusal, name);
    assert.equal(run(name, { on: false }, ctx).text, `ValueError: ${column} already disabled`, name);
    assert.deepEqual(ctx.world.changes(), [], name);
    const on = makeContext(worldWithSettings({ low_battery_mode: true }));
    assert.equal(run(name, { on: false }, on).text, "None", name);
  }
});

test("cellular and wifi setters check the type of on before the low battery check", () => {
  const ctx = makeContext(worldWithSettings(LOW_BATTERY));
  for (const name of ["set_cellular_service_status", "set_wifi_status"]) {
    assert.equal(
      run(name, { on: "yes" }, ctx).text,
      "TypeError: Parameter 'on' is of type '<class 'str'>', but expected '<class 'bool'>'.",
      name,
    );
  }
});

test("the location setter checks low battery mode first, on Python truthiness, then the type", () => {
  const name = "set_location_service_status";
  const lowBattery = makeContext(worldWithSettings(LOW_BATTERY));
  assert.equal(run(name, { on: "yes" }, lowBattery).text, "PermissionError: Location service cannot be turned on in low battery mode");
  assert.equal(run(name, { on: 1 }, lowBattery).text, "PermissionError: Location service cannot be turned on in low battery mode");
  assert.equal(
    run(name, { on: "" }, lowBattery).text,
    "TypeError: Parameter 'on' is of type '<class 'str'>', but expected '<class 'bool'>'.",
  );
  assert.equal(
    run(name, { on: null }, lowBattery).text,
    "TypeError: Parameter 'on' is of type '<class 'NoneType'>', but expected '<class 'bool'>'.",
  );
  assert.equal(
    run(name, { on: "yes" }, makeContext()).text,
    "TypeError: Parameter 'on' is of type '<class 'str'>', but expected '<class 'bool'>'.",
  );
});

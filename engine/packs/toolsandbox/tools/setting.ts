// The device-settings tools (upstream module `setting`). None of them is @typechecked upstream:
// the setters check `on` by hand, at the points where upstream does (see each tool), which makes
// the order of errors differ between them.
import type { JsonValue } from "../../../base/json.js";
import type { WorldTransaction } from "../../../world/transaction.js";
import type { Row } from "../../../world/types.js";
import { cellJson } from "../../../world/cells.js";
import { SETTING } from "../table-schemas.js";
import type { StateDependency, ToolDefinition, ToolParameter } from "../../../tools/types.js";
import { ToolError } from "../../../tools/types.js";
import { validateType } from "../../../tools/validators.js";

type BooleanSetting = "cellular" | "wifi" | "location_service" | "low_battery_mode";

const BOOL = "<class 'bool'>";
const TYPE_ERROR = "TypeError: Parameter 'on' is of type '…', but expected '<class 'bool'>'.";

function settingRow(world: WorldTransaction): Row {
  const row = world.rows(SETTING.name)[0];
  if (!row) throw new Error("the SETTING table has no row");
  return row;
}

/** Upstream's get_boolean_settings. Also read by other tool modules (cellular, wifi, location). */
export function getBooleanSetting(world: WorldTransaction, column: BooleanSetting): boolean {
  return settingRow(world)[column] === true;
}

/** Upstream's set_boolean_settings: checks the type of `on`, refuses a no-op, then flips the column. */
function setBooleanSetting(world: WorldTransaction, column: BooleanSetting, on: JsonValue | undefined): void {
  validateType(on ?? null, "on", "boolean", BOOL);
  if (getBooleanSetting(world, column) === on) {
    throw new ToolError("ValueError", `${column} already ${on ? "enabled" : "disabled"}`);
  }
  world.updateAt(SETTING.name, 0, { [column]: on === true });
}

/** Python truthiness of a JSON value (`if on and ...` runs before `on` is type-checked). */
function pyTruthy(value: JsonValue | undefined): boolean {
  if (value === undefined || value === null) return false;
  if (typeof value === "string") return value.length > 0;
  if (typeof value === "number") return value !== 0;
  if (typeof value === "boolean") return value;
  if (Array.isArray(value)) return value.length > 0;
  return Object.keys(value).length > 0;
}

function onParameter(what: string): ToolParameter {
  return { name: "on", type: "boolean", description: `True to turn ${what} on, False to turn it off.`, required: true, annotation: BOOL };
}

function lowBatteryBlocks(what: string, message: string): StateDependency {
  return {
    table: SETTING.name,
    column: "low_battery_mode",
    value: false,
    when: `only when turning ${what} on`,
    error: `PermissionError: ${message}`,
  };
}

// Descriptions say no more than upstream's do: which settings depend on which is for the agent to
// discover from the errors (the STATE_DEPENDENCY scenarios test exactly that).
const COMMON = { module: "setting", domain: "Setting", visibleTo: ["agent"], webBacked: false, typechecked: false } as const;
const NONE_RETURN = { description: "None.", schema: { type: "null" } };

const setLowBatteryModeStatus: ToolDefinition = {
  ...COMMON,
  name: "set_low_battery_mode_status",
  docstring: `Switch low battery mode on or off.

Args:
    on: True to turn low battery mode on, False to turn it off.

Returns:
    None.`,
  parameters: [onParameter("low battery mode")],
  returns: NONE_RETURN,
  action: true,
  stateDependencies: [],
  errors: [TYPE_ERROR, "ValueError: low_battery_mode already enabled", "ValueError: low_battery_mode already disabled"],
  run(args, ctx) {
    validateType(args.on ?? null, "on", "boolean", BOOL);
    setBooleanSetting(ctx.world, "low_battery_mode", args.on);
    if (args.on === true) {
      // Services already off are left alone (upstream swallows their "already disabled" error).
      for (const service of ["cellular", "wifi", "location_service"] as const) {
        if (getBooleanSetting(ctx.world, service)) setBooleanSetting(ctx.world, service, false);
      }
    }
    return null;
  },
};

/**
 * A setter for a service that low battery mode keeps off. `typeCheckFirst` reproduces upstream:
 * the cellular and wifi setters check the type of `on` before the low-battery check; the location
 * setter does not, so a truthy non-bool `on` in low battery mode gets the PermissionError.
 */
function serviceSetter(
  name: string,
  column: BooleanSetting,
  what: string,
  refusal: string,
  typeCheckFirst: boolean,
  summary: string,
): ToolDefinition {
  return {
    ...COMMON,
    name,
    docstring: `${summary}

Args:
    on: True to turn ${what} on, False to turn it off.

Returns:
    None.`,
    parameters: [onParameter(what)],
    returns: NONE_RETURN,
    action: true,
    stateDependencies: [lowBatteryBlocks(what, refusal)],
    errors: [`PermissionError: ${refusal}`, TYPE_ERROR, `ValueError: ${column} already enabled`, `ValueError: ${column} already disabled`],
    run(args, ctx) {
      if (typeCheckFirst) validateType(args.on ?? null, "on", "boolean", BOOL);
      if (pyTruthy(args.on) && getBooleanSetting(ctx.world, "low_battery_mode")) throw new ToolError("PermissionError", refusal);
      setBooleanSetting(ctx.world, column, args.on);
      return null;
    },
  };
}

function statusGetter(name: string, column: BooleanSetting, what: string): ToolDefinition {
  return {
    ...COMMON,
    name,
    docstring: `Report whether ${what} is on.

Returns:
    True when ${what} is on, False otherwise.`,
    parameters: [],
    returns: { description: `True when ${what} is on.`, schema: { type: "boolean" } },
    action: false,
    stateDependencies: [],
    errors: [],
    run: (_args, ctx) => getBooleanSetting(ctx.world, column),
  };
}

const LOCATION_OFF = "Location service is not enabled.";

const getCurrentLocation: ToolDefinition = {
  ...COMMON,
  name: "get_current_location",
  docstring: `Report the device's current latitude and longitude.

Returns:
    A dict holding the latitude and the longitude of the device.`,
  parameters: [],
  returns: {
    description: "The latitude and longitude of the device.",
    schema: { type: "object", properties: { latitude: { type: "number" }, longitude: { type: "number" } } },
  },
  action: false,
  stateDependencies: [{ table: SETTING.name, column: "location_service", value: true, error: `PermissionError: ${LOCATION_OFF}` }],
  errors: [`PermissionError: ${LOCATION_OFF}`],
  run(_args, ctx) {
    if (!getBooleanSetting(ctx.world, "location_service")) throw new ToolError("PermissionError", LOCATION_OFF);
    const row = settingRow(ctx.world);
    return { latitude: cellJson(row.latitude), longitude: cellJson(row.longitude) };
  },
};

/** The setting tools, alphabetically. */
export const SETTING_TOOLS: readonly ToolDefinition[] = [
  statusGetter("get_cellular_service_status", "cellular", "cellular service"),
  getCurrentLocation,
  statusGetter("get_location_service_status", "location_service", "location service"),
  statusGetter("get_low_battery_mode_status", "low_battery_mode", "low battery mode"),
  statusGetter("get_wifi_status", "wifi", "wifi"),
  serviceSetter(
    "set_cellular_service_status",
    "cellular",
    "cellular service",
    "Cellular service cannot be turned on in low battery mode",
    true,
    "Switch cellular service on or off.",
  ),
  serviceSetter(
    "set_location_service_status",
    "location_service",
    "location service",
    "Location service cannot be turned on in low battery mode",
    false,
    "Switch location service on or off.",
  ),
  setLowBatteryModeStatus,
  serviceSetter("set_wifi_status", "wifi", "wifi", "Wifi cannot be turned on in low battery mode", true, "Switch wifi on or off."),
];

// The extension's side of the debugger: package.json declares the `toolsandbox` debugger, lets
// breakpoints be set in scenario files, and describes the launch attributes the adapter accepts.
import { strict as assert } from "node:assert";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { checkLaunchArguments } from "../../engine/debug/launch-arguments.js";

interface Debugger {
  readonly type: string;
  readonly languages: readonly string[];
  readonly configurationAttributes: {
    readonly launch: { readonly required: readonly string[]; readonly properties: Record<string, unknown> };
  };
  readonly initialConfigurations: readonly Record<string, unknown>[];
}

const manifest = JSON.parse(readFileSync("package.json", "utf8")) as {
  contributes: { debuggers: readonly Debugger[]; breakpoints: readonly { language: string }[] };
  activationEvents: readonly string[];
};
const debuggerEntry = manifest.contributes.debuggers.find((d) => d.type === "toolsandbox");

test("package.json declares the toolsandbox debugger, with breakpoints in scenario files", () => {
  assert.ok(debuggerEntry, "a debugger of type toolsandbox");
  assert.deepEqual(manifest.contributes.breakpoints, [{ language: "toolsandbox-scenario" }]);
  assert.ok(manifest.activationEvents.includes("onDebugResolve:toolsandbox"));
});

test("every launch attribute the manifest describes is one the adapter accepts, and the initial configuration launches", () => {
  const sample: Record<string, unknown> = {
    program: "a.scenario.yaml",
    agent: "openai:gpt-4o",
    user: "scripted",
    agentBaseUrl: "http://127.0.0.1:8765/v1",
    userBaseUrl: "http://127.0.0.1:8765/v1",
    seed: 3,
    stopOnEntry: true,
    out: "runs",
    scenario: "a.scenario.yaml",
    cwd: "/work/scenarios",
  };
  const properties = Object.keys(debuggerEntry!.configurationAttributes.launch.properties).sort();
  assert.deepEqual(properties, Object.keys(sample).sort());
  const checked = checkLaunchArguments(sample, "/work");
  assert.notEqual(typeof checked, "string", String(checked));
  for (const name of properties) assert.ok(name in (checked as object), `${name} is read by the adapter`);
  const initial = { ...debuggerEntry!.initialConfigurations[0], program: "x.scenario.yaml" };
  assert.notEqual(typeof checkLaunchArguments(initial, "/work"), "string");
  assert.equal(
    checkLaunchArguments({ ...sample, agent: "gpt-4o" }, "/work"),
    'agent: "gpt-4o" is not scripted, openai:MODEL, cmd:COMMAND LINE or a2a:URL',
  );
  assert.equal(checkLaunchArguments({ ...sample, seed: -1 }, "/work"), "seed: must be a non-negative whole number");
});

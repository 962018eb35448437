// `toolsandbox play --as agent` at a real terminal: util-linux's `script` gives the CLI a
// pseudo-terminal, and the test types keys as a person would, each step waiting for what the
// terminal shows before the next. Tab completes the tool name, the argument name and a value from
// the world; the completed call is the one the run records.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { readTrajectoryFile } from "../../engine/trajectory/reader.js";
import { CLI, removeTempDirs, requireBuild, tempDir } from "./harness.js";

before(() => {
  requireBuild();
  const probe = spawnSync("script", ["--version"], { encoding: "utf8" });
  if (probe.status !== 0 || !/util-linux/.test(probe.stdout))
    throw new Error("needs util-linux's `script` (apt-get install util-linux) to run play in a terminal");
});
after(removeTempDirs);

const SCENARIO = "sample-scenarios/remove_contact_by_phone_adapted.scenario.yaml";
/** Kills a session whose terminal never shows what the next step waits for; the test then fails saying where it stopped. */
const GUARD_MS = 60_000;

/** Each step: what the terminal must have shown since the last step, then the keys typed. */
const STEPS: readonly (readonly [RegExp, string])[] = [
  [/agent> /, "search_c\t"],
  [/search_contacts\(/, "phone_n\t"],
  [/phone_number=/, '"+1245\t'],
  [/"\+12453344098"/, ")\r"],
  [/milestone searched_by_phone matched/, "remove_con\t"],
  [/remove_contact\(/, "\x15/qu\t"],
  [/\/quit/, "\r"],
];

test("at a terminal, Tab completes tool names, argument names and values from the world", async () => {
  const out = tempDir("play-terminal");
  const command = `'${process.execPath}' '${CLI}' play '${SCENARIO}' --as agent --out '${out}'`;
  const child = spawn("script", ["-q", "-e", "-c", command, "/dev/null"], { env: { PATH: process.env.PATH ?? "", TERM: "xterm" } });
  const pending = [...STEPS];
  let shown = "";
  child.stdout.on("data", (chunk: Buffer) => {
    shown += chunk.toString();
    while (pending.length > 0 && pending[0]![0].test(shown)) {
      const [, keys] = pending.shift()!;
      shown = "";
      child.stdin.write(keys);
    }
  });
  const guard = setTimeout(() => child.kill(), GUARD_MS);
  const status = await new Promise<number | null>((resolve) => child.on("close", resolve));
  clearTimeout(guard);
  assert.equal(pending.length, 0, `the terminal never showed ${pending[0]?.[0]}; it showed: ${JSON.stringify(shown)}`);
  assert.equal(status, 0, shown);
  assert.match(shown, /end: script_exhausted \(the person playing the agent quit\)/);
  const [file] = readdirSync(out).filter((f) => f.endsWith(".trajectory.jsonl"));
  assert.ok(file, `no trajectory in ${out}`);
  const calls = readTrajectoryFile(join(out, file)).messages.flatMap((m) => (m.sender === "agent" && m.tool_call ? [m.tool_call] : []));
  assert.deepEqual(calls, [{ id: "call_1", name: "search_contacts", arguments: { phone_number: "+12453344098" } }]);
});

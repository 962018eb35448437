import { before, test } from "node:test";
import assert from "node:assert/strict";
import { requireBuild, lines, runCli } from "./harness.js";

before(requireBuild);

/** A usage problem: exit 2 and exactly one line on stderr, with no stack trace. */
function assertUsageError(args: string[], pattern: RegExp): void {
  const r = runCli(args);
  assert.equal(r.status, 2, `exit code of toolsandbox ${args.join(" ")}\n${r.stderr}`);
  assert.equal(r.stdout, "");
  const errLines = lines(r.stderr);
  assert.equal(errLines.length, 1, `one line on stderr, got:\n${r.stderr}`);
  assert.match(errLines[0]!, /^toolsandbox: /);
  assert.match(errLines[0]!, pattern);
}

test("--help lists the commands and documents the exit codes", () => {
  const r = runCli(["--help"]);
  assert.equal(r.status, 0);
  for (const command of ["validate", "run", "eval", "replay", "tools"]) assert.match(r.stdout, new RegExp(`^  ${command} `, "m"));
  assert.match(r.stdout, /Exit codes:/);
  for (const code of ["0", "1", "2", "3", "4", "70"]) assert.match(r.stdout, new RegExp(`^  ${code} +\\S`, "m"));
});

test("every command has its own --help", () => {
  for (const command of ["validate", "run", "eval", "replay", "tools"]) {
    const r = runCli([command, "--help"]);
    assert.equal(r.status, 0, command);
    assert.match(r.stdout, new RegExp(`^Usage: toolsandbox ${command}`, "m"));
  }
  assert.match(runCli(["run", "--help"]).stdout, /--seed <n>/);
});

test("an unknown option is a one-line usage error", () => {
  assertUsageError(["validate", "--bogus", "x.scenario.yaml"], /unknown option '--bogus'/);
});

test("an unknown command is a one-line usage error", () => {
  assertUsageError(["frobnicate"], /unknown command 'frobnicate'/);
});

test("a missing argument or required option is a usage error", () => {
  assertUsageError(["validate"], /missing required argument 'paths'/);
  assertUsageError(["run", "x.scenario.yaml"], /required option '-o, --out <dir>' not specified/);
});

test("only scripted and openai:<model> roles are accepted, and the error says so", () => {
  assertUsageError(
    ["run", "x.scenario.yaml", "--out", "o", "--agent", "gpt-4o"],
    /^toolsandbox: --agent: unsupported agent "gpt-4o" \(supported: scripted, openai:<model>, cmd:'<command line>', a2a:<url>\)/,
  );
  assertUsageError(
    ["run", "x.scenario.yaml", "--out", "o", "--user", "human"],
    /^toolsandbox: --user: unsupported user "human" \(supported: scripted, openai:<model>\)/,
  );
});

test("model options need a model-backed role, and OpenAI needs a key", () => {
  assertUsageError(
    ["run", "x.scenario.yaml", "--out", "o", "--agent-temperature", "0"],
    /^toolsandbox: --agent-temperature applies to a model-backed agent only/,
  );
  assertUsageError(
    ["run", "x.scenario.yaml", "--out", "o", "--agent-temperature", "9"],
    /^toolsandbox: --agent-temperature: the temperature must be a number from 0 to 2, got "9"/,
  );
  assertUsageError(
    ["run", "x.scenario.yaml", "--out", "o", "--agent", "openai:gpt-4o", "--agent-api-key-env", "TOOLSANDBOX_TEST_UNSET_KEY"],
    /^toolsandbox: the agent's API key is missing: set the environment variable TOOLSANDBOX_TEST_UNSET_KEY/,
  );
});

test("the seed must be a whole number, said as every numeric option says it", () => {
  assertUsageError(
    ["run", "x.scenario.yaml", "--out", "o", "--seed", "1.5"],
    /^toolsandbox: --seed: the seed must be a whole number from 0 to 9007199254740991, got "1\.5"/,
  );
});

test("no command at all prints the help and exits 2", () => {
  const r = runCli([]);
  assert.equal(r.status, 2);
  assert.match(r.stderr, /Usage: toolsandbox/);
});

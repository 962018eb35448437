// `validate --strict`: warnings fail the run (a knowledge leak, say), reported as errors.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { requireBuild, lines, removeTempDirs, runCli, tempDir } from "./harness.js";

before(requireBuild);
after(removeTempDirs);

const LEAKY = `name: leaky_opening
user:
  goal: Find the door code.
  knowledge:
    - { fact: The code is XJ-42., value: XJ-42, reveal: never }
  opening: The code is XJ-42, can you note it?
milestones:
  - id: wifi_on
    constraints: [{ kind: snapshot, table: SETTING, target: [{ wifi: true }] }]
reference:
  - agent: Noted.
  - end_conversation: true
`;

test("a knowledge leak is a warning that exits 0, and with --strict an error that exits 1", () => {
  const dir = tempDir("strict");
  const file = join(dir, "leaky.scenario.yaml");
  writeFileSync(file, LEAKY);
  const plain = runCli(["validate", file]);
  assert.equal(plain.status, 0, plain.stdout);
  assert.match(plain.stdout, /:6:\d+: warning knowledge-leak: /);
  const strict = runCli(["validate", "--strict", file]);
  assert.equal(strict.status, 1);
  assert.match(strict.stdout, /:6:\d+: error knowledge-leak: /);
  assert.equal(lines(strict.stdout).at(-1), "1 file checked: 1 error, 0 warnings");
});

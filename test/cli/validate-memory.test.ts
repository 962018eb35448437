// `validate` on a file larger than the memory it has left: with the size limit raised, a 20 MB
// scenario under a 1.5 GB address-space limit (`ulimit -v`) once ended in V8's std::bad_alloc
// (exit 134, a stack dump). It is now refused before it is read, with one line naming the limit.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, it } from "node:test";
import { requireBuild, CLI, lines, removeTempDirs, tempDir } from "./harness.js";

before(requireBuild);
after(removeTempDirs);

/** A valid scenario of about `bytes`: the sample's user knows many one-line facts (the densest real shape). */
function bigScenario(bytes: number): string {
  const sample = readFileSync("sample-scenarios/add_contact_with_name_and_phone_number_adapted.scenario.yaml", "utf8");
  const [head, rest] = sample.split("  opening:");
  const fact = (i: number): string => `    - fact: You have no other details about him (note ${i}), not even how you know him.\n`;
  const facts: string[] = [];
  for (let size = 0, i = 0; size < bytes; i++) {
    facts.push(fact(i));
    size += fact(i).length;
  }
  return `${head}${facts.join("")}  opening:${rest}`;
}

it("validate refuses a file too large for the memory left under ulimit -v with one clear line, not an abort", () => {
  const file = join(tempDir("validate-memory"), "big.scenario.yaml");
  writeFileSync(file, bigScenario(20_000_000));
  // 1.5 GB of address space: enough for node to start, far too little to parse 20 MB of YAML.
  const result = spawnSync("/bin/sh", ["-c", `ulimit -v 1500000 && exec "${process.execPath}" "${CLI}" validate "${file}"`], {
    encoding: "utf8",
    env: { PATH: process.env.PATH ?? "", TOOLSANDBOX_MAX_SCENARIO_BYTES: "100000000" },
    timeout: 300_000,
  });
  assert.equal(result.status, 1, `exit ${result.status} (${result.signal ?? "no signal"}): ${result.stderr.slice(0, 300)}`);
  assert.equal(result.stderr, "");
  const [diagnostic, summary] = lines(result.stdout);
  assert.match(
    diagnostic ?? "",
    /^.*big\.scenario\.yaml:1:1: error limit-memory: The file is 20,0\d\d,\d\d\d bytes: checking it needs about [\d,]+ MiB of memory, and this process has [\d,]+ MiB left under its address-space limit \(ulimit -v\)\.$/,
  );
  assert.equal(summary, "1 file checked: 1 error, 0 warnings");
});

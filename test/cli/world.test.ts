// `toolsandbox world`: each pack's default world with its ids, and the copy in the format docs.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { requireBuild, lines, removeTempDirs, runCli } from "./harness.js";

before(requireBuild);
after(removeTempDirs);

test("the ToolSandbox world lists every table with its key and the default ids", () => {
  const r = runCli(["world"]);
  assert.equal(r.status, 0, r.stderr);
  const out = lines(r.stdout);
  for (const heading of [
    "SETTING (1 row; key device_id)",
    "CONTACT (4 rows; key person_id)",
    "MESSAGING (5 rows; key message_id)",
    "REMINDER (3 rows; key reminder_id)",
  ]) {
    assert.ok(out.includes(heading), heading);
  }
  // Homer's id is uuid5 of his name, as upstream derives it; his row shows it.
  assert.ok(out.some((l) => l.includes("e3570ab6-0819-5032-be1e-2b366390c8ef") && l.includes("Homer S")));
  assert.ok(out.some((l) => l.includes("Look for Company SF tickets") && l.includes("now - 3d") && l.includes("now - 1d")));
});

test("--json gives the tables as data and --pack another pack", () => {
  const json = JSON.parse(runCli(["world", "--json"]).stdout) as { pack: string; tables: Record<string, unknown[]> };
  assert.equal(json.pack, "toolsandbox");
  assert.equal(json.tables.CONTACT?.length, 4);
  const tooltalk = runCli(["world", "--pack", "tooltalk"]);
  assert.equal(tooltalk.status, 0);
  assert.match(tooltalk.stdout, /SESSION \(1 row; key username\)/);
  assert.equal(runCli(["world", "--pack", "nope"]).status, 2);
});

test("the default world in docs/scenario-format.md is what the command prints", () => {
  const doc = readFileSync("docs/scenario-format.md", "utf8");
  const block = /<!-- toolsandbox world -->\n```text\n([\s\S]*?)\n```/.exec(doc)?.[1];
  assert.ok(block, "the marked block is in the docs");
  const printed = runCli(["world"]).stdout.trimEnd().split("\n").slice(0, -2).join("\n");
  assert.equal(block, printed);
});
